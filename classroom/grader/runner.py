"""Inside the sandbox: run a notebook's cells, then answer the grader's calls.

    python -m classroom.grader.runner READ_FD WRITE_FD

The grader sends the code cells; each runs in an IPython shell (magics and display work
as in Jupyter) under a time limit, and the runner reports how it ended. Then the runner
serves calls: "call the learner's `find_split` with these arguments" (plain data, see
wire.py), answering with the result as data, the error it raised, or a timeout. A
function or object the grader lends (a tool, the model's client) becomes a callable here
that calls back. The learner's output goes nowhere: stdout and stderr are /dev/null.

While a call runs, a watch (classroom/ownwork.py) records the course's own code that
runs, of what the assignment asks the learner to write; each answer carries what it saw
("ran", "tampered"). The runner decides nothing with it: the grader does.

Everything here runs with the learner's code in the same process, so nothing it says is
trusted: the grader treats its answers as the learner's answers, and judges them itself.
The kernel imports only the agent, the kit, the stand-in, the wire's data and this
runner (the grader's pristine copy, classroom/grade.py): no check and no reference
implementation is there to import.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import signal
import sys
import time
import types
from typing import Any

from classroom.grader.channel import Channel
from classroom.grader.wire import Codec, WireError, describe_callable, encode_error, signature_of
from classroom.ownwork import Watch

REACHABLE = ("agentlib", "coursekit", "apiwire", "standin", "classroom.harness")
"""What a check may name for the learner's process to build or run (`portable`,
`in_learner_process`): the agent, the kit, and the checks' harness, never a check."""


class CellTimeout(BaseException):
    """Raised in the learner's code when a cell or a call runs out of time."""


def _alarm(seconds: float | None) -> None:
    """Raise CellTimeout in the main thread after `seconds` (and every second after it,
    in case the learner's code swallows one); None cancels."""
    if seconds is None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return
    def ring(signum, frame):  # noqa: ANN001, ANN202
        raise CellTimeout(f"timed out after {seconds:g} s")
    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01), 1.0)


def _import(path: str) -> Any:
    """The object `module:qualname` names, from the packages in REACHABLE only."""
    module, _, qualname = path.partition(":")
    if not any(module == p or module.startswith(p + ".") for p in REACHABLE):
        raise WireError(f"refusing to import {module!r}: only {', '.join(REACHABLE)} are "
                        "reachable")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


