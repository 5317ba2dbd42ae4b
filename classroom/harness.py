"""What the checks run in the learner's process: never an answer, only a harness.

A check calls the learner's functions; a few checks must also run something of their own
right next to them, where the learner's code lives: in the learner's kernel for
`check()`, in the learner's sandbox when the class grader grades (classroom/grader). This
module holds exactly those pieces, and nothing that computes an exercise's answer. The
grader's sandbox does not import it: the grader sends this file's source, which the
runner runs before the notebook's first cell and puts back as it was before every use, so
a notebook that rebinds `classroom.harness` (or its functions' globals) changes nothing:

- `calibrated_meter`: a `TokenMeter` calibrated to a ratio (ex5.should_compact);
- `write_crashing`, `write_renaming`: the learner's write under a simulated crash or with
  its renames recorded (ex6.atomic_write);
- `run_pipeline`: the learner's pipeline run on the check's audit (ex7.pipeline);
- `run_setup`: the learner's setup run on one of the capstone's tasks (ex10.my_agent);
- `SmallRun`, `SmallStep`: hand-made runs, rebuilt there with their properties (ex8).

A check reaches them with `grading.in_learner_process` and `grading.portable`.
"""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from unittest import mock

from agentlib.context.compact import Compactor
from agentlib.loop import DEFAULT_SYSTEM, run_agent
from agentlib.tokens import TokenMeter, estimate
from agentlib.tools import Toolbox

# ---------------------------------------------------------------- ex5: a calibrated meter


def calibrated_meter(history: list[dict], ratio: float) -> TokenMeter:
    """A meter calibrated so that it measures `history` at `ratio` times the raw estimate
    (as if the API had counted the first message, then the whole history, at that ratio)."""
    meter = TokenMeter()
    meter.observe(history[:1], round(estimate(history[:1]) * ratio))
    meter.observe(history, round(estimate(history) * ratio))
    return meter


# ---------------------------------------------------------------- ex6: a simulated crash


class SimulatedCrash(Exception):
    """Stands in for the process dying in the middle of a write."""


class _CrashingFile:
    """A file opened for writing that takes `budget` characters (or bytes), then 'dies'.

    What was written before the crash is flushed, so the half-written file is on disk, as
    it would be after a real crash once the OS had written part of the data.
    """

    def __init__(self, f, state: dict):
        self._f, self._state = f, state

    def write(self, data):
        room = self._state["budget"]
        if len(data) > room:
            if room:
                self._f.write(data[:room])
            self._f.flush()
            self._state["budget"], self._state["fired"] = 0, True
            raise SimulatedCrash("simulated crash in the middle of a write")
        self._state["budget"] -= len(data)
        return self._f.write(data)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __iter__(self):
        return iter(self._f)

    def __getattr__(self, name):
        return getattr(self._f, name)


