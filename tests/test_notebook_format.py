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


LESSONS = sorted((ROOT / "lessons").glob("0[1-9]_*.ipynb"))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def markdown_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_a_lesson_ends_with_its_exercise_and_the_next_lesson(path):
    last = markdown_cells(path)[-1]
    assert f"](../exercises/{path.name})" in last
    later = [p for p in LESSONS if p.name > path.name]
    if later:
        assert f"]({later[0].name})" in last


@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(path):
    texts = [path.read_text(encoding="utf-8")] if path.suffix == ".md" else markdown_cells(path)
    broken = [link for text in texts for link in LINK.findall(text)
              if "://" not in link and not link.startswith("mailto:")
              and not (path.parent / link).exists()]
    assert broken == []
