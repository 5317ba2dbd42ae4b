"""Grade a folder of submitted exercise notebooks into a table and a CSV.

    python -m agentlib.grade SUBMISSIONS... [--csv grades.csv] [--cell-timeout 30]
                             [--deadline 300] [--jobs N] [--exercises ex1.a,ex1.b]

SUBMISSIONS are notebooks or folders. Who is who: a notebook named on the command line,
or lying directly in a named folder, belongs to the student its file stem names
(`alice.ipynb` -> alice); a notebook inside a subfolder of a named folder belongs to the
student that first-level subfolder names (`subs/alice/lesson02.ipynb` -> alice).

Each notebook runs in a fresh kernel inside its own child process: every cell has a
timeout, errors do not stop later cells, and a hard deadline kills the child's whole
process group and the kernel's (a loop that ignores Ctrl-C, a kernel that spawned
children). Then the grader appends its own cells that run the authoritative checks
(`agentlib.grading.run_checks_json`) and reads their results from a line marked with a
random nonce, so a learner who redefines `check`, prints fake PASS lines, or deletes a
check cell gains nothing. Which exercises a notebook holds comes from `--exercises`,
else from its metadata `agentlib.exercises` (written by scripts/make_exercises.py) and
its `check("...")` calls; a check any student's notebook has counts for every student,
so grade one assignment (one exercise notebook) per run.

Statuses: pass, fail, todo (NotImplementedError still there), missing (function not
defined), error (the learner's code raised), timeout, crashed (the kernel died),
invalid (not a readable notebook).

This is not a sandbox: learner code runs with your permissions. It survives mistakes
and naive cheating, not a determined attacker; grade untrusted files in a container.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT = "CellTimeoutError"  # the ename nbclient reports for a cell that timed out
EVENT = "@@grade "  # prefix of the worker's protocol lines on its stdout
KEEP_TEXT = 1_000_000  # characters of a grader cell's output kept (learner prints are cut)
ALL_STATUSES = ("pass", "fail", "todo", "missing", "error", "timeout", "crashed", "invalid")
CHECK_CALL = re.compile(r"""\bcheck\(\s*(?:name\s*=\s*)?["']([\w.\-]+)["']""")


@dataclass
class Submission:
    """One student's notebook."""

    student: str
    path: Path


@dataclass
class Graded:
    """What grading one notebook found: status per (exercise, check title)."""

    submission: Submission
    statuses: dict[tuple[str, str], str] = field(default_factory=dict)
    note: str = ""
    seconds: float = 0.0


# ---------------------------------------------------------------- finding submissions


def _grading():  # noqa: ANN202
    """agentlib.grading, imported late: the worker process runs without the package."""
    from agentlib import grading

    return grading


def find_submissions(paths: list[str]) -> list[Submission]:
    """Notebooks under `paths`, each named after its student (see the module docstring)."""
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
            found.append(Submission(rel.parts[0] if len(rel.parts) > 1 else nb.stem, nb))
    seen: dict[str, int] = {}
    for sub in found:
        seen[sub.student] = seen.get(sub.student, 0) + 1
    for sub in found:
        if seen[sub.student] > 1:
            sub.student = f"{sub.student} ({sub.path})"
    return found


def read_notebook(path: Path) -> tuple[dict | None, str]:
    """(notebook, "") or (None, why it is not a readable notebook)."""
    import nbformat

    try:
        with open(path, encoding="utf-8") as f:
            nb = nbformat.read(f, as_version=4)
        if not isinstance(nb.get("cells"), list):
            return None, "not a notebook: no list of cells"
        return nb, ""
    except Exception as exc:
        return None, f"not a notebook: {type(exc).__name__}: {str(exc)[:120]}"


def exercises_in(nb: dict) -> list[str]:
    """Exercise names a notebook declares (metadata) or checks (`check("...")` calls)."""
    meta = nb.get("metadata", {}).get("agentlib")
    declared = meta.get("exercises") if isinstance(meta, dict) else None
    names = [n for n in declared if isinstance(n, str)] if isinstance(declared, list) else []
    for cell in nb["cells"]:
        if cell.get("cell_type") == "code":
            names += CHECK_CALL.findall(str(cell.get("source", "")))
    expanded: list[str] = []
    for name in names:
        for ex in _grading().exercises_matching(name) or [name]:
            if ex not in expanded:
                expanded.append(ex)
    return expanded


def checks_of(exercises: list[str]) -> list[tuple[str, str]]:
    """(exercise, check title) pairs; an unknown exercise yields one pseudo check."""
    pairs: list[tuple[str, str]] = []
    for ex in exercises:
        checks = _grading().CHECKS.get(ex)
        pairs += [(ex, c.title) for c in checks] if checks else [(ex, "exercise exists")]
    return pairs


# ---------------------------------------------------------------- the parent side


def _kill_group(pid: int) -> None:
    """SIGKILL the process group led by `pid` (or just the process on Windows)."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGTERM)
    except (OSError, ValueError):
        pass


def _events(stdout: str) -> list[dict]:
    events = []
    for line in stdout.splitlines():
        if line.startswith(EVENT):
            try:
                events.append(json.loads(line[len(EVENT):]))
            except ValueError:
                pass
    return events


def grade_notebook(
    sub: Submission, exercises: list[str], cell_timeout: float, deadline: float
) -> Graded:
    """Execute one notebook in a child process and read its check results."""
    graded = Graded(sub)
    expected = checks_of(exercises)
    start = time.monotonic()
    proc = subprocess.Popen(
        # -P: run this file as a script without putting agentlib/ on sys.path; the worker
        # needs neither agentlib nor its (slow to import) dependencies
        [sys.executable, "-P", str(Path(__file__).resolve()), "--worker",
         str(sub.path.resolve()), "--cell-timeout", str(cell_timeout)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, text=True, encoding="utf-8", errors="replace",
    )
    killed = False
    try:
        out, err = proc.communicate(json.dumps(exercises), timeout=deadline)
    except subprocess.TimeoutExpired:
        killed = True
        _kill_group(proc.pid)
        out, err = proc.communicate()
    graded.seconds = time.monotonic() - start
    events = _events(out)
    kinds = {e.get("event") for e in events}
    for e in events:
        if e.get("event") == "kernel" and isinstance(e.get("pid"), int) and killed:
            _kill_group(e["pid"])

    for e in events:
        if e.get("event") != "results":
            continue
        for r in e.get("results", []):
            key = (r.get("exercise"), r.get("check"))
            if key in expected and r.get("status") in _grading().STATUSES:
                graded.statuses[key] = r["status"]

    # What the checks that reported nothing get, and why (the worker's notes say where).
    if killed:
        fallback, why = "timeout", f"stopped at the {deadline:g} s deadline"
    elif "stuck" in kinds:
        fallback, why = "timeout", ""
    elif "dead" in kinds:
        fallback, why = "crashed", ""
    elif "done" in kinds:
        fallback, why = "error", "the checks printed no result"
    else:
        fallback, why = "error", "the grader's worker failed: " + (err.strip()[-200:] or "?")
    timed_out = {e.get("exercise") for e in events if e.get("event") == "check_timeout"}
    notes = [str(e.get("note")) for e in events if e.get("event") == "note"]
    for key in expected:
        if key not in graded.statuses:
            graded.statuses[key] = "timeout" if key[0] in timed_out else fallback
            if key[0] not in timed_out and why and why not in notes:
                notes.append(why)
    graded.note = "; ".join(notes)[:500]
    return graded


def grade(
    subs: list[Submission],
    *,
    exercises: list[str] | None = None,
    cell_timeout: float = 30,
    deadline: float = 300,
    jobs: int = 1,
    progress: bool = True,
) -> tuple[list[Graded], list[tuple[str, str]]]:
    """Grade every submission; return the grades and the check columns.

    Without `exercises`, every notebook is graded on the union of the exercises all the
    notebooks declare, so one that hides an exercise still scores zero on it.
    """
    read = [(sub, *read_notebook(sub.path)) for sub in subs]
    if exercises is None:
        exercises = []
        for _, nb, _ in read:
            for ex in exercises_in(nb) if nb is not None else []:
                if ex not in exercises:
                    exercises.append(ex)
    columns = checks_of(exercises)

    def one(item: tuple[Submission, dict | None, str]) -> Graded:
        sub, nb, why = item
        if nb is None:
            g = Graded(sub, dict.fromkeys(columns, "invalid"), why)
        else:
            g = grade_notebook(sub, exercises, cell_timeout, deadline)
        if progress:
            print(f"graded {sub.student} ({g.seconds:.1f} s)", file=sys.stderr, flush=True)
        return g

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, read))
    return results, columns


# ---------------------------------------------------------------- reporting


def table(results: list[Graded], columns: list[tuple[str, str]]) -> str:
    """A plain-text table, student x check, with a legend for the short check keys."""
    keys = [f"c{i + 1}" for i in range(len(columns))]
    head = ["student", *keys, "total"]
    rows = []
    for g in results:
        passed = sum(g.statuses[c] == "pass" for c in columns)
        rows.append([g.submission.student, *(g.statuses[c].upper() for c in columns),
                     f"{passed}/{len(columns)}"])
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
             for r in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines += [f"{k} = {ex}: {title}" for k, (ex, title) in zip(keys, columns, strict=True)]
    lines += [f"note {g.submission.student}: {g.note}" for g in results if g.note]
    return "\n".join(lines)


def write_csv(path: str | Path, results: list[Graded], columns: list[tuple[str, str]]) -> None:
    """One row per student: a column per check (its status), passed, total, note."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "file", *(f"{ex}: {t}" for ex, t in columns),
                    "passed", "total", "note"])
        for g in results:
            passed = sum(g.statuses[c] == "pass" for c in columns)
            w.writerow([g.submission.student, str(g.submission.path),
                        *(g.statuses[c] for c in columns), passed, len(columns), g.note])


