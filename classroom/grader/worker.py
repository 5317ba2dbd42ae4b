"""Grade one notebook in a clean process: its cells run in a sandbox, the checks run here.

    python -P -m classroom.grader.worker < job.json    (started by classroom.grade)

The job (JSON on stdin) names the notebook's code cells, the exercises, the limits, the
pristine copy of the course this process imports its checks from ("site"), the learner
kernel's copy for this assignment ("kernel_site": no checks, the assignment's own code
withheld, classroom/grader/withhold.py), the grader's private modules for the sandbox
("box") and the secret the checks draw their inputs from ("secret"); the answer (one JSON
line on stdout) holds a result per check, notes and the time taken. This process never
runs the learner's code: it sends the cells to the sandbox, answers what the cells ask of
the grader while they run (classroom/grader/lending.py), polices the notebook's
processes from outside between the cells and the checks (`police`), then runs the checks,
whose calls to the learner's functions cross the boundary. It also reads the cells
(classroom/grader/sources.py): a graded name bound by an import, or a graded function
whose code names what its exercise declares, fails here (`own_work="fail"`).
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import io
import json
import re
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from classroom import grading, ownwork
from classroom.grader import sources, withhold
from classroom.grader.channel import ChannelBroken, ChannelClosed, ChannelTimeout
from classroom.grader.lending import Lender
from classroom.grader.remote import GRACE, RemoteNamespace, Session
from classroom.grader.sandbox import Limits, Sandbox, start

START_LIMIT = 60.0  # seconds for Python and IPython to start in the sandbox


def is_check_only(source: str) -> bool:
    """Whether a cell only calls `check(...)`: its printout is not graded, so it is skipped."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    return bool(body) and all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
        and isinstance(s.value.func, ast.Name) and s.value.func.id == "check" for s in body)


def defining_cells(cells: list[dict], name: str) -> list[int]:
    """Indices of the cells whose top level defines `name` (def, class or assignment)."""
    pattern = re.compile(rf"^(?:async\s+def|def|class)\s+{re.escape(name)}\b"
                         rf"|^{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)", re.M)
    return [c["index"] for c in cells if pattern.search(c["source"])]


def why_missing(cells: list[dict], errors: dict[int, dict], names: dict) -> dict[str, str]:
    """For each name the checks need but the notebook does not define: why."""
    why = {}
    imports = sources.imports(cells, list(names))
    for name, meta in names.items():
        if meta:
            continue
        if name in imports:
            index, text = imports[name]
            e = errors.get(index)
            raised = (f", which raised {e.get('type')}: {grading._short(e.get('message'), 120)}"
                      if e else "")
            why[name] = (f"`{name}` is not defined: cell {index + 1} imports it (`{text}`)"
                         f"{raised}; an import is not your own function: write it yourself")
            continue
        where = defining_cells(cells, name)
        failed = [i for i in where if i in errors]
        if failed:
            e = errors[failed[-1]]
            why[name] = (f"`{name}` is not defined: cell {failed[-1] + 1}, which defines it, "
                         f"raised {e.get('type')}: {grading._short(e.get('message'), 160)}")
        elif where:
            why[name] = (f"`{name}` is not defined at the end of the notebook, although cell "
                         f"{where[-1] + 1} defines it")
    return why


class _Run:
    """What running the cells found: how it ended, the cells that raised, notes, the
    alarms the notebook's process raised (watched exercises only)."""

    def __init__(self) -> None:
        self.status, self.note = "ready", ""
        self.errors: dict[int, dict] = {}
        self.notes: list[str] = []
        self.names: dict = {}
        self.alarms: list[str] = []


def receive(channel: Any, deadline: float, lender: Lender, alarms: list[str]) -> dict:
    """The runner's next report, answering what the notebook asks meanwhile (the course
    model, a served function: classroom/grader/lending.py) and noting its alarms."""
    while True:
        message = channel.receive(deadline)
        if message.get("op") == "ask":
            channel.send(lender.answer(message))
        elif message.get("op") == "alarm":
            alarms.append(f"reached for {grading._short(message.get('what'), 80)}")
        else:
            return message


