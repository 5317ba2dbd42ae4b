"""The grader's side of the wire: the learner's functions as callables that cross over.

`Session` talks to one sandbox's runner. A check receives a `RemoteNamespace`: its
values are `RemoteFunction`s, so `ns["find_split"](history)` sends the history as data,
the learner's function runs in the sandbox, and its result comes back as data (with any
argument it changed in place, so "does not change its input" still means something).
What a check lends (a tool function, the offline model's client, a workload) goes the
other way: functions as callbacks answered here, the client's requests answered by the
grader's own model, library objects rebuilt there from how they were made
(`classroom.grading.portable`).

Every answer says which of the course's own code (of what the assignment asks the
learner to write) ran during the call, as the sandbox's watch saw it; the session keeps
that log, and a returned text that is one of the course's declared texts, for the
checks to judge (`mark()`, `since(mark)`: classroom/grading.py decides, here).

Every call has a deadline: the runner interrupts the learner's function when the
check's time is up; if it does not answer even then, the sandbox is given up
(`CheckTimeout`), and a sandbox that died gives `SubmissionGone`, for every later call.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from classroom.grader.channel import ChannelBroken, ChannelClosed, ChannelTimeout
from classroom.grader.lending import Lender
from classroom.grader.sandbox import Sandbox
from classroom.grader.wire import (
    Codec,
    Opaque,
    WireError,
    decode_error,
    describe_callable,
    encode_error,
    opaque,
    signature_of,
)
from classroom.grading import CheckTimeout, SubmissionGone, _blame
from classroom.ownwork import returned

GRACE = 5.0  # seconds the runner gets, after a deadline, to report the timeout itself
DEFAULT_LIMIT = 60.0


class RemoteFunction:
    """A function of the learner's, called across the boundary."""

    def __init__(self, session: Session, ref: dict, meta: dict) -> None:
        self._session, self._ref = session, ref
        self.__name__ = str(meta.get("name") or ref.get("name") or "function")
        self.__qualname__ = str(meta.get("qualname") or self.__name__)
        self.__doc__ = meta.get("doc")
        self.__module__ = "learner"
        signature, annotations = signature_of(meta, session)
        if signature is not None:
            self.__signature__ = signature
        self.__annotations__ = annotations

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._session.call(self._ref, args, kwargs)
        except BaseException as exc:
            _blame(exc, self.__name__, args, kwargs)
            raise

    def __repr__(self) -> str:
        return f"<function {self.__qualname__}>"