# ---------------------------------------------------------------- the worker side


def _emit(event: str, **data: object) -> None:
    sys.stdout.write(EVENT + json.dumps({"event": event, **data}) + "\n")
    sys.stdout.flush()


GRADER_CELL = """\
import sys as _agentlib_sys
for _agentlib_m in [m for m in _agentlib_sys.modules if m.startswith(("agentlib.grading", "agentlib.checks"))]:
    del _agentlib_sys.modules[_agentlib_m]
import builtins as _agentlib_builtins
from agentlib.grading import run_checks_json as _agentlib_run
_agentlib_builtins.print({marker!r} + _agentlib_run({exercise!r}))
"""


def _worker(path: Path, exercises: list[str], cell_timeout: float) -> None:
    """Run the notebook's cells, then the grader's; report events on stdout."""
    # jsonschema (imported by nbformat) loads rfc3987_syntax when installed, which takes
    # seconds to build a grammar; this process validates no IRIs, so it goes without.
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    os.environ["AGENTLIB_OFFLINE"] = "1"  # never spend a teacher's key on students' code
    os.environ.pop("ANTHROPIC_API_KEY", None)
    os.environ["PYTHONHASHSEED"] = "0"
    os.environ["MPLBACKEND"] = "Agg"
    marker = f"@@agentlib-check-{secrets.token_hex(16)}@@"

    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    n_learner = len(nb.cells)
    for ex in exercises:
        cell = nbformat.v4.new_code_cell(GRADER_CELL.format(marker=marker, exercise=ex))
        cell.metadata["agentlib_exercise"] = ex
        nb.cells.append(cell)

    class Client(NotebookClient):
        """Keeps no learner output; keeps the tail of the grader cells' stdout."""

        captured = ""

        def output(self, outs, msg, display_id, cell_index):  # noqa: ANN001, ANN201
            if cell_index >= n_learner and msg["msg_type"] == "stream":
                self.captured = (self.captured + msg["content"].get("text", ""))[-KEEP_TEXT:]
            return None

    # On a timeout nbclient interrupts the kernel and reports this error for the cell.
    timeout_error = {"ename": TIMEOUT, "evalue": f"{cell_timeout:g} s", "traceback": []}
    client = Client(nb, timeout=int(cell_timeout), kernel_name="python3", allow_errors=True,
                    interrupt_on_timeout=True, error_on_timeout=timeout_error,
                    record_timing=False, store_widget_state=False, on_cell_error=_record_error,
                    shutdown_kernel="immediate",
                    resources={"metadata": {"path": str(path.parent)}})
    noted_error = False
    quiet = subprocess.DEVNULL
    with client.setup_kernel(stdin=quiet, stdout=quiet, stderr=quiet):
        process = getattr(getattr(client.km, "provisioner", None), "process", None)
        _emit("kernel", pid=getattr(process, "pid", None))
        for index, cell in list(enumerate(nb.cells)):
            if cell.cell_type != "code":
                continue
            exercise = cell.metadata.get("agentlib_exercise") if index >= n_learner else None
            where = f"while checking {exercise}" if exercise else f"in cell {index + 1}"
            client.captured = ""
            try:
                client.execute_cell(cell, index)
            except DeadKernelError:
                _emit("note", note=f"the kernel died {where}")
                _emit("dead")
                return
            error = cell.metadata.pop("agentlib_error", None)
            if error and error[0] == TIMEOUT:
                if exercise:
                    _emit("check_timeout", exercise=exercise)
                _emit("note", note=f"timed out after {cell_timeout:g} s {where}")
                if not _answers(client, cell_timeout):
                    _emit("note", note="the kernel ignored the interrupt")
                    _emit("stuck")
                    return
            elif exercise:
                for line in client.captured.splitlines():
                    if line.startswith(marker):
                        _emit("results", results=json.loads(line[len(marker):]))
                        break
            elif error and not noted_error:
                noted_error = True
                _emit("note", note=f"{error[0]} {where}: {error[1]}")
        _emit("done")


