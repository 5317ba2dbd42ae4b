"""What every exercise's checks must do, for every lesson at once.

Each exercise a solutions notebook declares has several registered checks; with nothing
defined they report `missing`, and with functions that raise NotImplementedError (the
untouched exercise) they report `todo`, never an error.
"""

import json
from pathlib import Path

import pytest
from checktools import statuses

from classroom.grading import CHECKS, exercises_matching

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
EXERCISES = sorted(
    name for nb in SOLUTIONS.glob("*.ipynb")
    for name in json.loads(nb.read_text(encoding="utf-8"))["metadata"]["agentlib"]["exercises"])


def todo(*args, **kwargs):
    raise NotImplementedError


def test_every_lesson_declares_exercises():
    assert len(EXERCISES) >= 3 * 7


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_exercise_has_several_checks(exercise):
    assert exercises_matching(exercise) == [exercise]
    assert len(CHECKS[exercise]) >= 3


@pytest.mark.parametrize("exercise", EXERCISES)
def test_missing_functions_are_reported_not_raised(exercise):
    assert set(statuses(exercise).values()) == {"missing"}


@pytest.mark.parametrize("exercise", EXERCISES)
def test_not_implemented_is_todo(exercise):
    needs = {name for check in CHECKS[exercise] for name in check.needs}
    assert set(statuses(exercise, **dict.fromkeys(needs, todo)).values()) == {"todo"}
