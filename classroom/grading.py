"""Checks for exercise notebooks: `check("ex2.keep_last")` prints one line per check.

An exercise is a named piece of work in a notebook (a function the learner writes).
Each exercise has one or more checks, registered with `register`:

    from classroom.grading import register

    @register("ex0.add", "adds two small integers", hint="return a + b", needs=("add",))
    def _(ns):
        got = ns["add"](2, 3)
        assert got == 5, f"add(2, 3) should be 5, got {got!r}"

A check receives the learner's namespace (the notebook's globals) and raises
AssertionError with a message that says what was expected and what came back.
`check(name)` runs every check of that exercise and prints a line for each:

    PASS  ex0.add: adds two small integers
    FAIL  ex0.add: adds two small integers — add(2, 3) should be 5, got -1 (hint: return a + b)
    TODO  ex0.add: adds two small integers — not attempted yet
    MISSING ex0.add: adds two small integers — no `add` defined yet: run its cell first
    ERROR ex0.add: adds two small integers — add(2, 3) raised TypeError: ... (hint: ...)
    TIMEOUT ex0.add: adds two small integers — timed out after 20 s in add(2, 3)

Each check runs under a time limit (`CHECK_TIMEOUT` seconds), so a learner's function
that hangs is reported, not waited for. An error names the call that raised it. When
several checks of an exercise fail for the same reason, the reason is printed once and
the other checks say "same as above"; after a timeout the exercise's remaining checks
are not run.

`check` never raises into the notebook: a learner's mistake is reported, not thrown.
`check("ex0")` runs every exercise named `ex0.*`. Exercise names are unique across the
course (`ex<lesson>.<function>`), and a title is unique within its exercise: together
they name a column of the gradebook. Checks live in classroom/checks/lessonNN.py.

Tests call `run_checks(name, namespace)` to prove a known wrong answer fails. The
grading command (`python -m classroom.grade`) runs the same checks in its own process,
on a namespace whose functions call the learner's across a process boundary
(classroom/grader/remote.py). Two helpers keep a check correct on both sides:
`portable(fn, ...)` makes a library object (a workload, a meter) that can be rebuilt
in the learner's process, and `in_learner_process(fn, ...)` runs a helper there (one of
classroom/harness.py, e.g. one that simulates a crash around the learner's function).

A check that runs whole agents (the capstone) may ask for more time (`register(...,
seconds=N)`) and keep what it measured with its result (`record(score=..., runs=...)`:
`Result.data`, in the grader's JSON reports, which the capstone's leaderboard ranks).

Graded work is the learner's own: `own_work(exercise, *specs)` declares the library code
an exercise asks the learner to write (classroom/ownwork.py says how specs read). In a
learner's kernel, a watch records any of it that runs while a check calls the learner's
functions, and a check passed that way gets a note ("uses the course's own `truncate`;
write it yourself"). The class grader does not watch: it grades where that code is not
there (classroom/grader/withhold.py; `cells=` says what a notebook's own cells may still
use), and runs the same checks with `run_checks(..., own_work="fail")`, on inputs drawn
from a secret (`seed`, `drawn`: the public ones here, the same every time).
"""

from __future__ import annotations

import hashlib
import random
import re
import reprlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from classroom import ownwork
from coursekit import i18n

CheckFn = Callable[[dict], None]

STATUSES = ("pass", "fail", "todo", "missing", "error", "timeout", "crashed")
CHECK_TIMEOUT = 20.0  # seconds a check may take (the learner's function included)


class CheckTimeout(BaseException):  # noqa: N818 (BaseException: a check's `except Exception` must not swallow it)
    """A check ran out of time (its learner's function hung)."""


class SubmissionGone(BaseException):  # noqa: N818
    """The learner's process died while a check was calling into it."""


@dataclass(frozen=True)
class Check:
    """One check of one exercise: a function of the learner's namespace."""

    exercise: str
    title: str
    fn: CheckFn
    hint: str = ""
    needs: tuple[str, ...] = ()
    points: float = 1.0
    seconds: float | None = None  # its own time limit, when it runs agents (the capstone)