def _answers(client: object, cell_timeout: float) -> bool:
    """After a timeout (and nbclient's interrupt): does the kernel run a cell again?"""
    import nbformat
    from nbclient.exceptions import DeadKernelError

    probe = nbformat.v4.new_code_cell("pass")
    saved, client.timeout = client.timeout, int(min(cell_timeout, 5))
    client.nb.cells.append(probe)  # nbclient stores the cell at its index
    try:
        client.execute_cell(probe, len(client.nb.cells) - 1)
    except DeadKernelError:
        return False
    finally:
        client.timeout = saved
        client.nb.cells.pop()
    return "agentlib_error" not in probe.metadata


def _record_error(cell, cell_index, execute_reply):  # noqa: ANN001, ANN202
    """nbclient hook: remember a cell's error (name, message) in its metadata."""
    content = execute_reply.get("content", {})
    cell.metadata["agentlib_error"] = (str(content.get("ename")),
                                       str(content.get("evalue"))[:120])


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns 0 when grading completed."""
    p = argparse.ArgumentParser(prog="python -m agentlib.grade", description=__doc__.split("\n")[0])
    p.add_argument("submissions", nargs="*", help="notebooks or folders of notebooks")
    p.add_argument("--csv", help="write the grades to this CSV file")
    p.add_argument("--cell-timeout", type=float, default=30, help="seconds per cell (30)")
    p.add_argument("--deadline", type=float, default=300, help="seconds per notebook (300)")
    p.add_argument("--jobs", type=int, default=max(1, min(4, (os.cpu_count() or 2) // 2)),
                   help="notebooks graded at once")
    p.add_argument("--exercises", help="comma-separated exercise names to grade (default: "
                   "what each notebook declares)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        _worker(Path(args.worker), json.loads(sys.stdin.read()), args.cell_timeout)
        return 0
    subs = find_submissions(args.submissions)
    if not args.submissions:
        p.error("name at least one notebook or folder")
    if not subs:
        print("grade: no .ipynb files found", file=sys.stderr)
        return 2
    exercises = [e.strip() for e in args.exercises.split(",") if e.strip()] if args.exercises else None
    if exercises:
        exercises = [ex for name in exercises for ex in (_grading().exercises_matching(name) or [name])]
    results, columns = grade(subs, exercises=exercises, cell_timeout=args.cell_timeout,
                             deadline=args.deadline, jobs=args.jobs)
    print(table(results, columns))
    if args.csv:
        write_csv(args.csv, results, columns)
        print(f"\nwrote {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
