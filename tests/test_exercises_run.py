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


def graded(path: Path) -> grade.Graded:
    """Grade one course notebook on the exercises it declares."""
    nb, why = grade.read_notebook(path)
    assert nb is not None, why
    exercises = grade.exercises_in(nb)
    assert exercises, f"{path.name} declares no exercises (metadata agentlib.exercises)"
    return grade.grade_notebook(grade.Submission(path.stem, path), exercises,
                                cell_timeout=60, deadline=600)


@pytest.mark.parametrize("path", SOLUTIONS or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_solution_scores_full_marks(path: Path) -> None:
    g = graded(path)
    failed = {f"{ex}: {title}": s for (ex, title), s in g.statuses.items() if s != "pass"}
    assert not failed, f"{failed} ({g.note})"


@pytest.mark.parametrize("path", EXERCISES or [NONE_YET], ids=lambda p: p.name if p else "none")
def test_untouched_exercise_scores_zero_without_crashing(path: Path) -> None:
    g = graded(path)
    assert set(g.statuses.values()) <= {"todo", "missing", "fail"}, f"{g.statuses} ({g.note})"
