"""Who submitted what: students from the folder layout, assignments from the course.

An assignment is a lesson's exercise notebook, named by its number ("02"); what is
graded in it is the course's own list: every exercise `ex2.*` registered in
classroom/checks/lesson02.py, every one of their checks. A submitted notebook never
decides its own columns: its metadata and `check("...")` calls only help to tell which
assignment it is when the teacher does not say (`--assignment 02`).

Layouts: a notebook named on the command line, or lying directly in a named folder,
belongs to the student its file stem names (`02/alice.ipynb` -> alice); a notebook in a
subfolder of a named folder belongs to the student that subfolder names
(`subs/alice/02_truncation.ipynb` -> alice), who may hand in several assignments.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from classroom import grading

CHECK_CALL = re.compile(r"""\bcheck\(\s*(?:name\s*=\s*)?["']([\w.\-]+)["']""")
EXERCISE = re.compile(r"ex(\d+)([a-z]?)\.\w+")  # ex2.find_split, ex1b.bill_from_usage
FILE_NUMBER = re.compile(r"^(?:lesson|exercises?|assignment|ex|nb)?[ _-]?0*(\d{1,2})"
                         r"(?:([a-z])(?![a-z]))?(?!\d)", re.I)  # 02, 01b_the_prompt_cache
MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
MAX_CELL_CHARS = 1 << 20  # a cell's source (the course's largest is a few thousand characters)


@dataclass
class Submission:
    """One student's notebook, and what grading needs to know about it."""

    student: str
    path: Path
    assignment: str | None = None
    cells: list[dict] = field(default_factory=list)
    problem: str = ""  # why it cannot be graded (not a notebook, too large)
    declared: list[str] = field(default_factory=list)
    sha256: str = ""
    one_per_file: bool = True  # named after its file (not after its folder)


def _key(m: re.Match) -> str:
    """An assignment's name from a match of its number and optional letter: '01', '01b'."""
    return f"{int(m.group(1)):02d}{(m.group(2) or '').lower()}"


def course_assignments() -> dict[str, list[str]]:
    """Assignment ("01") -> its exercises in the course's order (the registered checks)."""
    grading._load_checks()
    found: dict[str, list[str]] = {}
    for exercise in grading.CHECKS:
        m = EXERCISE.fullmatch(exercise)
        if m:
            found.setdefault(_key(m), []).append(exercise)
    return dict(sorted(found.items()))


def normalize(name: str) -> str:
    """'2', '02', '02_truncation_and_the_400', 'lesson02' -> '02'; '1b', '01b_the_prompt_cache'
    -> '01b' (KeyError if unknown)."""
    if name.strip().lower() == "capstone":  # the capstone is exercise 10
        name = "10"
    m = FILE_NUMBER.match(name.strip())
    key = _key(m) if m else name
    if m and key not in course_assignments():  # '02b_notes': a letter that names no part
        key = f"{int(m.group(1)):02d}"
    if key not in course_assignments():
        known = ", ".join(course_assignments())
        raise KeyError(f"no assignment {name!r} in this course (known: {known})")
    return key


def columns(assignment: str, points: dict[str, float] | None = None
            ) -> list[tuple[str, str, float]]:
    """(exercise, check title, points) for every check of `assignment`, in order.

    `points` overrides the checks' own points: "ex2.find_split" -> the exercise's total,
    split evenly over its checks; "ex2.find_split: title" -> that one check.
    """
    points = points or {}
    out = []
    for exercise in course_assignments()[assignment]:
        checks = grading.CHECKS[exercise]
        share = points.get(exercise)
        for c in checks:
            value = points.get(f"{exercise}: {c.title}",
                               share / len(checks) if share is not None else c.points)
            out.append((exercise, c.title, float(value)))
    return out


def read_cells(path: Path) -> tuple[list[dict], list[str], str]:
    """(code cells as {index, source}, exercises it declares, problem) of a notebook file.

    Every byte of the file is a student's: anything that is not a notebook of the shape
    nbformat writes (not UTF-8, not JSON, cells that are not a list of cells, a source that
    is not text, a cell larger than MAX_CELL_CHARS) is a problem for its own row, said in
    words, never an exception that stops the class."""
    try:
        if path.stat().st_size > MAX_NOTEBOOK_BYTES:
            return [], [], f"not graded: larger than {MAX_NOTEBOOK_BYTES >> 20} MB"
        nb = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        return [], [], f"not graded: the file cannot be read ({type(exc).__name__}: " \
                       f"{str(exc)[:120]})"
    except UnicodeDecodeError:
        return [], [], "not a notebook: the file is not UTF-8 text"
    except (ValueError, RecursionError) as exc:
        return [], [], f"not a notebook: {type(exc).__name__}: {str(exc)[:120]}"
    raw = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(raw, list):
        return [], [], "not a notebook: no list of cells (\"cells\")"
    cells, declared = [], []
    for index, cell in enumerate(raw):
        problem = cell_problem(index, cell)
        if problem:
            return [], [], f"not a notebook: {problem}"
        if cell["cell_type"] != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        cells.append({"index": index, "source": source})
        declared += CHECK_CALL.findall(source)
    meta = nb.get("metadata")
    meta = meta.get("agentlib") if isinstance(meta, dict) else None
    if isinstance(meta, dict) and isinstance(meta.get("exercises"), list):
        declared = [n for n in meta["exercises"] if isinstance(n, str)] + declared
    return cells, declared, ""


def cell_problem(index: int, cell: object) -> str:
    """What makes `cell` (number `index`, from 0) not a notebook cell, or ''."""
    where = f"cell {index + 1}"
    if not isinstance(cell, dict):
        return f"{where} is a {type(cell).__name__}, not a cell"
    if not isinstance(cell.get("cell_type"), str):
        return f"{where} has no cell_type"
    source = cell.get("source", "")
    if isinstance(source, list):
        wrong = [line for line in source if not isinstance(line, str)]
        if wrong:
            return (f"{where}'s source holds a {type(wrong[0]).__name__} "
                    f"({str(wrong[0])[:40]}), not a line of text")
        size = sum(len(line) for line in source)
    elif isinstance(source, str):
        size = len(source)
    else:
        return f"{where}'s source is a {type(source).__name__}, not text"
    if size > MAX_CELL_CHARS:
        return (f"{where} holds {size / (1 << 20):.1f} MB of source (a cell may hold "
                f"{MAX_CELL_CHARS >> 20} MB)")
    return ""


def infer(sub: Submission) -> str | None:
    """The assignment a notebook is, from what it declares or checks, else its file name."""
    votes: dict[str, int] = {}
    for name in sub.declared:
        m = re.match(r"ex(\d+)([a-z]?)(?:\.|$)", name)
        if m and _key(m) in course_assignments():
            key = _key(m)
            votes[key] = votes.get(key, 0) + 1
    if votes:
        return max(sorted(votes), key=votes.get)
    try:
        return normalize(sub.path.stem)
    except KeyError:
        return None


def find_submissions(paths: list[str]) -> list[Submission]:
    """Every notebook under `paths`, read, with its student (see the module docstring)."""
    found: list[Submission] = []
    for arg in paths:
        root = Path(arg)
        if root.is_file():
            found.append(Submission(root.stem, root))
            continue
        if not root.is_dir():
            raise SystemExit(f"grade: no such file or folder: {arg}")
        for nb in sorted(root.rglob("*.ipynb")):
            rel = nb.relative_to(root)
            if any(part.startswith(".") for part in rel.parts):
                continue  # .ipynb_checkpoints and other hidden folders
            nested = len(rel.parts) > 1
            found.append(Submission(rel.parts[0] if nested else nb.stem, nb,
                                    one_per_file=not nested))
    for sub in found:
        sub.cells, sub.declared, sub.problem = read_cells(sub.path)
        try:
            sub.sha256 = hashlib.sha256(sub.path.read_bytes()).hexdigest()
        except OSError:
            sub.sha256 = ""
    return found


def assign(subs: list[Submission], named: str | None) -> list[Submission]:
    """Give every submission its assignment; one notebook per student and assignment.

    A named assignment applies to every notebook of a folder-per-assignment layout, and
    to a student's notebooks that are that assignment or cannot be told. Otherwise a
    notebook that cannot be told takes the assignment its folder's other notebooks share.
    When a student has several notebooks for one assignment, the newest of those that
    are told to be it is graded.
    """
    told = set()
    for sub in subs:
        sub.assignment = infer(sub)
        if sub.assignment is not None:
            told.add(id(sub))
        if named is not None and (sub.one_per_file or sub.assignment is None):
            sub.assignment = named
    if named is None:
        by_folder: dict[Path, set[str]] = {}
        for sub in subs:
            if sub.assignment is not None:
                by_folder.setdefault(sub.path.parent, set()).add(sub.assignment)
        for sub in subs:
            shared = by_folder.get(sub.path.parent, set())
            if sub.assignment is None and len(shared) == 1:
                sub.assignment = next(iter(shared))
    chosen: dict[tuple[str, str | None], Submission] = {}
    for sub in sorted(subs, key=lambda s: (id(s) in told,  # a notebook told beats a guess
                                           s.path.stat().st_mtime if s.path.exists() else 0)):
        chosen[(sub.student, sub.assignment if sub.assignment else str(sub.path))] = sub
    kept = list(chosen.values())
    if named is not None:
        kept = [s for s in kept if s.assignment == named]
    return sorted(kept, key=lambda s: (s.assignment or "", s.student))
