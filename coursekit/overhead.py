"""The stand-in's own overhead: its CPU time per request as the history grows, on each
model's rules, in process and over HTTP; and the 200-file audit's pace on each model.

`coursekit.bench.host_overhead` times the client's side of a step; this times the
server's. A request carries the whole history, so reading it costs time in proportion to
its length, but no more: the cost per message at 10,000 messages should be about what it
is at 100 (`GOALS`). The history is an audit as the course model runs it (the workload's
own files and tools), with a signed thinking block in every assistant turn on a model
that thinks between tool calls (`claude-sonnet-5-5`: bound to the conversation before it).
`bench/server_overhead.py` runs it all and checks the goals.
"""

from __future__ import annotations

import json
import multiprocessing
import queue
import sys
import tempfile
import threading
import time
from http.client import HTTPConnection

from agentlib.loop import DEFAULT_SYSTEM, cache_breakpoint
from agentlib.models import DEFAULT_MODEL, OFFLINE_MODEL, quiet_thinking
from apiwire import models
from coursekit import workloads

# The stand-in's internals are imported where they are timed: the class grader's sandbox has
# only a door to its model in place of `standin`, and this module must import there too.

MODELS = (OFFLINE_MODEL, DEFAULT_MODEL)  # notes in plain text; notes in bound thinking
SIZES = (100, 1_000, 10_000)
GOALS = {"scaling": 2.0,  # cost per message at the largest size, x the smallest
         "models": 1.5,  # the audit under append-only: the default model x the course model
         "seconds": 60.0}  # every strategy of the benchmark, on the 200-file audit
WINDOW = 100_000_000  # tokens: 10,000 messages of an audit are millions
HEADERS = {"content-type": "application/json", "anthropic-version": "2023-06-01",
           "x-api-key": "offline-course-model-no-key-needed"}