@dataclass(frozen=True)
class Result:
    """What one check found: status is one of STATUSES; detail says why."""

    exercise: str
    check: str
    status: str
    detail: str = ""
    hint: str = ""
    note: str = ""  # said beside the status: the work was not the learner's own
    data: dict | None = None  # what the check measured (`record`), for a leaderboard

    def line(self, same_as_above: bool = False, language: str | None = None) -> str:
        """The one line `check` prints for this result, in the learner's language (the
        check's title, hint and fixed words from the catalog; details stay as computed)."""
        ko = (language or i18n.lang()) == "ko"
        title, hint = localized(self.exercise, self.check, self.hint) if ko else \
            (self.check, self.hint)
        say = translate if ko else str
        if ko and title == self.check:  # not a registered check ("exercise exists")
            title = say(title)
        text = f"{say(self.status.upper()):<5} {self.exercise}: {title}"
        if same_as_above:
            return text + f" — {say('same as above')}"
        if self.status != "pass" and self.detail:
            text += f" — {say(self.detail)}"
        if self.status in ("fail", "error", "timeout") and hint:
            text += f" ({say('hint')}: {hint})"
        return text


def localized(exercise: str, title: str, hint: str) -> tuple[str, str]:
    """A check's title and hint in Korean, from classroom/checks/ko.py (English if absent)."""
    from classroom.checks.ko import CHECKS_KO  # noqa: PLC0415 (only Korean notebooks need it)

    entry = CHECKS_KO.get((exercise, title))
    return (entry[0], entry[1] or hint) if entry else (title, hint)


def translate(text: str) -> str:
    """A fixed phrase of the checks in Korean: classroom's own (classroom/checks/ko.py),
    else the course's catalog (coursekit.i18n); unchanged when neither knows it."""
    from classroom.checks.ko import PHRASES_KO  # noqa: PLC0415 (only Korean notebooks need it)

    korean = _translate(text, PHRASES_KO)
    return korean if korean != text else i18n.translate(text)


def _translate(text: str, phrases: dict[str, str]) -> str:
    """`text` from `phrases`, as it is or by a template ("uses {names}" matches "uses `x`")."""
    if text in phrases:
        return phrases[text]
    for prefix, regex, english in _templates(phrases):
        if not text.startswith(prefix):
            continue
        m = regex.fullmatch(text)
        if m:
            return phrases[english].format(**{
                k: v.replace(" and ", ", ") if k == "names" else translate(v)
                for k, v in m.groupdict().items()})
    return text


_TEMPLATES: dict[int, tuple[tuple, list]] = {}


def _templates(phrases: dict[str, str]) -> list[tuple[str, re.Pattern, str]]:
    """The templates of `phrases` (keys with `{name}`), compiled once: (literal prefix,
    regex, the key). Compiled again when its keys change (a teacher's own checks)."""
    keys = tuple(phrases)
    seen = _TEMPLATES.get(id(phrases))
    if seen is None or seen[0] != keys:
        compiled = []
        for english in keys:
            if "{" not in english:
                continue
            parts = re.split(r"\{(\w+)\}", english)
            regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                            for i, p in enumerate(parts))
            compiled.append((parts[0], re.compile(regex, re.S), english))
        seen = _TEMPLATES[id(phrases)] = (keys, compiled)
    return seen[1]


CHECKS: dict[str, list[Check]] = {}
"""exercise name -> its checks, in registration order."""

OWN_WORK: dict[str, tuple[str, ...]] = {}
"""exercise name, or a prefix of exercises ("ex2"), -> the library code it asks the
learner to write (specs, see classroom/ownwork.py)."""

CELLS: dict[tuple[str, str], str] = {}
"""(exercise or prefix, spec) -> what the class grader's sandbox does with it: "withheld"
(the default: a stub), "served" (a stub the grader answers while the notebook's cells run)
or "watched" (left in place and watched). See classroom/grader/withhold.py."""
CELLS_MODES = ("withheld", "served", "watched")

