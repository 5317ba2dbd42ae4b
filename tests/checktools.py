"""Helpers for the tests of the exercise checks (classroom/checks/lessonNN.py)."""

from classroom.grading import CHECKS, run_checks


def statuses(exercise: str, **namespace) -> dict[str, str]:
    """check title -> status for one exercise run against `namespace`."""
    return {r.check: r.status for r in run_checks(exercise, namespace)}


def all_pass(exercise: str, **namespace) -> bool:
    return set(statuses(exercise, **namespace).values()) == {"pass"}


def title(exercise: str, start: str) -> str:
    """The one check title of `exercise` that starts with `start`."""
    found = [c.title for c in CHECKS[exercise] if c.title.startswith(start)]
    assert len(found) == 1, found
    return found[0]
