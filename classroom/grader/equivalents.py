"""Which of the course's functions do an exercise's work: found by what they compute.

An exercise declares the course's own code for what it asks (`own_work`), and the class
grader withholds it (classroom/grader/withhold.py). A course has other functions that do
the same job under another name (lesson 2's pair-safe cut is also the text fold's
`text_cut`). `search(exercises, kernel, box)` finds them the only reliable way: it starts
a sandbox on `kernel` (an assignment's copy, what it withholds already stubbed), lists
every function, class and method of the agent and the kit there, and runs each
exercise's checks on each of them, across the boundary, as the grader runs a notebook's
functions, in a few shapes: called as the learner's function; made from the other
arguments and called on the first (a strategy, `SlidingWindow(keep)(messages)`); made
from the first and its method called with the rest (`Workspace(folder).resolve(name)`);
as a slice of the first argument from the index it returns; by the index of the error it
raises. A candidate that passes a check no trivial answer passes (None, the input, its
last `keep`, ...) does the exercise's work: withhold it, or declare `uses_the_library`.

    python -m classroom.grader.equivalents 02      # what a copy of assignment 02 still has

tests/test_withheld.py runs it on every assignment's withheld copy (no finding allowed)
and on a copy with nothing withheld (it must find the course's references).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from classroom import grading
from classroom.grader import worker
from classroom.grader.remote import RemoteNamespace, Session
from classroom.grader.sandbox import Limits, isolation_mode, start

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
SHAPES = ("call", "strategy", "method", "slice", "slice_back", "raised")
TRIVIAL = ("none", "zero", "true", "empty", "first", "copy", "tail", "nothing", "raise")
"""Answers that take no work (defined in CELL): a check they pass tells nothing."""
CELL = r'''
import importlib, inspect, pkgutil, signal

_FOUND = {}
for _package in ("agentlib", "coursekit", "apiwire"):
    _root = importlib.import_module(_package)
    for _info in pkgutil.walk_packages(_root.__path__, _package + "."):
        try:
            _module = importlib.import_module(_info.name)
        except BaseException:
            continue
        for _name, _obj in list(vars(_module).items()):
            if _name.startswith("__") or _name == "main" \
                    or getattr(_obj, "__module__", None) != _info.name:
                continue  # (a command's entry point is not a function of data)
            if inspect.isfunction(_obj) or inspect.isclass(_obj):
                _FOUND[f"{_info.name}:{_name}"] = _obj
            if inspect.isclass(_obj):
                for _m, _f in vars(_obj).items():
                    if inspect.isfunction(_f) and not _m.startswith("__"):
                        _FOUND[f"{_info.name}:{_name}.{_m}"] = (_obj, _m)
_TRIVIAL = {
    "none": lambda *a, **k: None, "zero": lambda *a, **k: 0, "true": lambda *a, **k: True,
    "empty": lambda *a, **k: "", "first": lambda *a, **k: a[0] if a else None,
    "copy": lambda *a, **k: list(a[0]) if a and isinstance(a[0], list) else None,
    "tail": lambda *a, **k: a[0][-a[1]:] if len(a) > 1 and isinstance(a[1], int) else None,
    "nothing": lambda *a, **k: [] if a and isinstance(a[0], list) else {},
    "raise": lambda *a, **k: (_ for _ in ()).throw(ValueError("no")),
}

def _candidates():
    return sorted(_FOUND)

def _adapted(name, shape, *args, **kwargs):
    fn = _TRIVIAL[name[1:]] if name.startswith("~") else _FOUND[name]
    if isinstance(fn, tuple):
        if shape != "method" or not args:
            raise TypeError("a method is called on an object made from the first argument")
        cls, method = fn
        return getattr(cls(args[0]), method)(*args[1:], **kwargs)
    if shape == "call":
        return fn(*args, **kwargs)
    if shape == "strategy" and args:
        return fn(*args[1:], **kwargs)(args[0])
    if shape in ("slice", "slice_back") and args and isinstance(args[0], (list, str)):
        if shape == "slice_back" and isinstance(args[-1], int):  # keep -> a start index
            start = fn(args[0], len(args[0]) - args[-1], **kwargs)
        else:
            start = fn(*args, **kwargs)
        return args[0][max(0, start):]
    if shape == "raised":
        try:
            fn(*args, **kwargs)
        except Exception as e:
            index = getattr(e, "index", None)
            if isinstance(index, int):
                return index
            raise
        return None
    raise TypeError(f"no shape {shape}")

def _same(got, want):
    if want is None or isinstance(want, bool):
        return got is want
    if isinstance(want, float) or isinstance(got, float):
        try:
            return not isinstance(got, bool) and \
                abs(float(got) - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
        except (TypeError, ValueError):
            return False
    if isinstance(want, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(want)
                and all(_same(g, w) for g, w in zip(got, want)))
    if isinstance(want, int):
        return type(got) is int and got == want
    return got == want

def _search(records, shapes, each=3.0):
    """{"name shape": [titles]}: the checks on all of whose recorded calls a trivial answer
    ("~name") returns what the course's solution returned; then, for each candidate, such
    checks, evaluated only as far as it takes to tell whether no single trivial answer's
    checks hold them all."""
    import pickle

    records = {title: [(pickle.dumps((a, k), -1), w) for a, k, w in calls]
               for title, calls in records.items()}

    def ring(*_):
        raise TimeoutError

    def answers(name, shape, calls):
        signal.setitimer(signal.ITIMER_REAL, each)
        try:
            for given, want in calls:
                args, kwargs = pickle.loads(given)  # a fresh copy: a candidate may mutate it
                if not _same(_adapted(name, shape, *args, **kwargs), want):
                    return False
            return True
        except TimeoutError:
            return None  # too slow to be anyone's answer
        except BaseException:
            return False
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    out = {}
    old = signal.signal(signal.SIGALRM, ring)
    left, _ = signal.getitimer(signal.ITIMER_REAL)
    try:
        trivial = []
        for t in _TRIVIAL:
            passed = [title for title, calls in records.items() if answers("~" + t, "call", calls)]
            trivial.append(set(passed))
            if passed:
                out[f"~{t} call"] = passed
        order = sorted((title for title in records if not all(title in t for t in trivial)),
                       key=lambda title: sum(title in t for t in trivial))
        for name in sorted(_FOUND):
            slow = False
            for shape in shapes:
                if slow:
                    break
                passed, todo = set(), list(order)
                while todo:
                    if any(passed | set(todo) <= t for t in trivial):
                        passed = set()
                        break  # whatever the rest says, a trivial answer does as much
                    title = todo.pop(0)
                    ok = answers(name, shape, records[title])
                    if ok is None:
                        passed, slow = set(), True
                        break
                    if ok:
                        passed.add(title)
                if passed and not any(passed <= t for t in trivial):
                    out[f"{name} {shape}"] = sorted(passed)
    finally:
        signal.signal(signal.SIGALRM, old)
        if left:
            signal.setitimer(signal.ITIMER_REAL, left, 1.0)
    return out
'''


@dataclass(frozen=True)
class Finding:
    """A course function that does (part of) an exercise's work."""

    exercise: str
    candidate: str  # module:qualname, as `own_work` declares it
    shape: str
    checks: tuple[str, ...]  # checks on whose every call it answers as the solution does


