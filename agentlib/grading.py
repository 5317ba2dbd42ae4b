"""Checks for exercise notebooks: `check("ex2.keep_last")` prints one line per check.

An exercise is a named piece of work in a notebook (a function the learner writes).
Each exercise has one or more checks, registered with `register`:

    from agentlib.grading import register

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
    ERROR ex0.add: adds two small integers — raised TypeError: ... (hint: return a + b)

`check` never raises into the notebook: a learner's mistake is reported, not thrown.
`check("ex0")` runs every exercise named `ex0.*`. Exercise names are unique across the
course (`ex<lesson>.<function>`), and a title is unique within its exercise: together
they name a column of the gradebook. Checks live in agentlib/checks/lessonNN.py.

Tests call `run_checks(name, namespace)` to prove a known wrong answer fails. The
grading command (`python -m agentlib.grade`) does not trust printed lines; it calls
`run_checks_json` itself after the learner's cells have run.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

CheckFn = Callable[[dict], None]

STATUSES = ("pass", "fail", "todo", "missing", "error")


@dataclass(frozen=True)
class Check:
    """One check of one exercise: a function of the learner's namespace."""

    exercise: str
    title: str
    fn: CheckFn
    hint: str = ""
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Result:
    """What one check found: status is one of STATUSES; detail says why."""

    exercise: str
    check: str
    status: str
    detail: str = ""
    hint: str = ""

    def line(self) -> str:
        """The one line `check` prints for this result."""
        label = self.status.upper()
        text = f"{label:<5} {self.exercise}: {self.check}"
        if self.status != "pass" and self.detail:
            text += f" — {self.detail}"
        if self.status in ("fail", "error") and self.hint:
            text += f" (hint: {self.hint})"
        return text


CHECKS: dict[str, list[Check]] = {}
"""exercise name -> its checks, in registration order."""


def register(
    exercise: str, title: str, *, hint: str = "", needs: Iterable[str] = ()
) -> Callable[[CheckFn], CheckFn]:
    """Decorator: add `fn` as a check of `exercise`.

    `needs` names the learner's objects the check uses; if one is not defined the check
    reports MISSING instead of a confusing KeyError. Registering the same exercise and
    title again replaces the old check, so re-importing a module is harmless.
    """

    def decorator(fn: CheckFn) -> CheckFn:
        new = Check(exercise, title, fn, hint, tuple(needs))
        checks = CHECKS.setdefault(exercise, [])
        for i, old in enumerate(checks):
            if old.title == title:
                checks[i] = new
                break
        else:
            checks.append(new)
        return fn

    return decorator


def _load_checks() -> None:
    """Import agentlib.checks, whose submodules register the course's checks."""
    import agentlib.checks  # noqa: F401  (imported for its side effect)


def exercises_matching(name: str) -> list[str]:
    """Exercise names that `name` selects: itself, or all `name.*` when it is a prefix."""
    _load_checks()
    if name in CHECKS:
        return [name]
    return sorted(ex for ex in CHECKS if ex.startswith(name + "."))


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _run_one(c: Check, ns: dict) -> Result:
    missing = [name for name in c.needs if name not in ns]
    if missing:
        names = ", ".join(f"`{n}`" for n in missing)
        return Result(c.exercise, c.title, "missing",
                      f"no {names} defined yet: run its cell first", c.hint)
    try:
        c.fn(ns)
    except NotImplementedError:
        return Result(c.exercise, c.title, "todo", "not attempted yet", c.hint)
    except AssertionError as exc:
        return Result(c.exercise, c.title, "fail", _short(exc) or "check failed", c.hint)
    except (Exception, SystemExit) as exc:
        detail = f"raised {type(exc).__name__}: {_short(exc, 200)}"
        return Result(c.exercise, c.title, "error", detail, c.hint)
    return Result(c.exercise, c.title, "pass")


def run_checks(names: str | Iterable[str], namespace: dict) -> list[Result]:
    """Run the checks of the named exercises (or prefixes) against `namespace`."""
    if isinstance(names, str):
        names = [names]
    results: list[Result] = []
    for name in names:
        exercises = exercises_matching(name)
        if not exercises:
            results.append(Result(name, "exercise exists", "error",
                                  f"no checks registered for {name!r}"))
        for ex in exercises:
            results.extend(_run_one(c, namespace) for c in CHECKS[ex])
    return results


def check(name: str, namespace: dict | None = None) -> None:
    """Run exercise `name`'s checks on the caller's globals and print one line each.

    Never raises (except KeyboardInterrupt, so the learner can stop a runaway loop).
    """
    try:
        ns = namespace if namespace is not None else sys._getframe(1).f_globals
        results = run_checks(name, ns)
        for r in results:
            print(r.line())
        passed = sum(r.status == "pass" for r in results)
        if len(results) > 1:
            print(f"{passed}/{len(results)} checks passed")
    except (Exception, SystemExit) as exc:  # a bug in a check must not break the notebook
        print(f"ERROR {name}: the check itself failed ({type(exc).__name__}: {_short(exc)})")


class _Discard(io.TextIOBase):
    """A text stream that throws away what is written (a learner may print a lot)."""

    def write(self, s: str) -> int:
        return len(s)


def run_checks_json(names: str | Iterable[str], namespace: dict | None = None) -> str:
    """Run checks like `check`, silencing the learner's prints; return results as JSON.

    Used by the grading command: a JSON list of {exercise, check, status, detail, hint}.
    """
    ns = namespace if namespace is not None else sys._getframe(1).f_globals
    try:
        with contextlib.redirect_stdout(_Discard()), contextlib.redirect_stderr(_Discard()):
            results = run_checks(names, ns)
    except (Exception, SystemExit) as exc:
        name = names if isinstance(names, str) else ",".join(names)
        results = [Result(name, "checks ran", "error", f"{type(exc).__name__}: {_short(exc)}")]
    return json.dumps([asdict(r) for r in results], ensure_ascii=False)
