"""`course.py nbgrader-export` makes a source/ course the real nbgrader can release and grade.

One lesson, three students: the solution (full marks), the untouched release (zero), and a
forger whose first cell replaces `assert_check`, through `nbgrader generate_assignment` and
`nbgrader autograde` as a teacher runs them. nbgrader runs the checks in the student's own
kernel, so the forger gets full marks there (what the nbgrader route cannot hold: the
course's checks and references are importable and patchable in that kernel, its inputs are
the shipped ones, nothing is withheld); `course.py grade` on nbgrader's submitted/ folder
grades the same notebooks in the sandbox, where the forger gets 0.
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
                              ("untouched", released), ("forger", released)):
        (course / "submitted" / student / "lesson02").mkdir(parents=True)
        shutil.copy(notebook, course / "submitted" / student / "lesson02" / SOLUTION.name)
    forged = course / "submitted" / "forger" / "lesson02" / SOLUTION.name
    nb = json.loads(forged.read_text(encoding="utf-8"))
    nb["cells"].insert(0, {"cell_type": "code", "execution_count": None, "metadata": {},
                           "outputs": [], "source": "import classroom.grading as g\n"
                                                    "g.assert_check = lambda *a, **k: None"})
    forged.write_text(json.dumps(nb), encoding="utf-8")
    nbgrader("autograde", "lesson02")
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: (gb.find_submission("lesson02", s).score,
                      gb.find_submission("lesson02", s).max_score)
                  for s in ("perfect", "untouched", "forger")}
    assert scores == {"perfect": (CHECKS, CHECKS), "untouched": (0.0, CHECKS),
                      "forger": (CHECKS, CHECKS)}  # the student's kernel holds the verdict
    from classroom import grade

    rows = {g.student: g for g in grade.grade_class([str(course / "submitted")], jobs=2,
                                                    cell_timeout=60, check_timeout=60)}
    assert {s: (g.assignment, g.passed) for s, g in rows.items()} == {
        "perfect": ("02", CHECKS), "untouched": ("02", 0), "forger": ("02", 0)}, \
        {s: g.notes for s, g in rows.items()}
