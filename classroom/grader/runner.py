"""Inside the sandbox: run a notebook's cells, then answer the grader's calls.

    python -P -m <private package>.grader.runner READ_FD WRITE_FD   (started by sandbox.py)

The grader sends the code cells; each runs in an IPython shell (magics and display work
as in Jupyter) under a time limit, and the runner reports how it ended. Then the runner
serves calls: "call the learner's `find_split` with these arguments" (plain data, see
wire.py), answering with the result as data, the error it raised, or a timeout. A
function or object the grader lends (a tool, the model's client) becomes a callable here
that calls back. The learner's output goes nowhere: stdout and stderr are /dev/null.

What the notebook finds here (classroom/grade.py builds it): a copy of the agent and the
kit in which the course's own code for what the assignment asks is withheld (stubs,
classroom/grader/withhold.py), a stand-in that is only a door to the grader's model
(remote_standin.py), and of the classroom only `check` (which checks nothing) and the
stubs' helper (classroom/withheld.py). Through that door the grader answers the notebook's
own clients and the few pure functions its cells may use (`served`) while the cells run,
and refuses them once the checks start. The runner's own modules (this one, the channel,
the wire, the watch) are loaded from a private folder that it takes off `sys.path` and
out of `sys.modules` before the first cell: a notebook cannot import them.

The checks' harness (classroom/harness.py: a simulated crash around the learner's write,
the learner's pipeline run) is the grader's: its source comes with the cells, is run
before the first cell (so its imports are the library as it was then), and its globals
are restored before every use; a notebook that rebinds `classroom.harness` changes nothing.

Exercises whose code cannot be withheld (`own_work(..., cells="watched")`) are watched
instead (classroom/ownwork.py): each answer carries what the watch saw ("ran",
"tampered"), an audit hook reports at once what could blind it, and the grader treats an
answer without the report as a failure. Nothing here decides a grade: the grader does.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import signal
import sys
import threading
import time
import types
from typing import Any

from ..ownwork import Watch
from .channel import Channel
from .wire import Codec, WireError, decode_error, describe_callable, encode_error, signature_of

REACHABLE = ("agentlib", "coursekit", "apiwire", "standin")
"""What a check may name for the learner's process to build or run (`portable`,
`in_learner_process`) besides the harness: the agent and the kit, never a check."""
HARNESS = "classroom.harness"
ALARMS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents",
                    "sys._current_frames", "ctypes.dlopen", "ctypes.dlsym", "ctypes.cdata",
                    "ctypes.addressof", "sys.monitoring.register_callback"})
FRAMES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "f_globals",
                    "f_locals"})
"""Audit events that reach the runner's or the watch's objects: reported when seen, in a
notebook whose exercises are watched (switching tracing off is the watch's own guard's)."""


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


class Harness:
    """The checks' harness, from the grader's source: run once before the first cell, its
    globals put back as they were before every use. State: its globals, their first state."""

    def __init__(self, source: str) -> None:
        module = types.ModuleType(HARNESS)
        self.globals: dict = module.__dict__
        if source:
            sys.modules[HARNESS] = module  # while it runs (dataclasses look their module up)
            try:
                exec(compile(source, "<the grader's harness>", "exec"), self.globals)  # noqa: S102
            finally:
                sys.modules.pop(HARNESS, None)
        self._first = dict(self.globals)

    def get(self, qualname: str) -> Any:
        self.globals.clear()
        self.globals.update(self._first)
        obj: Any = self._first[qualname.split(".")[0]]
        for part in qualname.split(".")[1:]:
            obj = getattr(obj, part)
        return obj


class Runner(Codec):
    """The sandbox's side of the wire: the learner's namespace, and the grader's lendings."""

    def __init__(self, channel: Channel) -> None:
        super().__init__()
        self.channel = channel
        self.namespace: dict = {}
        self.watch: Any = None
        self.harness = Harness("")
        self._asked = 0
        self._wire = threading.Lock()  # one question on the wire at a time, whichever thread

    def start_watch(self, specs: list) -> None:
        """Watch the declared code from before the first cell."""
        specs = [s for s in specs if isinstance(s, str)]
        if specs:
            self.watch = Watch(specs)
            self.watch.guard()
            self.watch.watch_threads()
            self._alarm_hook()

    def _alarm_hook(self) -> None:
        """An audit hook (permanent) that tells the grader at once when the notebook
        reaches for frames, the collector's lists, tracing or ctypes: what it would take to
        find and blind the watch. It writes straight to the channel, before the notebook
        gets what it asked for."""
        write, fd, dumps = os.write, self.channel.write_fd, json.dumps
        said: set = set()

        def hook(event: str, args: tuple) -> None:
            if event == "object.__getattr__":
                if len(args) < 2 or args[1] not in FRAMES:
                    return
                event = f"read a frame ({args[1]})"
            elif event not in ALARMS:
                return
            if event in said or len(said) > 20:
                return
            said.add(event)
            try:
                write(fd, (dumps({"op": "alarm", "what": event}) + "\n").encode())
            except OSError:
                pass

        sys.addaudithook(hook)

    # ---------------------------------------------------------------- asking the grader
    def ask(self, message: dict) -> dict:
        """Ask the grader (the course model, a served function) and wait for its answer;
        the cell's alarm waits too, so that an answer is never left on the wire."""
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            with self._wire:
                self._asked += 1
                number = self._asked
                self.channel.send({"op": "ask", "n": number, **message})
                while True:
                    answer = self.channel.receive()
                    if answer.get("op") == "answer" and answer.get("n") == number:
                        return answer
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def serve_withheld(self, spec: str, args: tuple, kwargs: dict) -> Any:
        """A served function's value, computed by the grader (see classroom/withheld.py)."""
        answer = self.ask({"what": "served", "spec": spec, "args": self.encode(list(args)),
                           "kwargs": self.encode(dict(kwargs))})
        if "error" in answer:
            raise self._rebuilt(answer["error"])
        return self.decode(answer.get("value"))

    def _rebuilt(self, info: dict) -> BaseException:
        """The grader's exception as the course's own class where this copy has it."""
        cls = None
        try:
            cls = getattr(importlib.import_module(str(info.get("module"))), str(info.get("type")))
        except (ImportError, AttributeError, ValueError):
            pass
        if isinstance(cls, type) and issubclass(cls, Exception):
            exc = cls.__new__(cls)
            Exception.__init__(exc, str(info.get("message", "")))
            attrs = info.get("attrs")
            if isinstance(attrs, dict):
                exc.__dict__.update(attrs)
            return exc
        return decode_error(info)

    def ask_model(self, what: str, data: dict) -> dict:
        """The course model in the grader: a new model ("new") or one request ("request")."""
        answer = self.ask({"what": "model", "do": what, **data})
        if "error" in answer:
            raise decode_error(answer["error"])
        return answer

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
    def _named(self, path: str) -> Any:
        module, _, qualname = path.partition(":")
        if module == HARNESS:
            return self.harness.get(qualname)
        return _import(path)

    def decode_tag(self, kind: str, data: dict, depth: int) -> Any:
        if kind == "handle":
            return self.handles[int(data["id"])]
        if kind == "name":
            return self.namespace[str(data["name"])]
        if kind in ("lib", "harness"):
            return self._named(str(data["fn"]))
        if kind == "callback":
            return self._callback_function(int(data["id"]), data)
        if kind == "build":
            fn = self._named(str(data["fn"]))
            return fn(*self.decode(data.get("args", []), depth),
                      **self.decode(data.get("kwargs", {}), depth))
        if kind == "dataclass":
            fields = self.decode(data.get("fields", {}), depth)
            try:
                cls = self._named(str(data["cls"]))
            except (WireError, ImportError, AttributeError, KeyError):
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

        try:  # anthropic >= 2.14 ships on httpx2
            import httpx2 as httpx
        except ImportError:  # pragma: no cover
            import httpx

        from agentlib.client import OFFLINE_KEY

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
            model=meta.get("model"), context_window=meta.get("context_window"),
            unscripted=None)
        return client

    def call_back(self, cid: int, args: tuple, kwargs: dict) -> Any:
        """Call the grader's function `cid` and wait for its answer."""
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            with self._wire:
                self.channel.send({"op": "callback", "id": cid,
                                   "args": self.encode(list(args)),
                                   "kwargs": self.encode(kwargs)})
                answer = self.channel.receive()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        if "error" in answer:
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
        shell.showtraceback = shell.showsyntaxerror = lambda *a, **k: None  # nobody reads it
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
                    error["withheld"] = type(failure).__name__ == "Withheld"
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