class Session(Codec):
    """One sandbox's runner; state: the call counter, the deadline, whether it broke, what
    was lent in which check, what the watch reported (watched exercises only)."""

    def __init__(self, sandbox: Sandbox, texts: dict[str, str] | None = None,
                 lender: Lender | None = None, watched: bool = False) -> None:
        super().__init__()
        self.sandbox, self.channel = sandbox, sandbox.channel
        self.deadline: float | None = None
        self.broken: BaseException | None = None
        self._number = 0
        self.texts = dict(texts or {})  # declared texts a function may not return as its own
        self.hits: list[str] = []  # the course's declared code the calls ran, as reported
        self.tampered: list[str] = []
        self.lender = lender or Lender({})
        self.watched = watched  # an answer must carry the watch's report
        self.check = 0  # the check running now; what it lends answers only in it
        self._lent_in: dict[int, int] = {}

    def keep(self, obj: Any) -> int:
        number = super().keep(obj)
        self._lent_in[number] = self.check
        return number

    # ---------------------------------------------------------------- what the calls ran
    def mark(self) -> tuple[int, int]:
        return len(self.hits), len(self.tampered)

    def since(self, mark: tuple[int, int]) -> tuple[list[str], list[str]]:
        """(declared code that ran, ways the watch was switched off) after `mark`."""
        return (list(dict.fromkeys(self.hits[mark[0]:])),
                list(dict.fromkeys(self.tampered[mark[1]:])))

    def _observe(self, message: dict) -> None:
        if not self.watched:
            return
        for key, log in (("ran", self.hits), ("tampered", self.tampered)):
            found = message.get(key)
            if isinstance(found, list):
                log += [str(x)[:300] for x in found[:100] if isinstance(x, str)]
            else:
                self.tampered.append("answered without the watch's report")
        if not self.sandbox.frozen and self.sandbox.runner_threads() > 1:
            self.tampered.append("ran a thread beside the call")

    # ---------------------------------------------------------------- values going out
    def encode_other(self, value: Any, depth: int) -> Any:
        if isinstance(value, RemoteFunction) and value._session is self:
            return value._ref
        if isinstance(value, Opaque):
            return {"$": "handle", "id": value._handle}
        recipe = getattr(value, "__agentlib_recipe__", None)
        if recipe is not None:
            path, args, kwargs = recipe
            return {"$": "build", "fn": path, "args": self.encode(list(args), depth),
                    "kwargs": self.encode(dict(kwargs), depth)}
        model = getattr(value, "course_model", None)
        if model is not None and hasattr(model, "handle"):
            return {"$": "client", "id": self.keep(model.handle), "model": model.model,
                    "context_window": model.context_window,
                    "max_retries": getattr(value, "max_retries", 2)}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            cls = type(value)
            return {"$": "dataclass", "cls": f"{cls.__module__}:{cls.__qualname__}",
                    "fields": {f.name: self.encode(getattr(value, f.name), depth)
                               for f in dataclasses.fields(value)}}
        if callable(value):
            return {"$": "callback", "id": self.keep(value), **describe_callable(value, self)}
        raise WireError(f"a check cannot send a {type(value).__name__} to the notebook")

    # ---------------------------------------------------------------- values coming in
    def decode_tag(self, kind: str, data: dict, depth: int) -> Any:
        if kind == "function":
            return RemoteFunction(self, {"$": "handle", "id": int(data["id"])}, data)
        if kind == "object":
            return opaque(int(data["id"]), str(data.get("type", "object")),
                          str(data.get("repr", ""))[:300])
        raise WireError(f"unknown kind of value {kind!r}")

    # ---------------------------------------------------------------- calls
    def call(self, ref: dict, args: tuple, kwargs: dict) -> Any:
        """Call the learner's function `ref`; its result, or its error raised here."""
        if self.broken is not None:
            raise type(self.broken)(*self.broken.args)
        limit = DEFAULT_LIMIT if self.deadline is None else self.deadline - time.monotonic()
        limit = max(limit, 0.05)
        self._number += 1
        number = self._number
        encoded_args = self.encode(list(args))
        self._send({"op": "call", "id": number, "fn": ref, "args": encoded_args,
                    "kwargs": self.encode(dict(kwargs)), "timeout": round(limit, 3)})
        hard = time.monotonic() + limit + GRACE
        while True:
            message = self._receive(hard, limit)
            op = message.get("op")
            if op == "callback":
                self._answer_callback(message)
                continue
            if op == "ask":  # the notebook's own client, a served function: refused now
                self._send(self.lender.answer(message))
                continue
            if op == "alarm":
                self.tampered.append(f"reached for {str(message.get('what'))[:80]}")
                continue
            if message.get("id") != number:
                self._give_up(SubmissionGone("the notebook's process answered out of turn"))
            self._observe(message)
            if op == "result":
                self._apply_changes(args, kwargs, message.get("mutated") or [])
                value = self.decode(message.get("value"))
                self.hits += returned(value, self.texts)
                return value
            if op == "raised":
                raise decode_error(message.get("error") or {})
            if op == "timeout":
                raise CheckTimeout(f"timed out after {limit:.3g} s")
            if op == "missing":
                raise NameError(f"name {ref.get('name')!r} is not defined")
            self._give_up(SubmissionGone(f"the notebook's process sent {op!r}"))

    def _send(self, message: dict) -> None:
        try:
            self.channel.send(message)
        except ChannelClosed:
            self._give_up(SubmissionGone(self._died()))

    def _receive(self, hard: float, limit: float) -> dict:
        try:
            return self.channel.receive(hard)
        except ChannelTimeout:
            self._give_up(CheckTimeout(f"timed out after {limit:.3g} s and did not stop"))
        except ChannelClosed:
            self._give_up(SubmissionGone(self._died()))
        except ChannelBroken as exc:
            self._give_up(SubmissionGone(f"the notebook's process sent garbage ({exc})"))
        raise AssertionError("unreachable")

    def _died(self) -> str:
        for _ in range(50):
            if not self.sandbox.alive():
                break
            time.sleep(0.02)
        note = self.sandbox.exit_note()
        return "the notebook's process died" + (f" ({note})" if note else "")

    def _give_up(self, exc: BaseException) -> None:
        self.broken = exc
        raise exc

    def _answer_callback(self, message: dict) -> None:
        try:
            number = int(message["id"])
            if self._lent_in.get(number) != self.check:
                raise PermissionError("what a check lends answers only during that check")
            fn = self.handles[number]
            value = fn(*self.decode(message.get("args", [])),
                       **self.decode(message.get("kwargs", {})))
            reply = {"op": "callback_result", "value": self.encode(value)}
        except Exception as exc:  # the check's own function raised: hand it over
            reply = {"op": "callback_result", "error": encode_error(exc)}
        self._send(reply)

    def _apply_changes(self, args: tuple, kwargs: dict, changes: list) -> None:
        """Mirror what the learner's function changed in its arguments onto ours."""
        for change in changes:
            try:
                where, key, data = change
                target = args[int(key)] if where == "arg" else kwargs[str(key)]
                new = self.decode(data)
            except (ValueError, IndexError, KeyError, TypeError, WireError):
                continue
            if isinstance(target, list) and isinstance(new, list):
                target[:] = new
            elif isinstance(target, dict | set) and type(new) is type(target):
                target.clear()
                target.update(new)

    def bye(self) -> None:
        if self.broken is None:
            try:
                self.channel.send({"op": "bye"})
            except ChannelClosed:
                pass