MAX_CALLS = 150  # recorded calls per check


def solution_namespace(assignment: str) -> dict:
    """The course's solution of `assignment` as a namespace: the cells that define the
    exercises' functions, and the imports of every other cell (no agent is run)."""
    import ast

    import nbformat

    grading._load_checks()
    path = next((SOLUTIONS).glob(f"{assignment}_*.ipynb"))
    graded = {n for ex in grading.CHECKS if ex.startswith(f"ex{int(assignment)}.")
              for c in grading.CHECKS[ex] for n in c.needs}
    ns: dict = {"__name__": "solution"}
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or worker.is_check_only(cell.source):
            continue
        tree = ast.parse(cell.source)
        defines = any(isinstance(n, ast.FunctionDef) and n.name in graded for n in tree.body)
        keep = tree if defines else ast.Module(
            [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)], [])
        exec(compile(keep, str(path), "exec"), ns)  # noqa: S102 (the course's own solution)
    return ns


def record(exercise: str, solution: dict) -> dict[str, list]:
    """check title -> [(args, kwargs, what the solution returned)], the calls each check
    of `exercise` makes, where arguments and answers are plain data."""
    from classroom.grader.wire import Codec, WireError

    codec, out = Codec(), {}
    for c in grading.CHECKS[exercise]:
        if len(c.needs) != 1 or c.needs[0] not in solution:
            continue
        calls: list = []
        fn = solution[c.needs[0]]

        def recorded(*args, fn=fn, calls=calls, **kwargs):
            value = fn(*args, **kwargs)
            if len(calls) < MAX_CALLS:
                try:
                    calls.append(codec.encode([list(args), dict(kwargs), value]))
                except WireError:
                    calls.append(None)  # not data: this check is not searched
            return value

        grading._run_one(c, {c.needs[0]: recorded}, 60)
        if calls and None not in calls:
            out[c.title] = calls
    return out


