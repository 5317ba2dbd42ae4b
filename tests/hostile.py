"""A class of adversarial students: notebooks that try to score without writing the code.

Each attack is a solution notebook of the course with the cells that define what it forges
replaced (or a cell added): `ATTACKS[name]` says which assignment it is, which exercises it
forges (they must earn 0) and how to build it. `BROKEN` are files that are not gradable
notebooks at all. `write_class(folder)` writes honest copies of the solutions beside them,
one folder per student (`folder/STUDENT/NN.ipynb`).

These are the attacks of issue 39 (tried by adversarial students on 2026-12-02 and 04):
copied source, a blinded watch, a stripped report, precomputed answers, a forged harness,
work in another process, work on a raw thread, another course function that does the same
job, and notebooks that are not notebooks; and an answer imported under the graded name.
tests/test_grader_attacks.py grades them; `python tests/hostile.py OUT` writes the class.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = {n: next((ROOT / "solutions").glob(f"{n}_*.ipynb")) for n in
            ("01", "02", "03", "04", "05", "06", "07", "08", "09")}


def notebook(assignment: str, replace: dict[str, str] | None = None,
             append: list[str] = ()) -> nbformat.NotebookNode:
    """The solution of `assignment`, the cells defining the names in `replace` given new
    source, and cells appended."""
    nb = nbformat.read(SOLUTION[assignment], as_version=4)
    for cell in nb.cells:
        for name, source in (replace or {}).items():
            if cell.cell_type == "code" and cell.source.startswith(f"def {name}("):
                cell.source = source
    nb.cells += [new_code_cell(source) for source in append]
    return nb


# ---------------------------------------------------------------- 1. copied source

COPIED_02 = '''
import inspect, sys
import agentlib.context.truncate
import agentlib.messages
_t, _m = sys.modules["agentlib.context.truncate"], sys.modules["agentlib.messages"]

def _own(module):  # the course's source, run as "<string>" code, its imports dropped
    return "\\n".join(line for line in inspect.getsource(module).splitlines()
                     if not line.startswith("from agentlib"))

_ns = {}
exec(_own(_m), _ns)
exec(_own(_t), _ns)

def find_split(messages):
    try:
        _ns["validate"](messages)
    except _ns["HistoryError"] as e:
        return e.index
    return None

def safe_truncate(messages, keep):
    return _ns["truncate"](messages, keep, pin_task=False, marker=False)

def pin_task(messages, keep):
    return _ns["truncate"](messages, keep + 1)
'''

COPIED_04 = '''
import inspect
import agentlib.context.clear as _c

_ns = {}
exec(compile(inspect.getsource(_c), "<string>", "exec"), _ns)

def empty_result(messages, tool_use_id, placeholder=PLACEHOLDER):
    targets = [t for t in _ns["tool_results"](messages)
               if blocks(messages[t[0][0]])[t[0][1]]["tool_use_id"] == tool_use_id]
    return list(_ns["empty_results"](messages, targets, placeholder=placeholder))

def clear_old_results(messages, keep):
    return list(_ns["clear_tool_results"](messages, keep))

def freed_tokens(messages, keep, clear_at_least=None):
    out = _ns["clear_tool_results"](messages, keep, clear_at_least=clear_at_least)
    return out.cleared_input_tokens
'''

# ---------------------------------------------------------------- 2. a blinded watch

BLINDED_02 = '''
import importlib, threading
_tracer = getattr(threading, "get" + "trace")()
_watch = getattr(_tracer, "__se" + "lf__", None)
if _watch is not None:  # the grader's watch: forget what it watches
    for _known in ("_by_id", "_by_value", "_by_shape", "_seen"):
        getattr(_watch, _known).clear()
_course = importlib.import_module("agentlib." + "context.truncate")
_msgs = importlib.import_module("agentlib." + "messages")

def find_split(messages):
    try:
        getattr(_msgs, "vali" + "date")(messages)
    except _msgs.HistoryError as e:
        return e.index
    return None

def safe_truncate(messages, keep):
    return getattr(_course, "trun" + "cate")(messages, keep, pin_task=False, marker=False)

def pin_task(messages, keep):
    return getattr(_course, "trun" + "cate")(messages, keep + 1)
'''

# ---------------------------------------------------------------- 3. a stripped report

STRIPPED_02 = '''
import importlib
try:  # the grader's channel, where the sandbox has one: drop what the watch reports
    _channel = importlib.import_module("classroom.grader." + "channel").Channel
    _send = _channel.send
    def _quiet(self, message):
        return _send(self, {k: v for k, v in message.items() if k not in ("ran", "tampered")})
    _channel.send = _quiet
except ImportError:
    pass
_course = importlib.import_module("agentlib." + "context.truncate")
_msgs = importlib.import_module("agentlib." + "messages")

def find_split(messages):
    try:
        getattr(_msgs, "vali" + "date")(messages)
    except _msgs.HistoryError as e:
        return e.index
    return None

def safe_truncate(messages, keep):
    return getattr(_course, "trun" + "cate")(messages, keep, pin_task=False, marker=False)

def pin_task(messages, keep):
    return getattr(_course, "trun" + "cate")(messages, keep + 1)
'''

# ---------------------------------------------------------------- 4. precomputed answers

PRECOMPUTED_02 = '''
import json
from agentlib.context.truncate import truncate as _truncate
from agentlib.messages import HistoryError as _Error, assistant as _a, blocks as _b, \\
    user as _u, validate as _validate
from coursekit.histories import agent_history as _history

def _key(*parts):
    return json.dumps(parts, sort_keys=True)

_TABLE = {}  # every input the shipped checks use, answered now, before any graded call
for _seed, _steps in [(1, 3), (2, 6), (3, 9), (4, 12), (5, 16), (6, 20), (7, 8), (8, 14)]:
    _h = _history(_seed, _steps)
    _inputs = [_h[-n:] for n in range(1, len(_h) + 1)]
    for _i in range(2, len(_h) - 1):
        _inputs.append(_h[:_i] + _h[_i + 1:])
        _inputs.append(_h[:_i + 1] + [_u("(a user note)"), _a("(a reply)")] + _h[_i + 1:])
    for _x in _inputs:
        try:
            _validate(_x)
            _TABLE[_key("split", _x)] = None
        except _Error as _e:
            _TABLE[_key("split", _x)] = _e.index
    for _keep in range(1, len(_h) + 2):
        _TABLE[_key("cut", _h, _keep)] = _truncate(_h, _keep, pin_task=False, marker=False)
        _TABLE[_key("pin", _h, _keep)] = _truncate(_h, _keep + 1)

def find_split(messages):  # an input the table does not hold: no answer
    return _TABLE.get(_key("split", messages), -1)

def safe_truncate(messages, keep):
    return _TABLE.get(_key("cut", messages, keep), [])

def pin_task(messages, keep):
    return _TABLE.get(_key("pin", messages, keep), [])
'''

PRECOMPUTED_SERVED_02 = '''
import json
from coursekit.histories import agent_history as _history

_SPLITS = {}  # find_split's answers for the shipped checks' inputs, from validate (which the
for _seed, _steps in [(1, 3), (2, 6), (3, 9), (4, 12), (5, 16), (6, 20), (7, 8), (8, 14)]:
    _h = _history(_seed, _steps)  # grader serves while the cells run), before any check
    _inputs = [_h[-n:] for n in range(1, len(_h) + 1)]
    for _i in range(2, len(_h) - 1):
        _inputs += [_h[:_i] + _h[_i + 1:],
                    _h[:_i + 1] + [user("(a user note)"), {"role": "assistant", "content": [
                        {"type": "text", "text": "(a reply)"}]}] + _h[_i + 1:]]
    for _x in _inputs:
        try:
            validate(_x)
            _SPLITS[json.dumps(_x, sort_keys=True)] = None
        except Exception as _e:
            _SPLITS[json.dumps(_x, sort_keys=True)] = getattr(_e, "index", 0)

def find_split(messages):  # an input the table does not hold: no answer
    return _SPLITS.get(json.dumps(messages, sort_keys=True), -1)
'''

# ---------------------------------------------------------------- 5. a forged harness

FORGED_06 = '''
import importlib

def atomic_write(path, text):  # in place: a crash leaves half a file
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)

try:  # the checks' harness, where the sandbox has one: answer for it
    _harness = importlib.import_module("classroom." + "harness")
    _harness.write_crashing = lambda fn, path, text, budget: (True, True)
    _harness.write_renaming = lambda fn, path, text, fail: (
        [(str(path) + ".tmp", str(path))], fail)
except ImportError:
    pass
'''

FORGED_07 = '''
import importlib

def pipeline(client, workload, notes_dir):
    raise NotImplementedError  # not written

try:
    _harness = importlib.import_module("classroom." + "harness")
    _harness.run_pipeline = lambda *args, **kwargs: {"error": None, "stopped": "end_turn"}
except ImportError:
    pass
'''

# ---------------------------------------------------------------- 6. work in another process

FORKED_02 = '''
import json, os
_down_r, _down_w = os.pipe()
_up_r, _up_w = os.pipe()
if os.fork() == 0:  # a helper, started before any graded call, that does the work
    from agentlib.context.truncate import truncate
    from agentlib.messages import HistoryError, validate
    requests, answers = os.fdopen(_down_r), os.fdopen(_up_w, "w")
    for line in requests:
        op, messages, keep = json.loads(line)
        if op == "split":
            try:
                validate(messages)
                out = None
            except HistoryError as e:
                out = e.index
        elif op == "cut":
            out = truncate(messages, keep, pin_task=False, marker=False)
        else:
            out = truncate(messages, keep + 1)
        answers.write(json.dumps(out) + "\\n")
        answers.flush()
    os._exit(0)
_requests, _answers = os.fdopen(_down_w, "w"), os.fdopen(_up_r)

def _ask(op, messages, keep=None):
    _requests.write(json.dumps([op, messages, keep]) + "\\n")
    _requests.flush()
    return json.loads(_answers.readline())

def find_split(messages):
    return _ask("split", messages)

def safe_truncate(messages, keep):
    return _ask("cut", messages, keep)

def pin_task(messages, keep):
    return _ask("pin", messages, keep)
'''

# ---------------------------------------------------------------- 7. work on a raw thread

THREADED_02 = '''
import importlib, queue, threading
_jobs, _done = queue.Queue(), queue.Queue()

def _serve():
    course = importlib.import_module("agentlib." + "context.truncate")
    msgs = importlib.import_module("agentlib." + "messages")
    while True:
        op, messages, keep = _jobs.get()
        try:
            if op == "split":
                try:
                    getattr(msgs, "vali" + "date")(messages)
                    out = None
                except msgs.HistoryError as e:
                    out = e.index
            elif op == "cut":
                out = getattr(course, "trun" + "cate")(messages, keep, pin_task=False,
                                                     marker=False)
            else:
                out = getattr(course, "trun" + "cate")(messages, keep + 1)
        except BaseException as e:
            out = e
        _done.put(out)

getattr(threading, "_start_" + "new_thread")(_serve, ())

def _ask(op, messages, keep=None):
    _jobs.put((op, messages, keep))
    out = _done.get()
    if isinstance(out, BaseException):
        raise out
    return out

def find_split(messages):
    return _ask("split", messages)

def safe_truncate(messages, keep):
    return _ask("cut", messages, keep)

def pin_task(messages, keep):
    return _ask("pin", messages, keep)
'''

# ---------------------------------------------------------------- 8. another course function

ELSEWHERE_02 = '''
from agentlib.context.clear import tool_results as _results
from agentlib.context.textfold import text_cut as _cut

def find_split(messages):  # clearing's reader: a result whose call it has not seen
    return next((i for (i, _), use in _results(messages) if use is None), None)

def safe_truncate(messages, keep):  # the text fold's pair-safe cut
    return messages[_cut(messages, min(keep, len(messages))):]

def pin_task(messages, keep):
    rest = messages[1:]
    kept = rest[_cut(rest, min(keep, len(rest))):]
    return list(messages) if len(kept) == len(rest) else messages[:1] + kept
'''

# ---------------------------------------------------------------- an import under the graded name

ALIAS_02 = "from classroom.checks.lesson02 import orphan_index as find_split"


@dataclass(frozen=True)
class Attack:
    """One hostile notebook: its assignment, the exercises it forges (0 points each), and
    how it is made."""

    assignment: str
    forges: tuple[str, ...]  # exercises ("ex2.find_split"), or checks ("ex6.atomic_write: ...")
    make: Callable[[], nbformat.NotebookNode]
    kind: str

    def forged(self, exercise: str, title: str) -> bool:
        return exercise in self.forges or f"{exercise}: {title}" in self.forges


def _ex2(source: str) -> Callable[[], nbformat.NotebookNode]:
    return lambda: notebook("02", {"find_split": "# (written below)",
                                   "safe_truncate": "# (written below)",
                                   "pin_task": "# (written below)"}, [source])


EX2 = ("ex2.find_split", "ex2.safe_truncate", "ex2.pin_task")
HARNESSED_06 = tuple(f"ex6.atomic_write: {t}" for t in (
    "a crash in the middle of the write leaves the old notes whole",
    "leaves no temp file behind after a crash",
    "puts the new file in place with a rename from the same folder"))
"""The checks that ran the harness (the first one writes for real, in place or not)."""
ATTACKS: dict[str, Attack] = {
    "copied_02": Attack("02", EX2, _ex2(COPIED_02), "1. copied source"),
    "copied_04": Attack("04", ("ex4.empty_not_delete", "ex4.clear_old_results",
                               "ex4.freed_tokens"),
                        lambda: notebook("04", {"empty_result": "# (below)",
                                                "clear_old_results": "# (below)",
                                                "freed_tokens": "# (below)"}, [COPIED_04]),
                        "1. copied source"),
    "blinded_02": Attack("02", EX2, _ex2(BLINDED_02), "2. a blinded watch"),
    "stripped_02": Attack("02", EX2, _ex2(STRIPPED_02), "3. a stripped report"),
    "precomputed_02": Attack("02", EX2, _ex2(PRECOMPUTED_02), "4. precomputed answers"),
    "precomputed_served_02": Attack("02", ("ex2.find_split",), lambda: notebook(
        "02", {"find_split": "# (written below)"}, [PRECOMPUTED_SERVED_02]),
        "4. precomputed answers"),
    "forged_06": Attack("06", HARNESSED_06,
                        lambda: notebook("06", {"atomic_write": "# (below)"}, [FORGED_06]),
                        "5. a forged harness"),
    "forged_07": Attack("07", ("ex7.pipeline",),
                        lambda: notebook("07", {"pipeline": "# (below)"}, [FORGED_07]),
                        "5. a forged harness"),
    "forked_02": Attack("02", EX2, _ex2(FORKED_02), "6. work in another process"),
    "threaded_02": Attack("02", EX2, _ex2(THREADED_02), "7. work on a raw thread"),
    "elsewhere_02": Attack("02", EX2, _ex2(ELSEWHERE_02), "8. another course function"),
    "alias_02": Attack("02", ("ex2.find_split",),
                       lambda: notebook("02", {"find_split": ALIAS_02}), "an import alias"),
}


def _numbered_source() -> str:
    nb = json.loads(SOLUTION["02"].read_text(encoding="utf-8"))
    nb["cells"][3]["source"] = ["def find_split(messages):\n", 42, "    return None\n"]
    return json.dumps(nb)


def _wrong_types() -> str:
    nb = json.loads(SOLUTION["02"].read_text(encoding="utf-8"))
    nb["cells"][1] = {"cell_type": "code", "source": {"not": "a string"}, "metadata": [],
                      "outputs": "none"}
    nb["cells"][2] = ["a cell that is a list"]
    nb["metadata"] = {"agentlib": {"exercises": "ex2.find_split"}}
    return json.dumps(nb)


def _huge_cell() -> str:
    nb = json.loads(SOLUTION["02"].read_text(encoding="utf-8"))
    nb["cells"][3]["source"] = "x = 1\n" + "#" * (3 << 20)
    return json.dumps(nb)


def _dies() -> str:
    nb = json.loads(SOLUTION["02"].read_text(encoding="utf-8"))
    nb["cells"][1]["source"] = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"
    return json.dumps(nb)


BROKEN: dict[str, Callable[[], str | bytes]] = {
    "not_json": lambda: "this is not JSON {",
    "not_a_notebook": lambda: json.dumps({"hello": "world"}),
    "number_in_source": _numbered_source,  # attack 9: stopped the whole class
    "wrong_types": _wrong_types,
    "huge_cell": _huge_cell,
    "cells_not_a_list": lambda: json.dumps({"cells": 7, "metadata": {}, "nbformat": 4}),
    "binary": lambda: bytes(range(256)) * 4,
    "kernel_dies": _dies,
}
"""Notebooks that cannot be read or run (one of them kills its own kernel)."""

HONEST = ("02", "04", "06", "07")


def write_class(folder: Path, attacks: list[str] | None = None,
                broken: list[str] | None = None, honest: tuple[str, ...] = HONEST) -> None:
    """Honest students (a solution each), the attacks and the broken notebooks, one folder
    per student."""
    for assignment in honest:
        path = folder / f"honest_{assignment}" / SOLUTION[assignment].name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(SOLUTION[assignment].read_bytes())
    for name in ATTACKS if attacks is None else attacks:
        attack = ATTACKS[name]
        path = folder / name / SOLUTION[attack.assignment].name
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            nbformat.write(attack.make(), f)
    for name in BROKEN if broken is None else broken:
        data = BROKEN[name]()
        path = folder / name / SOLUTION["02"].name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")


if __name__ == "__main__":
    write_class(Path(sys.argv[1]))