@contextmanager
def crash_mid_write(budget: int, namespace: dict | None = None) -> Iterator[dict]:
    """Every write after the first `budget` characters raises SimulatedCrash.

    Covers `open`, `io.open` (so `Path.write_text`, `os.fdopen`, `tempfile`), `os.write`,
    and the name `open` in `namespace`: in a notebook, `open` is IPython's own wrapper of
    io.open, bound in the learner's globals, which patching builtins does not reach.
    Yields a dict whose "fired" says whether the crash happened.
    """
    state = {"budget": budget, "fired": False}
    real_open, real_write = io.open, os.write

    def opener(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        return _CrashingFile(f, state) if set(mode) & set("wax+") else f

    def os_write(fd, data):
        room = state["budget"]
        if len(data) > room:
            if room:
                real_write(fd, data[:room])
            state["budget"], state["fired"] = 0, True
            raise SimulatedCrash("simulated crash in the middle of a write")
        state["budget"] -= len(data)
        return real_write(fd, data)

    with mock.patch.object(builtins, "open", opener), mock.patch.object(io, "open", opener), \
            mock.patch.object(os, "write", os_write), _bind(namespace, "open", opener):
        yield state


@contextmanager
def _bind(namespace: dict | None, name: str, value) -> Iterator[None]:
    """Bind `name` in `namespace` for a while, then restore that one name (only that one:
    mock.patch.dict would reset the whole namespace, the learner's notebook globals)."""
    if namespace is None:
        yield
        return
    missing = object()
    saved = namespace.get(name, missing)
    namespace[name] = value
    try:
        yield
    finally:
        if saved is missing:
            namespace.pop(name, None)
        else:
            namespace[name] = saved


@contextmanager
def record_renames(fail: bool = False) -> Iterator[list[tuple[str, str]]]:
    """Record every os.replace / os.rename as (src, dst); with `fail`, crash instead."""
    calls: list[tuple[str, str]] = []
    real = {"replace": os.replace, "rename": os.rename}

    def wrap(name: str) -> Callable:
        def renamed(src, dst, *args, **kwargs):
            calls.append((os.fspath(src), os.fspath(dst)))
            if fail:
                raise SimulatedCrash(f"simulated crash at os.{name}")
            return real[name](src, dst, *args, **kwargs)
        return renamed

    with mock.patch.object(os, "replace", wrap("replace")), \
            mock.patch.object(os, "rename", wrap("rename")):
        yield calls


def write_crashing(fn: Callable, path, text: str, budget: int) -> tuple[bool, bool]:
    """fn(path, text) while every write after `budget` characters crashes: (whether fn let
    the crash through, whether it fired). Runs where the learner's function lives."""
    with crash_mid_write(budget, _globals(fn)) as crash:
        try:
            fn(path, text)
        except SimulatedCrash:
            return True, crash["fired"]
    return False, crash["fired"]


def write_renaming(fn: Callable, path, text: str, fail: bool) -> tuple[list, bool]:
    """fn(path, text), recording its renames (with `fail`, crashing at the first one):
    (the renames, whether the crash came through). Runs where the learner's function lives."""
    with record_renames(fail) as renames:
        try:
            fn(path, text)
        except SimulatedCrash:
            return renames, True
    return renames, False



def _globals(fn: Callable) -> dict | None:
    """The globals a learner's function looks names up in (the notebook's namespace)."""
    return getattr(fn, "__globals__", None)


# ---------------------------------------------------------------- ex7: the learner's pipeline

PIPELINE_KEYS = ("context", "toolbox", "system", "extra_tools", "extra", "cache")
KEYS_TEXT = ", ".join(PIPELINE_KEYS)


def _raised(what: str, exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{what} raised {type(exc).__name__}: {text[:240]}"


def run_pipeline(fn, client, work, notes_dir: str, max_steps: int, max_tokens: int) -> dict:
    """Build the learner's pipeline and run the audit with it, where the learner's code
    lives: {"error": what went wrong or None, "stopped": how run_agent ended}. Never
    raises (except NotImplementedError: a TODO)."""
    return _run_spec(fn, "pipeline(client, workload, notes_dir)", PIPELINE_KEYS, client, work,
                     notes_dir, max_steps, max_tokens)


SETUP_KEYS = (*PIPELINE_KEYS, "max_tokens")
MAX_TOKENS_RANGE = (256, 8192)  # what a capstone setup may ask for (its output is paid)


def run_setup(fn, client, work, notes_dir: str, max_steps: int, max_tokens: int) -> dict:
    """The capstone: the learner's setup for one task, run on it where the learner's code
    lives; the same answer as `run_pipeline`. `max_tokens` is the default, which the setup
    may change within MAX_TOKENS_RANGE."""
    return _run_spec(fn, "my_agent(client, task, notes_dir)", SETUP_KEYS, client, work,
                     notes_dir, max_steps, max_tokens)


def setup_keys(fn, client, work, notes_dir: str) -> list[str]:
    """The keys of the learner's setup for one task (built, not run): a check calls the
    learner's function this way when it needs only to see what that function runs."""
    spec = fn(client, work, notes_dir)
    return sorted(map(str, spec)) if isinstance(spec, dict) else []


def _run_spec(fn, call: str, keys: tuple[str, ...], client, work, notes_dir: str,
              max_steps: int, max_tokens: int) -> dict:
    text = ", ".join(keys)
    try:
        spec = fn(client, work, notes_dir)
    except NotImplementedError:
        raise
    except Exception as e:
        return {"error": _raised(call, e)}
    if not isinstance(spec, dict):
        return {"error": f"{call.split('(')[0]} should return a dict with keys among {text}; "
                         f"got {type(spec).__name__}"}
    unknown = sorted(set(spec) - set(keys), key=str)
    if unknown:
        return {"error": f"unknown key(s) {', '.join(map(repr, unknown))}: use {text}"}
    context = spec.get("context") or []
    if not isinstance(context, list | tuple) or not all(callable(s) for s in context):
        return {"error": "'context' should be a list of strategies (callables: messages -> "
                         f"messages), got {context!r:.120}"}
    if any(isinstance(s, Compactor) and s.client is not client for s in context):
        return {"error": "a Compactor uses another client: build it with the `client` "
                         f"{call.split('(')[0]} receives, so that its summary calls are "
                         "counted too"}
    cache = spec.get("cache", True)
    if not isinstance(cache, bool) and not callable(cache):
        return {"error": "'cache' should be True, False or a breakpoint placer (a callable: "
                         f"messages -> messages with cache_control), got {cache!r:.120}"}
    for key in ("toolbox", "extra_tools"):
        if spec.get(key) is not None and not isinstance(spec[key], Toolbox):
            return {"error": f"'{key}' should be an agentlib.tools.Toolbox, got "
                             f"{type(spec[key]).__name__}"}
    if "max_tokens" in spec:
        low, high = MAX_TOKENS_RANGE
        asked = spec["max_tokens"]
        if not isinstance(asked, int) or isinstance(asked, bool) or not low <= asked <= high:
            return {"error": f"'max_tokens' should be an integer from {low} to {high}, got "
                             f"{asked!r:.60}"}
        max_tokens = asked
    if spec.get("toolbox") is not None:
        work.toolbox = spec["toolbox"]
    try:
        run = run_agent(client, work, context=list(context),
                        system=spec.get("system", DEFAULT_SYSTEM),
                        extra_tools=spec.get("extra_tools"), extra=spec.get("extra"),
                        max_steps=max_steps, max_tokens=max_tokens, cache=cache,
                        label="pipeline")
    except Exception as e:
        return {"error": _raised("the run (one of your strategies or tools)", e)}
    return {"error": None, "stopped": str(run.stopped)}


# ---------------------------------------------------------------- ex8: hand-made runs


@dataclass
class SmallStep:
    """What the exercises read of a step (agentlib.loop.Step has these and more)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read: int = 0
    cache_write: int = 0
    tool_calls: list = field(default_factory=list)


@dataclass
class SmallRun:
    """What the exercises read of a run (agentlib.loop.Run has these and more)."""

    steps: list

    @property
    def calls(self) -> int:
        return len(self.steps)

    @property
    def total_input_tokens(self) -> int:
        return sum(s.input_tokens for s in self.steps)