OPEN_BOOK: dict[str, str] = {}
"""exercise -> why it may use all of the course's library (nothing withheld, no search)."""


def register(
    exercise: str, title: str, *, hint: str = "", needs: Iterable[str] = (),
    points: float = 1.0, seconds: float | None = None,
) -> Callable[[CheckFn], CheckFn]:
    """Decorator: add `fn` as a check of `exercise`, worth `points` in the gradebook.
    `seconds`: the check's own time limit, when it needs more than the usual one (it
    runs whole agents: the capstone).

    `needs` names the learner's objects the check uses; if one is not defined the check
    reports MISSING instead of a confusing KeyError. Registering the same exercise and
    title again replaces the old check, so re-importing a module is harmless.
    """

    def decorator(fn: CheckFn) -> CheckFn:
        new = Check(exercise, title, fn, hint, tuple(needs), float(points), seconds)
        checks = CHECKS.setdefault(exercise, [])
        for i, old in enumerate(checks):
            if old.title == title:
                checks[i] = new
                break
        else:
            checks.append(new)
        return fn

    return decorator


def own_work(exercise: str, *specs: str, cells: str = "withheld") -> None:
    """Declare the library code that `exercise` (or every exercise `exercise.*`) asks the
    learner to write: "agentlib.context.truncate" (a module), "module:function" or
    "module:Class", "module:TEXT" (a text the learner's function may not return).

    In a learner's kernel a check passed by running it gets a note. The class grader
    grades where it is not there (`cells`, see classroom/grader/withhold.py): "withheld",
    a stub that raises, on disk and in memory; "served", a stub the grader answers while
    the notebook's cells run (pure functions of plain data that a notebook's setup uses),
    refused once the checks start; "watched", left in place for cells that need it and
    watched, with threads and processes refused (the weaker fallback)."""
    if cells not in CELLS_MODES:
        raise ValueError(f"cells must be one of {', '.join(CELLS_MODES)}, got {cells!r}")
    OWN_WORK[exercise] = tuple(dict.fromkeys((*OWN_WORK.get(exercise, ()), *specs)))
    for spec in specs:
        CELLS[(exercise, spec)] = cells


def uses_the_library(exercise: str, why: str) -> None:
    """Declare that `exercise` may use all of the course's library (combining it is the
    exercise: a pipeline, a capstone): nothing is withheld for it, and the search for course
    functions that do its work (tests/test_withheld.py) leaves it out."""
    OPEN_BOOK[exercise] = why


def _covers(key: str, exercise: str) -> bool:
    return exercise == key or exercise.startswith(key + ".")


def declared_for(exercise: str) -> tuple[str, ...]:
    """Every spec declared for `exercise`, itself or by a prefix."""
    _load_checks()
    found: list[str] = []
    for key, specs in OWN_WORK.items():
        if _covers(key, exercise):
            found += specs
    return tuple(dict.fromkeys(found))


def cells_mode(exercise: str, spec: str) -> str:
    """What the class grader's sandbox does with `spec` for `exercise` (see `own_work`)."""
    modes = [mode for (key, s), mode in CELLS.items() if s == spec and _covers(key, exercise)]
    for mode in ("watched", "served"):  # the most a notebook's cells are allowed wins
        if mode in modes:
            return mode
    return "withheld"


def withheld_for(exercise: str) -> dict[str, str]:
    """spec -> "withheld" or "served": what the sandbox withholds while `exercise` is graded."""
    return {s: m for s in declared_for(exercise) if (m := cells_mode(exercise, s)) != "watched"}


def watched_for(exercise: str) -> tuple[str, ...]:
    """The specs the sandbox leaves in place, and watches, while `exercise` is graded."""
    return tuple(s for s in declared_for(exercise) if cells_mode(exercise, s) == "watched")


# ---------------------------------------------------------------- the checks' inputs

_SECRET: int | None = None