def _unreachable(runner: Runner) -> None:
    """Take the runner's own package off sys.path and out of sys.modules, give the notebook
    a blank `__main__`, and open the door to the grader for the stubs and the stand-in."""
    package = (__package__ or __name__).split(".")[0]
    if package != "classroom":  # the grader's private copy (not the repository's, in a probe)
        folder = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != folder]
        for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[name]
    sys.modules["__main__"] = types.ModuleType("__main__")
    importlib.invalidate_caches()
    try:
        from classroom import withheld  # the kernel's copy: where the stubs ask
    except ImportError:
        return
    withheld.serve = runner.serve_withheld
    withheld.ask_model = runner.ask_model


def main(argv: list[str]) -> int:
    """Run the cells, report, then serve calls."""
    read_fd, write_fd = int(argv[0]), int(argv[1])
    _quiet()
    channel = Channel(read_fd, write_fd)
    runner = Runner(channel)
    _unreachable(runner)
    channel.send({"op": "hello", "python": sys.version.split()[0], "pid": os.getpid()})
    start = channel.receive()
    runner.harness = Harness(str(start.get("harness") or ""))
    runner.start_watch(start.get("watch") or [])
    runner.run_cells(start.get("cells", []), float(start.get("timeout", 30)))
    channel.send({"op": "ready", "names": runner.describe_names(start.get("names", []))})
    runner.serve()
    return 0


if __name__ == "__main__":
    os._exit(main(sys.argv[1:]))
