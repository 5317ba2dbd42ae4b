"""Every exercise notebook runs top to bottom untouched, and the grader scores the course.

An untouched exercise must not raise: its `check(...)` cells print TODO instead. The
grader must give the solutions full marks and the untouched exercises zero: the whole
class run is heavy (`course.py test --all`); every day, the solutions' saved outputs
(which nbval re-executes and compares, strict) must show every check of theirs passing.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from classroom import grade, grading

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
NONE_YET = pytest.param(None, marks=pytest.mark.skip(reason="no notebooks there yet"))


@pytest.mark.parametrize("path", EXERCISES or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_untouched_exercise_runs_without_errors(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTLIB_OFFLINE", "1")  # the kernel inherits it
    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    # raises CellExecutionError (naming the cell) if any untagged cell raises
    NotebookClient(nb, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                      for o in c.outputs)
    assert "PASS " not in printed, "an untouched exercise already passes a check"
    assert "TODO " in printed, "no check(...) cell printed TODO for the untouched functions"


@pytest.mark.parametrize("path", SOLUTIONS + sorted((ROOT / "solutions" / "ko").glob("*.ipynb"))
                         or [NONE_YET], ids=lambda p: p.parent.name + "/" + p.name if p else "none")
def test_every_check_of_a_solution_passes_in_its_saved_outputs(path: Path) -> None:
    """The day-to-day half of the class run below: nbval re-runs each solution and compares
    these outputs (the Korean ones with `--all`), so what they print is what the checks say
    now (in the learner's kernel; the grader's sandbox and its boundary are the heavy run's)."""
    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    declared = nb.metadata["agentlib"]["exercises"]
    grading._load_checks()
    say = grading.translate if path.parent.name == "ko" else str  # the labels Result.line prints
    label = {status: f"{say(status.upper()):<5} " for status in grading.STATUSES}
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                      for o in c.outputs)
    lines = [ln for ln in printed.splitlines() if ln.startswith(tuple(label.values()))]
    assert lines and all(ln.startswith(label["pass"]) for ln in lines), lines
    for exercise in declared:  # each declared exercise, each of its checks, passed
        passed = sum(ln.startswith(f"{label['pass']}{exercise}:") for ln in lines)
        assert passed == len(grading.CHECKS[exercise]), (exercise, passed)


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The course as a class hands it in, a folder per student (several assignments
    each): "solutions" hands in every solution, "untouched" every exercise as it is,
    "partial" one solution only. Graded by the grading command's own code path (sandbox,
    worker, checks across the boundary), two notebooks at a time."""
    base = tmp_path_factory.mktemp("class")
    for student, paths in (("solutions", SOLUTIONS), ("untouched", EXERCISES),
                           ("partial", SOLUTIONS[1:2])):
        (base / "subs" / student).mkdir(parents=True)
        for path in paths:
            shutil.copy(path, base / "subs" / student / path.name)
    rows = grade.grade_class([str(base / "subs")], csv_path=str(base / "grades.csv"), jobs=2,
                             cell_timeout=60, check_timeout=60, deadline=600)
    return {"rows": {(g.student, g.assignment): g for g in rows}, "base": base}


def number(path: Path) -> str:
    """The assignment a notebook is: its number, and a part's letter ("01b")."""
    return re.match(r"\d+[a-z]?", path.name).group()


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
@pytest.mark.parametrize("path", SOLUTIONS or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_solution_scores_full_marks(graded_course: dict, path: Path) -> None:
    g = graded_course["rows"][("solutions", number(path))]
    failed = {f"{r['exercise']}: {r['check']}": (r["status"], r["detail"])
              for r in g.results if r["status"] != "pass"}
    assert not failed and g.passed == len(g.columns), f"{failed} ({g.note})"
    assert not g.notes, f"an honest notebook gets no note: {g.notes}"  # lesson 6's notes cell


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
@pytest.mark.parametrize("path", EXERCISES or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_untouched_exercise_scores_zero_without_crashing(graded_course: dict, path: Path) -> None:
    g = graded_course["rows"][("untouched", number(path))]
    assert g.columns and {r["status"] for r in g.results} <= {"todo", "missing", "fail"}, \
        f"{g.results} ({g.note})"


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_a_folder_per_student_gives_a_row_per_assignment_with_its_own_columns(
        graded_course: dict) -> None:
    rows = graded_course["rows"]
    assignments = {number(p) for p in SOLUTIONS}
    assert set(rows) == {(s, a) for s in ("solutions", "untouched", "partial")
                         for a in assignments}
    for a in assignments:  # every student is graded on that assignment's checks only
        assert {len(rows[(s, a)].columns) for s in ("solutions", "untouched", "partial")} == {
            len(rows[("solutions", a)].columns)}
        assert all(ex.startswith(f"ex{int(a[:2])}{a[2:]}.")
                   for ex, _, _ in rows[("solutions", a)].columns)
    missing = [g for (s, a), g in rows.items() if s == "partial" and a != number(SOLUTIONS[1])]
    assert all(g.passed == 0 and "no notebook for assignment" in g.note for g in missing)
    summary = (graded_course["base"] / "grades-reports" / "summary.md").read_text("utf-8")
    total = sum(g.max_points for (s, _), g in rows.items() if s == "solutions")
    assert "| solutions | " in summary and f"{total:g}/{total:g} |" in summary