def search(exercises: list[str], kernel: Path, box: Path, progress=None  # noqa: ANN001
           ) -> list[Finding]:
    """Every course function in the sandbox copy `kernel` that answers as the course's
    solution does on every call of a check of one of `exercises`, where no single trivial
    answer answers that set of checks (see the module docstring)."""
    grading._load_checks()
    work = Path(tempfile.mkdtemp(prefix="agentlib-equivalents-"))
    mode = isolation_mode(str(kernel), str(box))
    sandbox = start(work, kernel, mode, Limits(cpu_seconds=3600, memory_mb=2048), box)
    findings: list[Finding] = []
    solutions: dict[str, dict] = {}
    try:
        run = worker.run_cells(sandbox, [{"index": 0, "source": CELL}], ["_search"],
                               {"cell_timeout": 120, "deadline": 300},
                               harness=worker.harness_source())
        if run.status != "ready" or run.errors:
            raise RuntimeError(f"the search's cell did not run: {run.notes} {run.errors}")
        sandbox.freeze()  # a candidate may start no process or thread (a benchmark's pool)
        session = Session(sandbox)
        remote = RemoteNamespace(session, run.names, {})["_search"]
        for exercise in exercises:
            if exercise in grading.OPEN_BOOK:
                continue
            started = time.monotonic()
            assignment = f"{int(exercise[2:].split('.')[0]):02d}"
            if assignment not in solutions:
                solutions[assignment] = solution_namespace(assignment)
            records = record(exercise, solutions[assignment])
            if not records:
                continue
            with RemoteNamespace(session, {}, {}).time_limit(1800):
                found = remote(records, list(SHAPES))
            trivial = [set(v) for k, v in found.items() if k.startswith("~")]
            for key, passed in sorted(found.items()):
                name, shape = key.rsplit(" ", 1)
                if not name.startswith("~") and not any(set(passed) <= t for t in trivial):
                    findings.append(Finding(exercise, name, shape, tuple(sorted(passed))))
            if progress:
                progress(f"{exercise}: {len(records)} checks searched in "
                         f"{time.monotonic() - started:.1f} s")
        session.bye()
    finally:
        sandbox.close()
    return findings


def main(argv: list[str] | None = None) -> int:
    import argparse

    from classroom import grade
    from classroom.grader import assignments

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("assignment")
    p.add_argument("--nothing-withheld", action="store_true",
                   help="search a copy with nothing withheld (finds the references)")
    args = p.parse_args(argv)
    key = assignments.normalize(args.assignment)
    exercises = assignments.course_assignments()[key]
    run = Path(tempfile.mkdtemp(prefix="agentlib-equivalents-run-"))
    _, kernel, box = grade.pristine_copy(run)
    if not args.nothing_withheld:
        kernel = grade.kernel_for(run, kernel, key, exercises)
    for f in search(exercises, kernel, box, progress=print):
        print(f"{f.exercise}: {f.candidate} ({f.shape}) passes {'; '.join(f.checks)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