def run_cells(box: Sandbox, cells: list[dict], names: list[str], job: dict,
              watch: list[str] = (), lender: Lender | None = None, harness: str = "") -> _Run:
    """Send the cells, wait for each (cell limit, notebook deadline), then for `ready`."""
    run, channel = _Run(), box.channel
    lender = lender or Lender({})
    cell_limit, end = float(job["cell_timeout"]), time.monotonic() + float(job["deadline"])

    def fail(status: str, note: str) -> _Run:
        run.status, run.note = status, note
        run.notes.append(note)
        return run

    def died(where: str) -> _Run:
        time.sleep(0.1)
        how = box.exit_note()
        return fail("crashed", f"the notebook's process died {where}" + (f" ({how})" if how else ""))

    try:
        hello = channel.receive(time.monotonic() + START_LIMIT)
        if hello.get("op") != "hello":
            return fail("crashed", "the notebook's process did not start")
        box.find_runner()
        channel.send({"op": "cells", "cells": cells, "timeout": cell_limit, "names": names,
                      "watch": list(watch), "harness": harness})
    except (ChannelTimeout, ChannelClosed, ChannelBroken):
        return died("before its first cell")
    for cell in cells:
        number = cell["index"] + 1
        try:
            report = receive(channel, min(end, time.monotonic() + cell_limit + GRACE), lender,
                             run.alarms)
        except ChannelTimeout:
            late = time.monotonic() >= end
            return fail("timeout", f"stopped at the {job['deadline']:g} s deadline in cell "
                        f"{number}" if late else f"cell {number} did not stop at its "
                        f"{cell_limit:g} s limit: the notebook ignored the interrupt")
        except (ChannelClosed, ChannelBroken):
            return died(f"in cell {number}")
        if report.get("op") != "cell" or report.get("index") != cell["index"]:
            return fail("crashed", f"the notebook's process went off script in cell {number}")
        error = report.get("error")
        if error:
            run.errors[cell["index"]] = error
            if error.get("type") == "CellTimeout":
                run.notes.append(f"timed out after {cell_limit:g} s in cell {number}")
            elif error.get("withheld"):
                run.notes.append(f"cell {number} stopped at what grading withholds "
                                 f"({grading._short(error.get('message'), 160)}); that costs "
                                 "nothing by itself")
            elif len(run.notes) < 3:
                run.notes.append(f"{error.get('type')} in cell {number}: "
                                 f"{grading._short(error.get('message'), 120)}")
    try:
        ready = receive(channel, time.monotonic() + 30, lender, run.alarms)
    except (ChannelTimeout, ChannelClosed, ChannelBroken):
        return died("after its last cell")
    run.names = ready.get("names") if isinstance(ready.get("names"), dict) else {}
    return run


THREADS = ("grading refuses threads a notebook's cells leave running when its exercises are "
           "watched ({count} found): a thread could do a graded function's work where the "
           "watch does not look; end them before the checks (executor.shutdown())")
ALARMED = ("the notebook's cells reached for {what}, which could find and blind the grader's "
           "watch of its exercises: its checks earn no points")
STRAYS = ("grading stopped {count} process(es) the notebook's cells left running: a "
          "notebook's processes end with its cells")


def police(box: Sandbox, run: _Run, watched: bool) -> str:
    """Between the cells and the checks, from outside the notebook's process: stop every
    process the cells left, and for watched exercises refuse threads and freeze the
    runner (no new thread or process). Returns why the checks are refused, or ''."""
    strays = box.stop_strays()
    if strays:
        run.notes.append(STRAYS.format(count=strays))
    if not watched:
        return ""
    if run.alarms:  # the cells reached for what would find the watch: nothing it says counts
        return ALARMED.format(what=run.alarms[0].removeprefix("reached for "))
    extra = box.runner_threads() - 1
    if extra > 0:
        return THREADS.format(count=extra)
    box.frozen = box.freeze()
    return ""


def grade(job: dict) -> dict:
    """Run the notebook, then the checks; the answer as a dict (see the module docstring)."""
    grading.use_secret(job.get("secret"))
    grading._load_checks()
    started = time.monotonic()
    exercises = list(job["exercises"])
    checks = [c for ex in exercises for c in grading.CHECKS.get(ex, [])]
    names = sorted({n for c in checks for n in c.needs})
    specs = list(dict.fromkeys(s for ex in exercises for s in grading.declared_for(ex)))
    watched = list(dict.fromkeys(s for ex in exercises for s in grading.watched_for(ex)))
    served = {spec: words for spec, (words, serve) in withhold.targets(exercises).items()
              if serve}
    cells = [c for c in job["cells"] if not is_check_only(c["source"])]
    box = start(Path(job["work"]), Path(job.get("kernel_site") or job["site"]), job["mode"],
                Limits(**job["limits"]), Path(job["box"]) if job.get("box") else None)
    lender = Lender(served)
    try:
        run = run_cells(box, cells, names, job, watched, lender, harness_source())
        refused = police(box, run, bool(watched)) if run.status == "ready" else ""
        lender.close()
        if run.status != "ready":
            results = [grading.Result(c.exercise, c.title, run.status, run.note, c.hint)
                       for c in checks]
        elif refused:
            run.notes.append(refused)
            results = [grading.Result(c.exercise, c.title, "fail", refused, c.hint)
                       for c in checks]
        else:
            session = Session(box, ownwork.texts(specs), lender=lender, watched=bool(watched))
            ns = RemoteNamespace(session, {n: run.names.get(n) for n in names},
                                 why_missing(cells, run.errors, {n: run.names.get(n)
                                                                 for n in names}),
                                 sources.uses(cells, names, specs) if specs else {},
                                 sources.tampering(cells) if watched else [],
                                 sources.imported(cells, names))
            with contextlib.redirect_stdout(io.StringIO()):  # stdout carries the answer
                results = grading.run_checks(exercises, ns, float(job["check_timeout"]),
                                             own_work="fail")
            session.bye()
            if session.broken is not None:
                run.notes.append(grading._short(session.broken))
    finally:
        box.close()
    return {"results": [asdict(r) for r in results], "notes": run.notes,
            "isolation": job["mode"], "seconds": round(time.monotonic() - started, 2)}


def harness_source() -> str:
    """The checks' harness as this process has it (the grader's own copy)."""
    from classroom import harness

    return Path(harness.__file__).read_text(encoding="utf-8")


def main() -> int:
    if sys.platform == "linux":  # PR_SET_DUMPABLE 0: others may not open /proc/<pid>/fd
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
    job = json.loads(sys.stdin.read())
    answer = grade(job)
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
