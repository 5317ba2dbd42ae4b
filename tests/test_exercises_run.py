"""Every exercise notebook runs top to bottom untouched, and the grader scores the course.

An untouched exercise must not raise: its `check(...)` cells print TODO instead. The
grader must give the solutions full marks and the untouched exercises zero.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from agentlib import grade

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


@pytest.fixture(scope="module")
def graded_course() -> dict[str, grade.Graded]:
    """Every solution and every untouched exercise, graded by the grading command's code
    path (sandbox, worker, checks across the boundary), two at a time."""
    rows = grade.grade_class([str(p) for p in SOLUTIONS + EXERCISES], jobs=2,
                             cell_timeout=60, check_timeout=60, deadline=600)
    return {g.file: g for g in rows}


@pytest.mark.parametrize("path", SOLUTIONS or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_solution_scores_full_marks(graded_course: dict, path: Path) -> None:
    g = graded_course[str(path)]
    failed = {f"{r['exercise']}: {r['check']}": (r["status"], r["detail"])
              for r in g.results if r["status"] != "pass"}
    assert not failed and g.passed == len(g.columns), f"{failed} ({g.note})"


@pytest.mark.parametrize("path", EXERCISES or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_untouched_exercise_scores_zero_without_crashing(graded_course: dict, path: Path) -> None:
    g = graded_course[str(path)]
    assert g.columns and {r["status"] for r in g.results} <= {"todo", "missing", "fail"}, \
        f"{g.results} ({g.note})"