class Runner(Codec):
    """The sandbox's side of the wire: the learner's namespace, and the grader's lendings."""

    def __init__(self, channel: Channel) -> None:
        super().__init__()
        self.channel = channel
        self.namespace: dict = {}
        self.watch: Watch | None = None

    def start_watch(self, specs: list) -> None:
        """Watch the declared code from before the first cell (threads included)."""
        specs = [s for s in specs if isinstance(s, str)]
        if specs:
            self.watch = Watch(specs)
            self.watch.guard()
            self.watch.watch_threads()

    # ---------------------------------------------------------------- values going out
    def encode_other(self, value: Any, depth: int) -> Any:
        to_dict = getattr(value, "to_dict", None)
        if callable(to_dict) and hasattr(type(value), "model_dump"):  # the SDK's objects
            return self.encode(to_dict(mode="json"), depth)
        if callable(value):
            return {"$": "function", "id": self.keep(value), **describe_callable(value, self)}
        try:
            text = repr(value)[:300]
        except Exception:
            text = f"<{type(value).__name__}>"
        return {"$": "object", "id": self.keep(value), "type": type(value).__name__,
                "repr": text}

    # ---------------------------------------------------------------- values coming in
    def decode_tag(self, kind: str, data: dict, depth: int) -> Any:
        if kind == "handle":
            return self.handles[int(data["id"])]
        if kind == "name":
            return self.namespace[str(data["name"])]
        if kind == "lib":
            return _import(str(data["fn"]))
        if kind == "callback":
            return self._callback_function(int(data["id"]), data)
        if kind == "build":
            fn = _import(str(data["fn"]))
            return fn(*self.decode(data.get("args", []), depth),
                      **self.decode(data.get("kwargs", {}), depth))
        if kind == "dataclass":
            fields = self.decode(data.get("fields", {}), depth)
            try:
                cls = _import(str(data["cls"]))
            except (WireError, ImportError, AttributeError):
                return types.SimpleNamespace(**fields)
            return cls(**fields) if dataclasses.is_dataclass(cls) else \
                types.SimpleNamespace(**fields)
        if kind == "client":
            return self._client(int(data["id"]), data)
        raise WireError(f"unknown kind of value {kind!r}")

    def _callback_function(self, cid: int, meta: dict) -> Any:
        def lent(*args, **kwargs):
            return self.call_back(cid, args, kwargs)
        lent.__name__ = str(meta.get("name") or "lent")
        lent.__qualname__ = str(meta.get("qualname") or lent.__name__)
        lent.__doc__ = meta.get("doc")
        lent.__module__ = str(meta.get("module") or "grader")
        signature, annotations = signature_of(meta, self)
        if signature is not None:
            lent.__signature__ = signature  # type: ignore[attr-defined]
            lent.__annotations__ = annotations
        return lent

    def _client(self, cid: int, meta: dict) -> Any:
        """A real anthropic client whose requests are answered by the grader's model."""
        import anthropic

        from agentlib.client import OFFLINE_KEY
        from standin.transport import httpx

        runner = self

        class Transport(httpx.BaseTransport):
            def handle_request(self, request):  # noqa: ANN001, ANN202
                headers = {k.lower(): v for k, v in request.headers.items()}
                status, out_headers, body = runner.call_back(
                    cid, (request.method, request.url.path, headers, request.read()), {})
                return httpx.Response(status, headers=out_headers, content=body,
                                      request=request)

        http = httpx.Client(transport=Transport(), base_url="http://offline.invalid")
        client = anthropic.Anthropic(api_key=OFFLINE_KEY, base_url="http://offline.invalid",
                                     http_client=http,
                                     max_retries=int(meta.get("max_retries", 2)))
        client.course_model = types.SimpleNamespace(  # type: ignore[attr-defined]
            model=meta.get("model"), context_window=meta.get("context_window"))
        return client

    def call_back(self, cid: int, args: tuple, kwargs: dict) -> Any:
        """Call the grader's function `cid` and wait for its answer."""
        self.channel.send({"op": "callback", "id": cid, "args": self.encode(list(args)),
                           "kwargs": self.encode(kwargs)})
        answer = self.channel.receive()
        if "error" in answer:
            from classroom.grader.wire import decode_error

            raise decode_error(answer["error"])
        return self.decode(answer.get("value"))

    def describe_names(self, names: list) -> dict:
        """For each name the checks need: None if undefined, else how it looks."""
        described: dict[str, Any] = {}
        for name in map(str, names):
            if name not in self.namespace:
                described[name] = None
                continue
            value = self.namespace[name]
            try:
                _alarm(5)
                described[name] = (describe_callable(value, self) if callable(value)
                                   else {"name": name, "params": None})
            except BaseException:
                described[name] = {"name": name, "params": None}
            finally:
                _alarm(None)
        return described

    # ---------------------------------------------------------------- the two phases
    def run_cells(self, cells: list[dict], timeout: float) -> None:
        """Run each cell under `timeout`; report how each ended."""
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        config = Config()
        config.HistoryManager.enabled = False
        shell = InteractiveShell.instance(config=config)
        self.namespace = shell.user_ns
        for cell in cells:
            start, error = time.monotonic(), None
            try:
                _alarm(timeout)
                result = shell.run_cell(str(cell["source"]), store_history=True)
                _alarm(None)
                failure = result.error_before_exec or result.error_in_exec
                if failure is not None:
                    error = encode_error(failure)
            except BaseException as exc:  # a timeout landing outside the learner's code
                _alarm(None)
                error = encode_error(exc)
            self.channel.send({"op": "cell", "index": cell["index"], "error": error,
                               "seconds": round(time.monotonic() - start, 3)})

    def serve(self) -> None:
        """Answer calls until the grader says bye (or goes away)."""
        while True:
            message = self.channel.receive()
            if message.get("op") != "call":
                return
            self.channel.send(self._answer(message))

    def _answer(self, message: dict) -> dict:
        number = message.get("id")
        watch, mark = self.watch, None
        try:
            _alarm(float(message.get("timeout") or 60))
            try:
                fn = self.decode(message["fn"])
                raw_args, raw_kwargs = message.get("args", []), message.get("kwargs", {})
                args, kwargs = self.decode(raw_args), self.decode(raw_kwargs)
                mark = watch.start() if watch is not None else None
                try:
                    value = fn(*args, **kwargs)
                finally:
                    if watch is not None:
                        watch.stop()
                reply = {"op": "result", "id": number, "value": self.encode(value),
                         "mutated": self._mutated(args, raw_args, kwargs, raw_kwargs)}
            finally:
                _alarm(None)
        except CellTimeout:
            reply = {"op": "timeout", "id": number}
        except KeyError as exc:
            if message.get("fn", {}).get("$") == "name" and exc.args == (
                    message["fn"].get("name"),):
                reply = {"op": "missing", "id": number}
            else:
                reply = {"op": "raised", "id": number, "error": encode_error(exc)}
        except BaseException as exc:
            reply = {"op": "raised", "id": number, "error": encode_error(exc)}
        if mark is not None:
            ran, tampered = watch.since(mark)
            reply.update(ran=ran[:100], tampered=tampered[:10])
        return reply

    def _mutated(self, args: list, raw_args: list, kwargs: dict, raw_kwargs: dict) -> list:
        """The arguments the call changed in place, as they are now."""
        changed = []
        for i, (value, raw) in enumerate(zip(args, raw_args, strict=False)):
            if isinstance(value, list | dict | set) and self.encode(value) != raw:
                changed.append(["arg", i, self.encode(value)])
        for name, value in kwargs.items():
            if isinstance(value, list | dict | set) and self.encode(value) != raw_kwargs[name]:
                changed.append(["kw", name, self.encode(value)])
        return changed


def _quiet() -> None:
    """stdin from /dev/null; stdout and stderr to /dev/null (what the learner prints)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def main(argv: list[str]) -> int:
    """Run the cells, report, then serve calls."""
    read_fd, write_fd = int(argv[0]), int(argv[1])
    _quiet()
    channel = Channel(read_fd, write_fd)
    runner = Runner(channel)
    channel.send({"op": "hello", "python": sys.version.split()[0]})
    start = channel.receive()
    runner.start_watch(start.get("watch") or [])
    runner.run_cells(start.get("cells", []), float(start.get("timeout", 30)))
    channel.send({"op": "ready", "names": runner.describe_names(start.get("names", []))})
    runner.serve()
    return 0


if __name__ == "__main__":
    os._exit(main(sys.argv[1:]))
