"""`course.py nbgrader-export` makes a source/ course the real nbgrader can release and grade.

One lesson, two students: the solution (full marks) and the untouched release (zero),
through `nbgrader generate_assignment` and `nbgrader autograde` as a teacher runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from classroom.grader import nbgrader as export
from classroom.grader.assignments import columns

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "solutions" / "02_truncation_and_the_400.ipynb"
CHECKS = len(columns("02"))  # one autograder cell, one point, per check


def test_source_cells_carry_nbgrader_metadata(tmp_path: Path) -> None:
    [path] = export.export([SOLUTION], tmp_path)
    assert path == tmp_path / "source" / "lesson02" / SOLUTION.name
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    meta = [c["metadata"].get("nbgrader") for c in cells]
    solutions = [m for m in meta if m and m["solution"]]
    tests = [m for m in meta if m and m["grade"]]
    assert len(solutions) == 3 and all(not m["locked"] for m in solutions)
    assert len(tests) == CHECKS and all(m["locked"] and m["points"] == 1 for m in tests)
    assert len({m["grade_id"] for m in solutions + tests}) == 3 + CHECKS


@pytest.mark.skipif(shutil.which("nbgrader", path=os.path.dirname(sys.executable)) is None,
                    reason="nbgrader is not installed (it is in the test extras)")
@pytest.mark.heavy  # nbgrader's whole release and autograde: with --all only
def test_nbgrader_releases_and_autogrades_the_export(tmp_path: Path) -> None:
    course = tmp_path / "course"
    export.export([SOLUTION], course)
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"],
               AGENTLIB_OFFLINE="1")

    def nbgrader(*args: str) -> None:
        subprocess.run(["nbgrader", *args, f"--CourseDirectory.root={course}"], cwd=course,
                       env=env, check=True, capture_output=True, timeout=600)

    nbgrader("generate_assignment", "lesson02")
    released = course / "release" / "lesson02" / SOLUTION.name
    assert "raise NotImplementedError()" in released.read_text(encoding="utf-8")
    for student, notebook in (("perfect", course / "source" / "lesson02" / SOLUTION.name),
                              ("untouched", released)):
        (course / "submitted" / student / "lesson02").mkdir(parents=True)
        shutil.copy(notebook, course / "submitted" / student / "lesson02" / SOLUTION.name)
    nbgrader("autograde", "lesson02")
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: (gb.find_submission("lesson02", s).score,
                      gb.find_submission("lesson02", s).max_score)
                  for s in ("perfect", "untouched")}
    assert scores == {"perfect": (CHECKS, CHECKS), "untouched": (0.0, CHECKS)}
