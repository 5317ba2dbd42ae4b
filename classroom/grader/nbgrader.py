"""The solutions as an nbgrader `source/` course, for teachers already on nbgrader.

    python3 course.py nbgrader-export [--out nbgrader-course] [NOTEBOOK ...]

For each solutions notebook NN_name.ipynb it writes `OUT/source/lessonNN/NN_name.ipynb`:

- a code cell holding `### BEGIN SOLUTION` ... `### END SOLUTION` becomes an nbgrader
  solution cell (nbgrader uses the same markers: `nbgrader generate_assignment` replaces
  each region with `raise NotImplementedError()`, as `course.py exercises` does);
- after each exercise's `check("...")` cell come its autograder test cells, one per
  check, locked, worth that check's points: `assert_check(exercise, title)` runs the
  course's own check in the notebook and raises AssertionError unless it passes;
- cells tagged `solution-only` are left out.

Then, in OUT: `nbgrader generate_assignment lessonNN`, collect into
`submitted/STUDENT/lessonNN/`, and `nbgrader autograde lessonNN`. nbgrader runs the checks
inside the student's own kernel, which holds none of the class grader's protections: the
checks and the course's references are importable and patchable there (a cell that
replaces `assert_check` passes every test cell), the inputs are the public seeds, nothing
is withheld, and the watch is the in-process one. For grades that count, run the class
grader on the same folder: `python -m classroom.grade OUT/submitted/` (a student per
folder; the test cells' `assert_check` is a no-op in its sandbox, the checks run outside).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat

from classroom import grading
from classroom.grader.assignments import CHECK_CALL, normalize

BEGIN = re.compile(r"^[ \t]*### BEGIN SOLUTION[ \t]*$", re.M)


def _meta(grade_id: str, *, solution: bool = False, grade: bool = False,
          points: float = 0.0) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution,
            "schema_version": 3, "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return meta


def test_cell(exercise: str, check: grading.Check, number: int) -> nbformat.NotebookNode:
    """The autograder cell of one check."""
    cell = nbformat.v4.new_code_cell(
        "from classroom.grading import assert_check\n"
        f"assert_check({exercise!r}, {check.title!r})")
    cell.metadata["nbgrader"] = _meta(f"{exercise.replace('.', '-')}-check{number}",
                                      grade=True, points=check.points)
    return cell


def to_source(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """An nbgrader source notebook made from a solutions notebook (not modified)."""
    grading._load_checks()
    nb = copy.deepcopy(solution)
    cells = []
    for index, cell in enumerate(nb.cells):
        if "solution-only" in cell.get("metadata", {}).get("tags", []):
            continue
        cells.append(cell)
        if cell.cell_type != "code":
            continue
        if BEGIN.search(cell.source):
            cell.metadata["nbgrader"] = _meta(f"solution-{index + 1}", solution=True)
        for name in CHECK_CALL.findall(cell.source):
            for exercise in grading.exercises_matching(name):
                cells += [test_cell(exercise, c, k + 1)
                          for k, c in enumerate(grading.CHECKS[exercise])]
    nb.cells = cells
    return nb


def export(solutions: list[Path], out: Path) -> list[Path]:
    """Write OUT/source/lessonNN/NAME.ipynb for each solutions notebook; their paths."""
    written = []
    for path in solutions:
        with open(path, encoding="utf-8") as f:
            solution = nbformat.read(f, as_version=4)
        target = out / "source" / f"lesson{normalize(path.stem)}" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as f:
            nbformat.write(to_source(solution), f)
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    import argparse

    root = Path(__file__).resolve().parents[2]
    p = argparse.ArgumentParser(prog="course.py nbgrader-export",
                                description=__doc__.split("\n")[0])
    p.add_argument("notebooks", nargs="*", type=Path,
                   help="solutions notebooks (default: all of solutions/)")
    p.add_argument("--out", type=Path, default=Path("nbgrader-course"),
                   help="the nbgrader course folder to write source/ into")
    args = p.parse_args(argv)
    notebooks = args.notebooks or sorted((root / "solutions").glob("*.ipynb"))
    if not notebooks:
        p.error("no solutions notebooks found (a student copy has none)")
    for path in export(notebooks, args.out):
        print(f"wrote {path}")
    print(f"next: cd {args.out} && nbgrader generate_assignment lessonNN")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