def audit_history(model: str, messages: int, root: str) -> tuple[dict, list[dict]]:
    """(the request's fields but `messages`, a history of at least `messages` messages):
    an append-only audit of enough files, each turn noting the file just read and reading
    the next, as the course model does; on `model`'s rules (its notes in a signed thinking
    block where it thinks between tool calls, as the stand-in returns them)."""
    from standin import agent, thinking

    files = max(2, messages // 2)
    w = workloads.audit(min(files, 5_000), 0, root=root)
    row = models.get(model)
    cfg = thinking.config(row, {"thinking": quiet_thinking(model)})
    system = [{"type": "text", "text": DEFAULT_SYSTEM, "cache_control": {"type": "ephemeral"}}]
    base = {"model": model, "max_tokens": 2048, "tools": w.toolbox.definitions,
            "thinking": quiet_thinking(model), "system": system}
    history = [{"role": "user", "content": [{"type": "text", "text": w.task}]}]
    prefixes = thinking.Prefixes(w.toolbox.definitions, system, history)  # reads the list as it grows
    listing = w.workspace.list_files()
    paths = [line.split("  (")[0] for line in listing.splitlines()]
    said, calls = "I'll start by listing the files.", [("list_files", {})]
    while len(history) < messages:
        k = len(history) // 2  # this turn reads paths[k - 1]; past the last, from the first
        notes = thinking.block(row, cfg, said, prefixes) if cfg else \
            {"type": "text", "text": said}
        uses = [{"type": "tool_use", "id": f"toolu_{k:06d}_{n}", "name": name, "input": args}
                for n, (name, args) in enumerate(calls)]
        reply = {"role": "assistant", "content": [notes, *uses]}
        history += [reply, w.toolbox.run_all(reply)]
        path, n = paths[k % len(paths)], len(paths)
        said = (f"Noted [{(k - 1) % n + 1}/{n}] {paths[(k - 1) % n]}: read\nNext: {path}." if k
                else f"{agent.plan(paths)}\nNext: {path}.")
        calls = [("read_file", {"path": path})]
    return base, history


def _body(base: dict, history: list[dict]) -> bytes:
    return json.dumps({**base, "messages": cache_breakpoint(history)}).encode("utf-8")


def in_process() -> tuple:
    """(send, close): send a body to a fresh stand-in in this thread; the CPU it took."""
    from standin.server import CourseModel

    server = CourseModel(context_window=WINDOW)

    def send(body: bytes) -> float:
        start = time.thread_time()
        status, _, out = server.handle("POST", "/v1/messages", HEADERS, body)
        spent = time.thread_time() - start
        if status != 200:
            raise RuntimeError(f"the stand-in answered {status}: {out[:300]!r}")
        return spent
    return send, lambda: None


def over_http() -> tuple:
    """(send, close): send a body over HTTP to a fresh stand-in served from a thread
    (`standin.http`); the CPU its thread took to read, answer and write."""
    from standin.http import Handler, StandinServer
    from standin.server import CourseModel

    class TimedHandler(Handler):
        """The server's handler, with the CPU time of each request it handles (its thread's)."""

        def handle_one_request(self) -> None:
            start = time.thread_time()
            super().handle_one_request()
            self.server.cpu.put(time.thread_time() - start)

    server = StandinServer(CourseModel(context_window=WINDOW))
    server.RequestHandlerClass = TimedHandler
    server.cpu = queue.Queue()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    conn = HTTPConnection("127.0.0.1", server.server_port, timeout=600)

    def send(body: bytes) -> float:
        conn.request("POST", "/v1/messages", body, HEADERS)
        response = conn.getresponse()
        out = response.read()
        if response.status != 200:
            raise RuntimeError(f"the stand-in answered {response.status}: {out[:300]!r}")
        return server.cpu.get(timeout=600)

    def close() -> None:
        conn.close()
        server.shutdown()
        server.server_close()
    return send, close


def per_message(base: dict, history: list[dict], sizes, connect=in_process, steps: int = 5,
                rounds: int = 2) -> dict[int, float]:
    """CPU seconds per message of history for a request at each size (the history cut to
    it, ending on the tool result the model answers): a fresh server, warmed on the run
    so far, then `steps` requests, each two messages longer, as a run makes them; the
    median step, the best round."""
    out = {}
    for n in sizes:
        end = n + 1 - n % 2  # odd: the task, then whole turns, then the model's turn
        if end > len(history):
            raise ValueError(f"the history has {len(history)} messages, not {end}")
        best = float("inf")
        for _ in range(rounds):
            send, close = connect()
            try:
                send(_body(base, history[:end - 2 * steps]))
                times = sorted(send(_body(base, history[:k])) / k
                               for k in range(end - 2 * steps + 2, end + 1, 2))
            finally:
                close()
            best = min(best, times[len(times) // 2])
        out[n] = best
    return out


def server_overhead(sizes=SIZES, model_names=MODELS, steps: int = 5, rounds: int = 2
                    ) -> dict[tuple[str, str], dict[int, float]]:
    """{(model, "in process" or "HTTP"): {size: CPU seconds per message}}, side by side."""
    out = {}
    for model in model_names:
        with tempfile.TemporaryDirectory(prefix="standin-overhead-") as root:
            base, history = audit_history(model, max(sizes) + 1, root)
        for how, connect in (("in process", in_process), ("HTTP", over_http)):
            out[model, how] = per_message(base, history, sizes, connect, steps, rounds)
    return out


def _timed_measure(job: tuple) -> dict:
    """One strategy on one model (`coursekit.bench.measure`), in a process of its own (so
    nothing is remembered from another run): its row, CPU seconds and wall seconds."""
    from coursekit import bench

    model, strategy, workload, size = job
    wall, cpu = time.perf_counter(), time.process_time()
    row = bench.measure(workload, size, strategy, model=model)
    return {**row, "model": model, "cpu_s": time.process_time() - cpu,
            "wall_s": time.perf_counter() - wall}


def audit_pace(strategy_names, model_names=MODELS, jobs: int = 2, workload: str = "audit",
               size: str = "large") -> list[dict]:
    """Every strategy on the 200-file audit on each model: rows of `coursekit.bench.measure`
    with the model, CPU and wall seconds; one fresh process per run, `jobs` at a time."""
    todo = [(m, s, workload, size) for m in model_names for s in strategy_names]
    rows = []
    with multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=1) as pool:
        for done, row in enumerate(pool.imap(_timed_measure, todo, chunksize=1), 1):
            rows.append(row)
            print(f"[{done}/{len(todo)}] {row['model']}, {row['strategy']}: {row['cpu_s']:.1f} s "
                  f"CPU, {row['model_calls']} calls", file=sys.stderr, flush=True)
    return rows
