"""docs/instructor-guide.md stays true to the notebooks: its durations table is the one
scripts/lesson_durations.py computes, its agendas' times add up, it names every graded
exercise (and no other), and the README and the hub guide link to it."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "instructor-guide.md"


def durations():
    spec = importlib.util.spec_from_file_location("lesson_durations",
                                                  ROOT / "scripts" / "lesson_durations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_durations_table_matches_the_notebooks():
    text = GUIDE.read_text(encoding="utf-8")
    assert durations().table() in text, (
        "the durations table is stale: run `python scripts/lesson_durations.py --write`")


def test_the_estimate_follows_the_stated_formula():
    d = durations()
    row = next(r for r in d.rows() if r["label"].startswith("01 "))
    raw = row["words"] / d.READING_WPM + row["code"] * d.CODE_CELL_MIN
    assert row["minutes"] - 5 < raw <= row["minutes"]
    text = GUIDE.read_text(encoding="utf-8")
    assert f"**{d.READING_WPM} words a minute**" in text
    assert f"**{d.CODE_CELL_MIN:g} minutes per code cell**" in text
    assert f"**{d.EXERCISE_FN_MIN} minutes per graded" in text


def minutes(clock: str) -> int:
    hours, mins = clock.split(":")
    return int(hours) * 60 + int(mins)


@pytest.mark.parametrize("name, length", [("3h", 180), ("day", 480)])
def test_each_agenda_adds_up(name, length):
    text = GUIDE.read_text(encoding="utf-8")
    block = text.split(f"<!-- agenda:{name} -->", 1)[1].split("<!-- agenda:end -->", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in block.strip().splitlines()[2:]]
    starts = [minutes(r[0]) for r in rows]
    for (start, mins, what), nxt in zip(rows, starts[1:], strict=False):
        assert minutes(start) + int(mins) == nxt, f"{start} + {mins} min ({what}) != next row"
    assert rows[-1][2] == "End" and starts[-1] - starts[0] == length
    assert any("Break" in r[2] for r in rows)


def test_the_guide_names_every_graded_exercise():
    graded = set()
    for path in (ROOT / "solutions").glob("*.ipynb"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        graded |= set(nb["metadata"]["agentlib"]["exercises"])
    named = set(re.findall(r"`(ex\d+[a-z]?\.\w+)`", GUIDE.read_text(encoding="utf-8")))
    assert graded and named == graded, {"not in the guide": graded - named,
                                        "not an exercise": named - graded}


def test_the_guide_is_linked_and_its_links_resolve():
    assert "docs/instructor-guide.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "instructor-guide.md" in (ROOT / "docs" / "teaching-on-jupyterhub.md").read_text(
        encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)\)", GUIDE.read_text(encoding="utf-8")):
        assert (GUIDE.parent / target).exists(), target


def test_every_lesson_fits_a_sitting():
    """Issue 23: each lesson is at most 40 minutes by the estimator, and every lesson
    notebook is in the estimator's list (a split lesson is counted as two)."""
    lesson_durations = durations()
    listed = {f"{lesson}.ipynb" for _, lesson, _ in lesson_durations.LESSONS if lesson}
    on_disk = {p.name for p in (ROOT / "lessons").glob("*.ipynb")}
    assert on_disk == listed, f"not in scripts/lesson_durations.py: {sorted(on_disk - listed)}"
    long = {r["label"]: r["minutes"] for r in lesson_durations.rows() if r["minutes"] > 40}
    assert not long, f"lessons over 40 minutes: {long}"
