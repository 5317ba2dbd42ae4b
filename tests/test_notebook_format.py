"""Every notebook is saved the way JupyterLab would save it, so opening one changes nothing.

JupyterLab rewrites a kernelspec it does not recognise ("Python 3" becomes "Python 3
(ipykernel)"), marks the notebook changed and autosaves it: a git diff for every learner
who only looked. The repo's scripts write the kernelspec below; this test fails otherwise.
"""

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from execute_notebooks import KERNELSPEC  # noqa: E402

NOTEBOOKS = sorted(p for folder in ("lessons", "solutions", "exercises")
                   for p in (ROOT / folder).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)


def test_the_kernelspec_is_the_one_jupyterlab_writes():
    assert KERNELSPEC == {"display_name": "Python 3 (ipykernel)", "language": "python",
                          "name": "python3"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_metadata(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["metadata"].get("kernelspec") == KERNELSPEC
    assert "widgets" not in nb["metadata"]  # widget state is not saved (ids change per run)
    for cell in nb["cells"]:
        assert "execution" not in cell.get("metadata", {})  # no timings


# The lessons, 01 to 09, each split-off part (03b, 05b, ...) after its lesson; not the start
# page, not the appendices.
LESSONS = sorted(p for p in (ROOT / "lessons").glob("*.ipynb")
                 if re.match(r"0[1-9][a-z]?_", p.name))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def exercise_of(lesson: Path) -> str:
    """The exercise notebook of a lesson: its own (01b has one), else the one with its
    number (05b shares 05's)."""
    part = re.match(r"\d+[a-z]?", lesson.name).group()
    found = sorted((ROOT / "exercises").glob(f"{part}_*.ipynb")) or \
        sorted((ROOT / "exercises").glob(f"{part[:2]}_*.ipynb"))
    assert len(found) == 1, (lesson.name, found)
    return found[0].name


def test_the_lessons_are_in_order_each_split_part_after_its_lesson():
    names = [p.name[:3] for p in LESSONS]
    numbers = sorted({n[:2] for n in names})
    assert numbers == [f"{i:02d}" for i in range(1, 10)]
    for number in numbers:
        parts = [n for n in names if n.startswith(number)]
        assert parts in ([f"{number}_"], [f"{number}_", f"{number}b"],
                         [f"{number}_", f"{number}b", f"{number}c"]), parts


def markdown_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


KO_LESSONS = [ROOT / "lessons" / "ko" / p.name for p in LESSONS]
EDITIONS = {"en": (LESSONS, "../exercises/"), "ko": (KO_LESSONS, "../../exercises/ko/")}


@pytest.mark.parametrize("edition, path", [(e, p) for e, (ps, _) in EDITIONS.items() for p in ps],
                         ids=lambda x: x if isinstance(x, str) else x.name)
def test_a_lesson_ends_with_its_exercise_and_the_next_lesson(edition, path):
    lessons, exercises = EDITIONS[edition]
    last = markdown_cells(path)[-1]
    assert f"]({exercises}{exercise_of(path)})" in last
    later = [p for p in lessons if p.name > path.name]
    if later:
        assert f"]({later[0].name})" in last


@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "README.md", ROOT / "lessons/ko/README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(path):
    texts = [path.read_text(encoding="utf-8")] if path.suffix == ".md" else markdown_cells(path)
    broken = [link for text in texts for link in LINK.findall(text)
              if "://" not in link and not link.startswith("mailto:")
              and not (path.parent / link).exists()]
    assert broken == []


def test_the_browser_tests_lesson_still_has_the_window_viewer():
    """scripts/browser_test.py moves the viewer's slider in its lesson (both editions): the
    lesson must keep a `viz.window_viewer(...)` code cell, or CI's browser test fails."""
    script = (ROOT / "scripts" / "browser_test.py").read_text(encoding="utf-8")
    for name in re.findall(r'^(?:LESSON|KOREAN) = "([^"]+)"', script, re.M):
        nb = json.loads((ROOT / name).read_text(encoding="utf-8"))
        assert any("viz.window_viewer(" in "".join(c["source"]) for c in nb["cells"]
                   if c["cell_type"] == "code"), name
