"""Benchmark: the stand-in's own overhead, on both models' rules, as ratios in one run.

1. CPU time per request with 100, 1,000 and 10,000 messages of history, per message, in
   process and over HTTP (`coursekit.overhead.server_overhead`), on course-model-1 and on
   claude-sonnet-5-5's rules (a signed thinking block in every assistant turn): the cost
   per message at 10,000 must stay within 2x of that at 100.
2. Every strategy of `coursekit.bench` on the 200-file audit, on both models, each in a
   fresh process, two at a time (`audit_pace`): seconds and calls. Append-only on
   claude-sonnet-5-5 must stay within 1.5x of course-model-1's CPU time, and every run
   under a minute of CPU time (its wall time is shown beside it).

    python bench/server_overhead.py [--sizes 100 1000 10000] [--strategies ...|none] [--jobs 2]

Exits 1 when a goal is missed. CPU time, not wall time, decides: other processes on a
shared machine disturb it less.
"""

from __future__ import annotations

import argparse
import sys
import time

from coursekit import bench
from coursekit.overhead import GOALS, MODELS, SIZES, audit_pace, server_overhead


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=list(SIZES))
    ap.add_argument("--strategies", nargs="+", default=None,
                    help="strategies of coursekit.bench to run on the audit (default: all; "
                         "'none': skip the audit)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    failed = []
    sizes = sorted(args.sizes)
    print("## The stand-in's CPU time per request, per message of history "
          "(the smallest size = 1.00)\n")
    print("| model | transport | " + " | ".join(f"{n:,} messages" for n in sizes)
          + f" | {sizes[-1]:,} vs {sizes[0]:,} |")
    print("|---|---|" + "---|" * (len(sizes) + 1))
    overhead = server_overhead(sizes)
    for (model, how), cost in overhead.items():
        ratio = cost[sizes[-1]] / cost[sizes[0]]
        print(f"| {model} | {how} | " + " | ".join(f"{cost[n] * 1e6:.1f} µs" for n in sizes)
              + f" | {ratio:.2f}x |")
        if ratio > GOALS["scaling"]:
            failed.append(f"{model} ({how}): the cost per message at {sizes[-1]:,} messages "
                          f"is {ratio:.2f}x that at {sizes[0]:,} (goal: {GOALS['scaling']}x)")
    for how in ("in process", "HTTP"):
        a, b = overhead[MODELS[0], how], overhead[MODELS[1], how]
        print(f"\n{MODELS[1]} vs {MODELS[0]} ({how}): "
              + ", ".join(f"{b[n] / a[n]:.2f}x at {n:,}" for n in sizes), end="")
    a, b = overhead[MODELS[0], "in process"], overhead[MODELS[0], "HTTP"]
    print(f"\nHTTP vs in process ({MODELS[0]}): "
          + ", ".join(f"{b[n] / a[n]:.2f}x at {n:,}" for n in sizes) + "\n")

    names = list(bench.strategies(bench.SIZES["small"], None, "."))
    chosen = args.strategies or names
    if chosen != ["none"]:
        unknown = set(chosen) - set(names)
        if unknown:
            ap.error(f"unknown strategies: {', '.join(sorted(unknown))}")
        rows = audit_pace(chosen, jobs=args.jobs)
        by = {(r["model"], r["strategy"]): r for r in rows}
        print("## The 200-file audit, each strategy on each model (CPU seconds, wall "
              "seconds, model calls, how it stopped)\n")
        print("| strategy | " + " | ".join(MODELS) + " |")
        print("|---|" + "---|" * len(MODELS))
        for name in chosen:
            cells = [by[m, name] for m in MODELS]
            print(f"| {name} | " + " | ".join(
                f"{r['cpu_s']:.1f} s CPU ({r['wall_s']:.1f} s), {r['model_calls']} calls, "
                f"{r['stopped']}" for r in cells) + " |")
        slow = [r for r in rows if r["cpu_s"] > GOALS["seconds"]]
        failed += [f"{r['strategy']} on {r['model']}: {r['cpu_s']:.0f} s CPU (goal: under "
                   f"{GOALS['seconds']:.0f} s)" for r in slow]
        if "append-only" in chosen:
            ratio = by[MODELS[1], "append-only"]["cpu_s"] / by[MODELS[0], "append-only"]["cpu_s"]
            print(f"\nappend-only, {MODELS[1]} vs {MODELS[0]}: {ratio:.2f}x "
                  f"(goal: {GOALS['models']}x at most)")
            if ratio > GOALS["models"]:
                failed.append(f"append-only: {MODELS[1]} takes {ratio:.2f}x {MODELS[0]}'s "
                              f"CPU time (goal: {GOALS['models']}x)")
    print(f"\n{'all goals met' if not failed else 'goals missed:'}")
    for line in failed:
        print(f"- {line}")
    print(f"in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
