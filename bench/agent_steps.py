"""Benchmark: does the cost of one agent step grow with the history?

Runs a ~500-step append-only audit offline and times each step (SDK, offline model and
tools together). The request JSON necessarily grows with the history, so we also time
serializing it and report the per-step time with and without that part, at steps 50 and
500, as ratios measured in the same run.

    python bench/agent_steps.py [n_files]
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import coursekit
from agentlib.loop import run_agent
from coursekit import workloads


class Clock:
    """A no-op strategy that stamps the time at every step and times the JSON of the request."""

    event = None

    def __init__(self):
        self.stamps: list[float] = []
        self.json_s: list[float] = []

    def __call__(self, messages):
        t = time.perf_counter()
        json.dumps(messages)
        self.json_s.append(time.perf_counter() - t)
        self.stamps.append(time.perf_counter())
        return messages


def around(values, i, width=5):
    return statistics.median(values[max(0, i - width): i + width])


def main(n_files: int = 500) -> int:
    client = coursekit.connect(offline=True, context_window=2_000_000)
    clock = Clock()
    t0 = time.perf_counter()
    run = run_agent(client, workloads.audit(n_files), context=[clock], max_steps=n_files + 10,
                    max_tokens=8192)
    wall = time.perf_counter() - t0
    step_s = [b - a for a, b in zip(clock.stamps, clock.stamps[1:], strict=False)]
    n = len(step_s)
    early, late = 50, n - 5
    t50, tlate = around(step_s, early), around(step_s, late)
    j50, jlate = around(clock.json_s, early), around(clock.json_s, late)
    print(f"run: {run}")
    print(f"steps: {run.calls}, messages at the end: {len(run.history)}, wall {wall:.1f} s")
    print(f"time per step at step {early}: {t50 * 1e3:.2f} ms; at step {late}: "
          f"{tlate * 1e3:.2f} ms; ratio {tlate / t50:.2f}")
    print(f"of which one json.dumps of the history: {j50 * 1e3:.2f} ms vs {jlate * 1e3:.2f} ms")
    rest50, restlate = t50 - j50, tlate - jlate
    print(f"request JSON grows {jlate / j50:.1f}x; SDK + model + tools, per unit of JSON: "
          f"ratio {(tlate / jlate) / (t50 / j50):.2f} (near or below 1 means no extra growth)")
    print(f"per step beyond one JSON serialization: {rest50 * 1e3:.2f} ms vs "
          f"{restlate * 1e3:.2f} ms")
    return 0 if run.score.success else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
