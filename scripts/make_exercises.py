"""Generate exercises/NAME.ipynb from solutions/NAME.ipynb (never edit exercises/ by hand).

    python scripts/make_exercises.py           # write exercises/
    python scripts/make_exercises.py --check   # exit 1 if exercises/ has drifted

What changes from a solution notebook to its exercise:
- in code cells, each region from a `### BEGIN SOLUTION` line to a `### END SOLUTION`
  line becomes, at the marker's indentation, `# YOUR CODE HERE` and
  `raise NotImplementedError()`;
- in markdown cells, `<!-- BEGIN SOLUTION -->...<!-- END SOLUTION -->` becomes
  `YOUR ANSWER HERE`;
- cells tagged `solution-only` are dropped;
- outputs and execution counts are cleared;
- metadata `agentlib.exercises` lists the exercises the grader must check: kept when the
  solution declares it, otherwise taken from the notebook's `check("...")` calls.
The output is deterministic (nbformat's JSON: indent 1, sorted keys, trailing newline).
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
BEGIN = re.compile(r"^(?P<indent>[ \t]*)### BEGIN SOLUTION[ \t]*$")
END = re.compile(r"^[ \t]*### END SOLUTION[ \t]*$")
MD_REGION = re.compile(r"<!-- BEGIN SOLUTION -->.*?<!-- END SOLUTION -->", re.DOTALL)
CHECK_CALL = re.compile(r"""\bcheck\(\s*(?:name\s*=\s*)?["']([\w.\-]+)["']""")


def strip_code(source: str, where: str = "cell") -> str:
    """Replace each solution region of a code cell with a stub at the same indentation."""
    out: list[str] = []
    indent: str | None = None
    for number, line in enumerate(source.split("\n"), start=1):
        if indent is None:
            begin = BEGIN.match(line)
            if begin:
                indent = begin["indent"]
                out += [f"{indent}# YOUR CODE HERE", f"{indent}raise NotImplementedError()"]
            elif END.match(line):
                raise ValueError(f"{where}, line {number}: `### END SOLUTION` without BEGIN")
            else:
                out.append(line)
        elif BEGIN.match(line):
            raise ValueError(f"{where}, line {number}: nested `### BEGIN SOLUTION`")
        elif END.match(line):
            indent = None
    if indent is not None:
        raise ValueError(f"{where}: `### BEGIN SOLUTION` without `### END SOLUTION`")
    return "\n".join(out)


def strip_markdown(source: str) -> str:
    """Replace each `<!-- BEGIN SOLUTION -->...<!-- END SOLUTION -->` with a prompt."""
    return MD_REGION.sub("YOUR ANSWER HERE", source)


def make_exercise(solution: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """The exercise notebook for a solution notebook (the input is not modified)."""
    nb = copy.deepcopy(solution)
    cells = []
    for index, cell in enumerate(nb.cells):
        if "solution-only" in cell.get("metadata", {}).get("tags", []):
            continue
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.source = strip_code(cell.source, f"{name} cell {index + 1}")
            cell.outputs = []
            cell.execution_count = None
        elif cell.cell_type == "markdown":
            cell.source = strip_markdown(cell.source)
        cells.append(cell)
    nb.cells = cells
    meta = nb.metadata.setdefault("agentlib", {})
    if "exercises" not in meta:
        found: list[str] = []
        for cell in solution.cells:
            if cell.cell_type == "code":
                found += [n for n in CHECK_CALL.findall(cell.source) if n not in found]
        meta["exercises"] = found
    return nb


def render(nb: nbformat.NotebookNode) -> str:
    """The notebook as nbformat writes it, ending in exactly one newline."""
    return nbformat.writes(nb).rstrip("\n") + "\n"


def expected(solutions: Path) -> dict[str, str]:
    """exercise file name -> its content, for every notebook in `solutions`."""
    result = {}
    for path in sorted(solutions.glob("*.ipynb")):
        with open(path, encoding="utf-8") as f:
            solution = nbformat.read(f, as_version=4)
        result[path.name] = render(make_exercise(solution, path.name))
    return result


def drift(solutions: Path, exercises: Path) -> list[str]:
    """What differs between `exercises` and what `solutions` would generate."""
    want = expected(solutions)
    have = {p.name for p in exercises.glob("*.ipynb")} if exercises.is_dir() else set()
    problems = [f"extra: exercises/{n} has no solutions/{n}" for n in sorted(have - set(want))]
    for name, text in want.items():
        path = exercises / name
        if name not in have:
            problems.append(f"missing: exercises/{name}")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"stale: exercises/{name} differs from solutions/{name}")
    return problems


def folders(solutions: Path | None, exercises: Path | None) -> list[tuple[Path, Path]]:
    """The (solutions, exercises) pairs to work on: the ones named, else the English ones
    and the Korean edition's (solutions/ko -> exercises/ko) when it exists."""
    if solutions or exercises:
        return [(solutions or ROOT / "solutions", exercises or ROOT / "exercises")]
    pairs = [(ROOT / "solutions", ROOT / "exercises")]
    if (ROOT / "solutions" / "ko").is_dir():
        pairs.append((ROOT / "solutions" / "ko", ROOT / "exercises" / "ko"))
    return pairs


def write(solutions: Path, exercises: Path) -> None:
    """Write `exercises` from `solutions`; remove exercises that lost their solution."""
    where = exercises.relative_to(ROOT) if exercises.is_relative_to(ROOT) else exercises
    exercises.mkdir(exist_ok=True)
    want = expected(solutions)
    for name, text in want.items():
        path = exercises / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {where}/{name}")
    for path in sorted(exercises.glob("*.ipynb")):
        if path.name not in want:
            path.unlink()
            print(f"removed {where}/{path.name} (no solution)")


def main(argv: list[str] | None = None) -> int:
    """Write exercises/ (or with --check, report drift and return 1)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="only report drift; exit 1 if any")
    p.add_argument("--solutions", type=Path, default=None)
    p.add_argument("--exercises", type=Path, default=None)
    args = p.parse_args(argv)
    pairs = folders(args.solutions, args.exercises)
    if args.check:
        problems = [line for s, e in pairs for line in drift(s, e)]
        for line in problems:
            print(line)
        if problems:
            print("run `python3 course.py exercises` to regenerate exercises/")
        return 1 if problems else 0
    for solutions, exercises in pairs:
        write(solutions, exercises)
    return 0


if __name__ == "__main__":
    sys.exit(main())
