"""`classroom.grading` as the class grader's learner kernel has it: a `check` that checks
nothing (copied there as classroom/grading.py by classroom/grade.py).

The grader runs a notebook's cells in a sandbox whose kernel holds the agent, the kit,
the stand-in and the runner, never the checks (classroom/checks) or the grading that
loads them: a graded function cannot import its answer, or the checks' references. So
that an exercise's first cell (`from classroom.grading import check`) still runs, this
stub stands in. The grader skips the cells that only call `check(...)`; a cell that does
more still runs, and its `check` only says where the checks are.
"""

from __future__ import annotations

from typing import Any


def check(name: str, namespace: Any = None, **options: Any) -> None:
    """Nothing to check here: the grader runs the checks outside the notebook."""
    print(f"check({name!r}): the class grader runs the checks outside this notebook")


def assert_check(exercise: str, title: str, namespace: Any = None) -> None:
    """Nothing to assert here: the grader runs the checks outside the notebook."""