class RemoteNamespace:
    """The learner's globals as a check sees them: names that exist, as remote functions."""

    def __init__(self, session: Session, names: dict, why_missing: dict[str, str],
                 source_uses: dict[str, list[str]] | None = None,
                 source_tampering: list[str] = (),
                 imported: dict[str, str] | None = None) -> None:
        self.session = session
        self._names = {n: m for n, m in names.items() if m}
        self._why = why_missing
        self._cache: dict[str, RemoteFunction] = {}
        self._source_uses = dict(source_uses or {})
        self._source_tampering = list(source_tampering)
        self._imported = dict(imported or {})

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __getitem__(self, name: str) -> RemoteFunction:
        if name not in self._names:
            raise KeyError(name)
        if name not in self._cache:
            meta = self._names[name] if isinstance(self._names[name], dict) else {}
            self._cache[name] = RemoteFunction(self.session, {"$": "name", "name": name},
                                               {"name": name, **meta})
        return self._cache[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def source_findings(self, names: tuple[str, ...]) -> tuple[list[str], list[str], list[str]]:
        """The grader's own reading of the cells (classroom/grader/sources.py): (declared
        things the code of `names` refers to, the watch's machinery the notebook names,
        how a name among `names` is imported instead of written)."""
        used = [h for n in names for h in self._source_uses.get(n, [])]
        imported = [self._imported[n] for n in names if n in self._imported]
        return used, list(self._source_tampering), imported

    @property
    def watch(self) -> Session:
        """What the checks' calls ran of the course's own code (`mark()`, `since()`)."""
        return self.session

    def why_missing(self, name: str) -> str | None:
        """Why `name` is not defined, when the notebook's run says (a cell raised)."""
        return self._why.get(name)

    @contextmanager
    def time_limit(self, seconds: float) -> Iterator[None]:
        """Every call made inside gets at most `seconds` in all (one check: what it lends
        answers only inside)."""
        self.session.check += 1
        self.session.deadline = time.monotonic() + seconds
        try:
            yield
        finally:
            self.session.deadline = None
