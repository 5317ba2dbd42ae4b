"""Is graded work the learner's own? Which of the course's own functions ran while a
learner's function did.

An exercise declares the library code it asks the learner to write (`grading.own_work`
in classroom/checks/lessonNN.py). A declaration ("spec") is one of:

    "agentlib.context.truncate"               a module: every function and class defined in it
    "agentlib.context.truncate:safe_start"    one function, or a class and all its methods
    "agentlib.context.compact:STRUCTURED_PROMPT"   a text the learner's function may not return

`Watch(specs)` records each declared code object that starts running while the watch is
on (`start()` ... `stop()`), in any thread. It compares code objects, not names, so it
sees the course's function called under its own name or another, through one of the
library's classes (`SlidingWindow` calls `truncate`), from a copy of its code object
(`types.FunctionType(f.__code__, ...)`, `code.replace(...)`, marshal), from a reloaded
or re-imported module (the same source compiles to equal code), or in a thread. What it
records is a "hit": `module:path` of the declared object ("agentlib.context.truncate:
SlidingWindow.__call__"); `used(hits, specs)` turns hits into the names a learner reads.

In a learner's own kernel the watch turns a delegation into a friendly note
(classroom/grading.py). The class grader withholds the declared code instead
(classroom/grader/withhold.py); only what an exercise declares `cells="watched"` is
watched there, in the learner's sandbox, and only reports: the grader decides
(classroom/grader). There `guard()` also adds an audit hook (which no code can remove)
that notices a graded function switching the watch off (`sys.settrace`) or starting
another process, and the grader refuses threads and freezes the runner from outside.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from collections.abc import Iterable
from typing import Any

PROCESS_EVENTS = frozenset({"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                            "os.forkpty", "subprocess.Popen", "pty.spawn"})
WATCH_EVENTS = frozenset({"sys.settrace", "sys.setprofile"})
GENERATED = "<string>"  # code made at run time by the library (a dataclass's __init__): not
# declared (the course's own generated code would match anyone's); a copy of declared code
# compiled as "<string>" is still matched


def split(spec: str) -> tuple[str, str]:
    """'module:path' -> (module, path); a bare module -> (module, '')."""
    module, _, path = spec.partition(":")
    return module, path


def _module(name: str) -> types.ModuleType:
    importlib.import_module(name)
    return sys.modules[name]  # not an attribute: agentlib.context.truncate is also a function


def _defined_in(obj: Any, module: str) -> bool:
    return isinstance(obj, type | types.FunctionType) and getattr(obj, "__module__", None) == module


def _codes(obj: Any, path: str, out: list[tuple[str, types.CodeType]], depth: int = 0) -> None:
    """Every code object of `obj` (a function, a method, a class's members), as (path, code)."""
    if depth > 8:
        return
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    if isinstance(obj, property):
        for part in (obj.fget, obj.fset, obj.fdel):
            if part is not None:
                _codes(part, path, out, depth + 1)
        return
    wrapped = getattr(obj, "__wrapped__", None)  # functools.wraps, lru_cache
    if wrapped is not None and wrapped is not obj:
        _codes(wrapped, path, out, depth + 1)
    if isinstance(obj, types.FunctionType):
        stack = [obj.__code__]
        while stack:
            code = stack.pop()
            if code.co_filename != GENERATED:
                out.append((path, code))
            stack += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    elif isinstance(obj, type):
        for name, member in vars(obj).items():
            if isinstance(member, types.FunctionType | staticmethod | classmethod | property):
                _codes(member, f"{path}.{name}", out, depth + 1)
            elif isinstance(member, type) and member.__module__ == obj.__module__:
                _codes(member, f"{path}.{name}", out, depth + 1)


def resolve(spec: str) -> tuple[list[tuple[str, types.CodeType]], dict[str, str]]:
    """(hit, code) for every code object `spec` covers, and {hit: text} for a declared text.
    Raises ImportError or AttributeError when the spec names nothing."""
    module_name, path = split(spec)
    module = _module(module_name)
    codes: list[tuple[str, types.CodeType]] = []
    texts: dict[str, str] = {}
    if not path:
        for name, obj in vars(module).items():
            if _defined_in(obj, module_name):
                _codes(obj, f"{module_name}:{name}", codes)
        return codes, texts
    obj: Any = module
    for part in path.split("."):
        obj = vars(obj)[part] if isinstance(obj, type) and part in vars(obj) else getattr(obj, part)
    if isinstance(obj, str):
        texts[spec] = obj
    else:
        _codes(obj, spec, codes)
    return codes, texts


def texts(specs: Iterable[str]) -> dict[str, str]:
    """{hit: text} of the declared texts among `specs` (those that resolve)."""
    found: dict[str, str] = {}
    for spec in specs:
        try:
            found.update(resolve(spec)[1])
        except Exception:  # noqa: BLE001
            continue
    return found


def _norm(text: str) -> str:
    return " ".join(text.split())


def returned(value: Any, declared_texts: dict[str, str]) -> list[str]:
    """The declared texts a learner's function returned as its own (whitespace aside)."""
    if not isinstance(value, str) or not declared_texts:
        return []
    mine = _norm(value)
    return [hit for hit, text in declared_texts.items() if _norm(text) and _norm(text) in mine]


def _shape(code: types.CodeType) -> tuple:
    """What a copy of a code object keeps when its name, file or lines change."""
    consts = tuple("<code>" if isinstance(c, types.CodeType) else (type(c).__name__, c)
                   for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_argcount,
            code.co_kwonlyargcount)


def used(hits: Iterable[str], specs: Iterable[str]) -> list[str]:
    """The names, as a learner reads them, of the declared things among `hits` that `specs`
    cover: 'truncate', 'SlidingWindow', 'Notes.write', 'STRUCTURED_PROMPT'."""
    specs = [split(s) for s in specs]
    names: list[str] = []
    for hit in hits:
        module, path = split(hit)
        for spec_module, spec_path in specs:
            if module == spec_module and (not spec_path or path == spec_path
                                          or path.startswith(spec_path + ".")):
                names.append(spec_path or path.split(".")[0])
                break
    return list(dict.fromkeys(names))


class Watch:
    """Records the declared code that runs while it is on. State: what it watches (by
    identity, equality and shape), the hits and tamperings seen (append-only logs: a
    `mark()` is their lengths), whether it is on."""

    def __init__(self, specs: Iterable[str]) -> None:
        self.specs = tuple(dict.fromkeys(specs))
        self.unresolved: list[str] = []
        self.texts: dict[str, str] = {}
        self._by_id: dict[int, tuple[types.CodeType, str]] = {}
        self._by_value: dict[types.CodeType, str] = {}
        self._by_shape: dict[tuple, str] = {}
        for spec in self.specs:
            try:
                codes, found = resolve(spec)
            except Exception:  # noqa: BLE001 (a spec that names nothing watches nothing)
                self.unresolved.append(spec)
                continue
            self.texts.update(found)
            for hit, code in codes:
                self._by_id.setdefault(id(code), (code, hit))
                self._by_value.setdefault(code, hit)
                self._by_shape.setdefault(_shape(code), hit)
        self._seen: dict[int, tuple[types.CodeType, str | None]] = {}
        self.hits: list[str] = []
        self.tampered: list[str] = []
        self._on = 0
        self._switching = False
        self._previous: Any = None
        self._thread_previous: Any = None
        self._threads_always = False
        self._owner = threading.get_ident()
        self._tracer = self._trace  # one bound method, so that `is` can tell it is still set
        # bound now, in the instance: a notebook that patches the class later changes nothing
        self._match, self.start, self.stop = self._match, self.start, self.stop
        self.mark, self.since = self.mark, self.since

    def watches_anything(self) -> bool:
        return bool(self._by_id or self.texts)

    # ---------------------------------------------------------------- what runs
    def _match(self, code: types.CodeType) -> str | None:
        known = self._by_id.get(id(code))
        if known is not None and known[0] is code:
            return known[1]
        try:  # a copy too, however compiled: exec(inspect.getsource(...)) runs as "<string>"
            return self._by_value.get(code) or self._by_shape.get(_shape(code))
        except TypeError:  # an unhashable constant in a hand-made code object
            return None

    def _trace(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if self._on:
            code = frame.f_code
            entry = self._seen.get(id(code))
            if entry is None or entry[0] is not code:
                entry = (code, self._match(code))
                self._seen[id(code)] = entry
            if entry[1] is not None:
                self.hits.append(entry[1])
        previous = self._previous
        return previous(frame, event, arg) if previous is not None else None

    # ---------------------------------------------------------------- on and off
    def watch_threads(self) -> None:
        """Trace every thread started from now on (in the sandbox: before the learner's
        first cell), so that work handed to a thread pool is seen too."""
        self._threads_always = True
        threading.settrace(self._tracer)

    def guard(self) -> None:
        """An audit hook (permanent, as audit hooks are): while the watch is on, the owner
        thread switching tracing off, or anything starting a process, is recorded."""
        owner = self._owner

        def hook(event: str, args: tuple) -> None:
            if not self._on or self._switching:
                return
            if event in WATCH_EVENTS and threading.get_ident() == owner:
                self.tampered.append(f"switched off the watch ({event})")
            elif event in PROCESS_EVENTS:
                self.tampered.append("started another process")

        sys.addaudithook(hook)

    def mark(self) -> tuple[int, int]:
        return len(self.hits), len(self.tampered)

    def since(self, mark: tuple[int, int]) -> tuple[list[str], list[str]]:
        """(hits, tamperings) recorded after `mark`, each once, in order."""
        return (list(dict.fromkeys(self.hits[mark[0]:])),
                list(dict.fromkeys(self.tampered[mark[1]:])))

    def start(self) -> tuple[int, int]:
        """Watch from now (nested calls are counted); returns a mark."""
        mark = self.mark()
        if self._on == 0:
            self._switching = True
            try:
                self._previous = sys.gettrace()
                if self._previous is self._tracer:
                    self._previous = None
                sys.settrace(self._tracer)
                if not self._threads_always:
                    self._thread_previous = threading.gettrace()
                    threading.settrace(self._tracer)
            finally:
                self._switching = False
        self._on += 1
        return mark

    def stop(self) -> None:
        """Stop watching (the outermost stop): what replaced the watch counts as tampering."""
        self._on = max(self._on - 1, 0)
        if self._on:
            return
        if sys.gettrace() is not self._tracer:
            self.tampered.append("switched off the watch (sys.settrace)")
        if threading.gettrace() is not self._tracer:
            self.tampered.append("switched off the watch of new threads (threading.settrace)")
        self._switching = True
        try:
            sys.settrace(self._previous)
            if self._threads_always:
                threading.settrace(self._tracer)
            else:
                threading.settrace(self._thread_previous)
        finally:
            self._switching = False
            self._previous = None