def use_secret(secret: int | None) -> None:
    """Draw the checks' inputs from `secret` (the class grader's worker, before it loads the
    checks); None: the public seeds, as the course ships them."""
    global _SECRET
    _SECRET = None if secret is None else int(secret)


def seed(public: int) -> int:
    """The seed a check draws its inputs from: `public` in a learner's kernel (the course's
    own, so that check() says the same every time); in the class grader one derived from a
    secret drawn at grading time, which the course does not ship, so that no table computed
    in advance, from the shipped seeds, answers the checks."""
    if _SECRET is None:
        return public
    digest = hashlib.sha256(f"{_SECRET}:{public}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 1_000_003 + 1_000


def drawn(public: int, count: int = 1) -> list[random.Random]:
    """Random sources for a check's extra cases, drawn at grading time from the secret: none
    in a learner's kernel (check() tries the course's own cases, the same every time),
    `count` in the class grader. A check adds the cases it draws to its public ones, so an
    answer that knows only the public cases fails it there."""
    if _SECRET is None:
        return []
    return [random.Random(seed(public * 1_000 + i)) for i in range(count)]


def is_drawn() -> bool:
    """Whether the checks' inputs are drawn from a secret (the class grader)."""
    return _SECRET is not None


def _load_checks() -> None:
    """Import classroom.checks, whose submodules register the course's checks."""
    import classroom.checks  # noqa: F401  (imported for its side effect)


def load_checks_file(path: str | Path) -> list[str]:
    """Register the checks of a Python file of one's own (a teacher's exercises), written
    like classroom/checks/lessonNN.py; returns the exercises it defines."""
    import importlib.util

    path = Path(path)
    if not path.is_file() or path.suffix != ".py":
        raise FileNotFoundError(f"checks file {str(path)!r}: not a .py file")
    _load_checks()
    before = {ex: len(cs) for ex, cs in CHECKS.items()}
    spec = importlib.util.spec_from_file_location(f"agentlib_checks_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [ex for ex, cs in CHECKS.items() if len(cs) != before.get(ex, 0)]


def exercises_matching(name: str) -> list[str]:
    """Exercise names that `name` selects: itself, or all `name.*` when it is a prefix."""
    _load_checks()
    if name in CHECKS:
        return [name]
    return sorted(ex for ex in CHECKS if ex.startswith(name + "."))


def _short(text: object, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------- both sides of the boundary


def portable(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)`, remembering how it was made, so that the grader can rebuild
    the same object in the learner's process instead of sending it (a workload, a meter).
    `fn` must be a module-level function or class of agentlib, coursekit, apiwire, standin
    or classroom.harness (what the grader's learner kernel can import)."""
    obj = fn(*args, **kwargs)
    try:
        obj.__agentlib_recipe__ = (f"{fn.__module__}:{fn.__qualname__}", args, kwargs)
    except AttributeError:
        pass
    return obj


def in_learner_process(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` where the learner's functions among the arguments live: here
    in a notebook, in the learner's sandbox when grading. `fn` must be a module-level
    function of classroom.harness (or of the agent or the kit), and its result plain data."""
    for value in (*args, *kwargs.values()):
        session = getattr(value, "_session", None)
        if session is not None and hasattr(session, "call"):
            return session.call({"$": "lib", "fn": f"{fn.__module__}:{fn.__qualname__}"},
                                args, kwargs)
    return fn(*args, **kwargs)


_brief_repr = reprlib.Repr()
_brief_repr.maxstring = _brief_repr.maxother = 60
_brief_repr.maxlist = _brief_repr.maxtuple = _brief_repr.maxdict = 4
_brief_repr.maxlevel = 2


def _brief(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(m, dict) and "role" in m
                                                 for m in value):
        return f"<{len(value)} messages>"
    try:
        return _brief_repr.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"


def call_text(name: str, args: tuple, kwargs: dict) -> str:
    """A call as a learner reads it: find_split(<5 messages>), cap_text('abc', 10)."""
    parts = [_brief(a) for a in args] + [f"{k}={_brief(v)}" for k, v in kwargs.items()]
    return _short(f"{name}({', '.join(parts)})", 200)


class _Traced:
    """A learner's function as a check calls it: what it raises names the call; with a
    watch, the course's own code it runs is recorded (and a declared text it returns)."""

    def __init__(self, fn: Callable[..., Any], name: str,
                 watch: ownwork.Watch | None = None) -> None:
        self.__wrapped__, self._name, self._watch = fn, name, watch

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        watch = self._watch
        if watch is not None:
            watch.start()
        try:
            value = self.__wrapped__(*args, **kwargs)
        except BaseException as exc:
            _blame(exc, self._name, args, kwargs)
            raise
        finally:
            if watch is not None:
                watch.stop()
        if watch is not None:
            watch.hits += ownwork.returned(value, watch.texts)
        return value

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.__wrapped__, attribute)


def _blame(exc: BaseException, name: str, args: tuple, kwargs: dict) -> None:
    """Mark `exc` as raised by the learner's call `name(*args, **kwargs)`."""
    if getattr(exc, "__agentlib_call__", None) is None:
        try:
            exc.__agentlib_call__ = call_text(name, args, kwargs)
        except (AttributeError, TypeError):
            pass


def _traced(ns: Any, names: Iterable[str], watch: ownwork.Watch | None = None) -> Any:
    """A view of a notebook's globals whose named functions are traced (grading's remote
    namespace traces its calls itself)."""
    if not isinstance(ns, dict):
        return ns
    view = dict(ns)
    for name in names:
        if callable(ns.get(name)) and not isinstance(ns[name], type):
            view[name] = _Traced(ns[name], name, watch)
    return view


# ---------------------------------------------------------------- is it the learner's own work

_WATCHES: dict[tuple[str, ...], ownwork.Watch] = {}


def _watch_of(ns: Any, specs: tuple[str, ...]) -> Any:
    """What records the course's code a check's calls ran: the remote namespace's session
    (the sandbox watches, the grader decides), else a watch in this kernel; None when the
    exercise declares nothing."""
    if not specs:
        return None
    if not isinstance(ns, dict):
        return getattr(ns, "watch", None)
    if specs not in _WATCHES:
        _WATCHES[specs] = ownwork.Watch(specs)
    return _WATCHES[specs]


def _quoted(names: list[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


OWN_FAIL = ("uses the course's own {names}; write it yourself: a check passed that way earns "
            "no points")
OWN_NOTE = ("uses the course's own {names}; write it yourself: the class grader gives no "
            "points to a check passed that way")
TAMPERED = ("{what} while it ran: the grader cannot tell whose code ran, so the check earns "
            "no points")
SOURCE_TAMPERED = ("its notebook's code names {names}, which no exercise needs and which could "
                   "switch off the grader's watch: the check earns no points")
CHECKS_NOTE = ("uses the exercise checks' own {names}; write it yourself: the class grader's "
               "kernel cannot import classroom.checks")
IMPORTED = "{how}: an import is not your own function; write it yourself (it earns no points)"
IMPORTED_NOTE = ("{how}: an import is not your own function; write it yourself: the class "
                 "grader gives no points to a check passed that way")


def _seen(watch: Any, mark: Any, ns: Any, c: Check
          ) -> tuple[list[str], list[str], list[str], list[str]]:
    """(declared code the check's calls ran, how the watch was switched off while they
    ran, what of the watch the notebook's source names, how a graded name is imported):
    the watch's log since `mark`, and, from the grader, its own reading of the source
    (`source_findings`)."""
    hits, tampered = watch.since(mark) if watch is not None else ([], [])
    findings = getattr(ns, "source_findings", None)
    if findings is None:
        return hits, tampered, [], []
    used, named, imported = findings(c.needs)
    return [*hits, *used], tampered, named, imported


def _judged(result: Result, seen: tuple[list[str], list[str], list[str], list[str]],
            specs: tuple[str, ...], mode: str) -> Result:
    """`result`, unless its check's function was imported, or its calls ran declared code:
    then a failure saying so (`mode` "fail", the grader) or the same result with a note
    (`mode` "note", a notebook)."""
    hits, tampered, named, imported = seen
    names = ownwork.used(hits, specs)
    if (not names and not tampered and not named and not imported) \
            or result.status in ("todo", "missing"):
        return result
    if imported:
        detail = (IMPORTED if mode == "fail" else IMPORTED_NOTE).format(how=imported[0])
    elif names:
        detail = (OWN_FAIL if mode == "fail" else OWN_NOTE).format(names=_quoted(names))
    elif tampered:
        detail = TAMPERED.format(what=tampered[0])
    else:
        detail = SOURCE_TAMPERED.format(names=_quoted(named))
    if mode == "fail":
        return Result(result.exercise, result.check, "fail", detail, result.hint)
    return Result(result.exercise, result.check, result.status, result.detail, result.hint,
                  detail, result.data)


COURSE_PACKAGES = ("agentlib", "coursekit", "standin", "apiwire", "classroom")


def _imported_names(ns: Any, names: Iterable[str]) -> list[str]:
    """In a learner's kernel: the graded names that are the course's own functions under
    another name (`from agentlib.context.textfold import text_cut as safe_truncate`)."""
    if not isinstance(ns, dict):
        return []
    found = []
    for name in names:
        fn = getattr(ns.get(name), "__func__", ns.get(name))
        module, own = getattr(fn, "__module__", None), getattr(fn, "__name__", name)
        if isinstance(module, str) and module.split(".")[0] in COURSE_PACKAGES \
                and own != name and callable(fn):
            found.append(f"`{name}` is the course's `{own}` ({module}) under another name")
    return found


def _checks_referenced(ns: Any, names: Iterable[str]) -> list[str]:
    """What of classroom.checks the learner's functions `names` refer to, through their
    globals and the notebook's other functions (a kernel can import them; the grader's
    cannot)."""
    if not isinstance(ns, dict):
        return []
    found: list[str] = []
    seen: set[int] = set()
    stack = [ns.get(n) for n in names]
    while stack:
        fn = stack.pop()
        fn = getattr(fn, "__func__", fn)
        code = getattr(fn, "__code__", None)
        if code is None or id(fn) in seen or len(seen) > 200:
            continue
        seen.add(id(fn))
        scope = getattr(fn, "__globals__", {})
        codes = [code]
        while codes:
            c = codes.pop()
            codes += [k for k in c.co_consts if hasattr(k, "co_names")]
            for name in c.co_names:
                value = scope.get(name)
                module = value.__name__ if hasattr(value, "__path__") or \
                    type(value).__name__ == "module" else getattr(value, "__module__", "")
                if isinstance(module, str) and (module == "classroom.checks"
                                                or module.startswith("classroom.checks.")):
                    found.append(name)
                elif callable(value) and getattr(value, "__globals__", None) is scope:
                    stack.append(value)  # another of the notebook's functions
    return list(dict.fromkeys(found))


@contextmanager
def _time_limit(ns: Any, seconds: float | None) -> Iterator[None]:
    """At most `seconds` for what runs inside: on a remote namespace its own deadline, in
    a notebook a SIGALRM (main thread, POSIX); any timer already set is restored."""
    remote = getattr(ns, "time_limit", None)
    if remote is not None and seconds is not None:
        with remote(seconds):
            yield
        return
    if (seconds is None or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def ring(signum, frame):  # noqa: ANN001, ANN202
        raise CheckTimeout(f"timed out after {seconds:g} s")

    started = time.monotonic()
    old_handler = signal.signal(signal.SIGALRM, ring)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay:
            left = max(old_delay - (time.monotonic() - started), 0.01)
            signal.setitimer(signal.ITIMER_REAL, left, old_interval)


def _why_missing(ns: Any, name: str) -> str:
    """Why `name` is not defined: its cell raised (we can tell), or it has not run yet."""
    remote = getattr(ns, "why_missing", None)
    if remote is not None:
        return remote(name) or f"no `{name}` in the notebook: its cell was deleted or renamed"
    history = ns.get("In") if isinstance(ns, dict) else None
    if isinstance(history, list):
        defines = re.compile(rf"^(?:async\s+def|def|class)\s+{re.escape(name)}\b"
                             rf"|^{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)", re.M)
        ran = [i for i, src in enumerate(history) if isinstance(src, str) and defines.search(src)]
        if ran:
            return (f"`{name}` is not defined although its cell ran (In [{ran[-1]}]): that "
                    "cell raised an error before defining it; fix it and run it again")
    return f"no `{name}` defined yet: run its cell first"


_RECORDED: dict = {}


def record(**data: Any) -> None:
    """Keep plain data a check measured (numbers, short texts) with its result: the
    gradebook's reports hold it, and the capstone's leaderboard reads it."""
    _RECORDED.update(data)


def time_limit(c: Check, timeout: float | None) -> float | None:
    """The time a check gets: the usual limit, or its own when it asks for more."""
    if timeout is None or c.seconds is None:
        return timeout
    return max(timeout, c.seconds)


def _run_one(c: Check, ns: Any, timeout: float | None) -> Result:
    result = _run_measured(c, ns, timeout)
    if _RECORDED:
        result = Result(result.exercise, result.check, result.status, result.detail,
                        result.hint, result.note, dict(_RECORDED))
        _RECORDED.clear()
    return result


def _run_measured(c: Check, ns: Any, timeout: float | None) -> Result:
    _RECORDED.clear()
    missing = [name for name in c.needs if name not in ns]
    if missing:
        return Result(c.exercise, c.title, "missing",
                      "; ".join(_why_missing(ns, n) for n in missing), c.hint)
    try:
        with _time_limit(ns, time_limit(c, timeout)):
            c.fn(ns)
    except NotImplementedError:
        return Result(c.exercise, c.title, "todo", "not attempted yet", c.hint)
    except CheckTimeout as exc:
        where = getattr(exc, "__agentlib_call__", None)
        detail = f"{_short(exc) or 'timed out'}" + (f" in {where}" if where else "")
        return Result(c.exercise, c.title, "timeout", detail, c.hint)
    except SubmissionGone as exc:
        return Result(c.exercise, c.title, "crashed", _short(exc), c.hint)
    except KeyboardInterrupt:
        raise
    except AssertionError as exc:
        where = getattr(exc, "__agentlib_call__", None)
        if where is None:
            return Result(c.exercise, c.title, "fail", _short(exc) or "check failed", c.hint)
        return Result(c.exercise, c.title, "error",
                      f"{where} raised AssertionError: {_short(exc, 200)}", c.hint)
    except BaseException as exc:
        where = getattr(exc, "__agentlib_call__", None)
        said = f"raised {type(exc).__name__}: {_short(exc, 200)}"
        return Result(c.exercise, c.title, "error", f"{where} {said}" if where else said,
                      c.hint)
    return Result(c.exercise, c.title, "pass")


def run_checks(names: str | Iterable[str], namespace: Any,
               timeout: float | None = CHECK_TIMEOUT, *, own_work: str = "note"
               ) -> list[Result]:
    """Run the checks of the named exercises (or prefixes) against `namespace`.

    After a check of an exercise times out (or the learner's process died), the
    exercise's remaining checks are not run: they get the same status. A check whose calls
    ran code the exercise declares (`own_work`) gets a note (`own_work="note"`, a
    learner's kernel) or fails (`own_work="fail"`, the class grader).
    """
    if own_work not in ("note", "fail"):
        raise ValueError(f"own_work must be 'note' or 'fail', got {own_work!r}")
    if isinstance(names, str):
        names = [names]
    results: list[Result] = []
    for name in names:
        exercises = exercises_matching(name)
        if not exercises:
            results.append(Result(name, "exercise exists", "error",
                                  f"no checks registered for {name!r}"))
        for ex in exercises:
            needs = {n for c in CHECKS[ex] for n in c.needs}
            specs = declared_for(ex)
            watch = _watch_of(namespace, specs)
            ns = _traced(namespace, needs, watch if isinstance(namespace, dict) else None)
            borrowed = _checks_referenced(namespace, needs)
            aliases = _imported_names(namespace, needs)
            stopped: Result | None = None
            for c in CHECKS[ex]:
                if stopped is not None:
                    results.append(Result(ex, c.title, stopped.status,
                                          f"not run: an earlier check {stopped.detail}",
                                          c.hint))
                    continue
                mark = watch.mark() if watch is not None else None
                result = _run_one(c, ns, timeout)
                result = _judged(result, _seen(watch, mark, namespace, c), specs, own_work)
                mine = [a for a in aliases if any(a.startswith(f"`{n}`") for n in c.needs)]
                if mine and result.status == "pass" and not result.note:
                    result = Result(ex, c.title, result.status, result.detail, result.hint,
                                    IMPORTED_NOTE.format(how=mine[0]), result.data)
                if borrowed and result.status == "pass" and not result.note:
                    result = Result(ex, c.title, result.status, result.detail, result.hint,
                                    CHECKS_NOTE.format(names=_quoted(borrowed)), result.data)
                if result.status in ("timeout", "crashed"):
                    stopped = result
                results.append(result)
    return results


def report_lines(results: list[Result]) -> list[str]:
    """One line per result; a reason shared with the line above is said once."""
    lines, previous = [], None
    for r in results:
        reason = (r.exercise, r.status, r.detail) if r.status != "pass" and r.detail else None
        lines.append(r.line(same_as_above=reason is not None and reason == previous))
        previous = reason
    return lines


def note_lines(results: list[Result], language: str | None = None) -> list[str]:
    """One NOTE line per exercise and note (the work was not the learner's own)."""
    ko = (language or i18n.lang()) == "ko"
    say = translate if ko else str
    notes = dict.fromkeys((r.exercise, r.note) for r in results if r.note)
    return [f"{say('NOTE'):<5} {exercise}: {say(note)}" for exercise, note in notes]


def check(name: str, namespace: dict | None = None, *,
          timeout: float | None = CHECK_TIMEOUT) -> None:
    """Run exercise `name`'s checks on the caller's globals and print one line each.

    Never raises (except KeyboardInterrupt, so the learner can stop a runaway loop).
    """
    try:
        ns = namespace if namespace is not None else sys._getframe(1).f_globals
        results = run_checks(name, ns, timeout)
        for line in report_lines(results):
            print(line)
        for line in note_lines(results):
            print(line)
        passed = sum(r.status == "pass" for r in results)
        if len(results) > 1:
            print(i18n.say("{passed}/{total} checks passed", passed=passed, total=len(results)))
    except (Exception, SystemExit, CheckTimeout, SubmissionGone) as exc:  # a bug in a check
        failed = f"the check itself failed ({type(exc).__name__}: {_short(exc)})"
        ko = i18n.lang() == "ko"
        print(f"{translate('ERROR') if ko else 'ERROR'} {name}: "
              f"{translate(failed) if ko else failed}")


def assert_check(exercise: str, title: str, namespace: dict | None = None) -> None:
    """Raise AssertionError unless the check `title` of `exercise` passes (for autograders
    that count a test cell as passed when it does not raise, such as nbgrader's). A check
    passed with the course's own code (`own_work`) does not pass here."""
    ns = namespace if namespace is not None else sys._getframe(1).f_globals
    _load_checks()
    found = [c for c in CHECKS.get(exercise, []) if c.title == title]
    if not found:
        raise AssertionError(f"no check {title!r} registered for {exercise!r}")
    specs = declared_for(exercise)
    watch = _watch_of(ns, specs)
    mark = watch.mark() if watch is not None else None
    result = _run_one(found[0], _traced(ns, found[0].needs, watch), CHECK_TIMEOUT)
    result = _judged(result, _seen(watch, mark, ns, found[0]), specs, "fail")
    if result.status != "pass":
        raise AssertionError(result.line())
