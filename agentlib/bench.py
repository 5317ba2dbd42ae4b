"""The strategy benchmark: every strategy on every workload, measured side by side.

    python -m agentlib.bench [--sizes small large] [--out bench/results]

Runs offline (the course model) and writes `results.csv`, `results.md` and plots. Every
number is also given as a ratio to append-only measured in the same run; costs use the
prices of the model catalog (`agentlib.models`), with prompt caching on (a fresh cache per run).
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import models, tokens, workloads
from .client import connect
from .context import NOTES_RULES, Clearing, Compactor, Notes, SlidingWindow, cap
from .derived import Derived
from .histories import agent_history
from .loop import DEFAULT_SYSTEM, Run, apply_context, run_agent
from .tools import Toolbox

_P = models.prices(models.OFFLINE_MODEL)  # the course model is priced as the current Sonnet
PRICES = {  # USD per million tokens, from the catalog (agentlib/models.py, checked 2026-11-30)
    "as_of": "2026-11", "model": models.DEFAULT_MODEL, "input": _P.input, "output": _P.output,
    "cache_write": _P.cache_write_5m,  # 1.25x input
    "cache_read": _P.cache_read,
}
UNLIMITED = 10_000_000
BEST = "cap+clear+compact"  # lesson 7's best pipeline; lesson 8 compares sub-agents with it
SUMMARY_MAX = 8_192  # room for a structured summary of hundreds of noted findings

SIZES = {  # workload sizes, the window the strategies get, and their triggers
    "small": {"audit": 12, "needle": 400, "constraints": 8, "window": 8_000,
              "clear_at": 4_000, "compact_at": 5_000, "cap_chars": 1_500, "keep": 12},
    "large": {"audit": 200, "needle": 2_000, "constraints": 12, "window": 64_000,
              "clear_at": 12_000, "compact_at": 20_000, "cap_chars": 1_500, "keep": 40},
}


@dataclass
class Setup:
    """How one strategy runs: context strategies, tools, request extras."""

    context: list = field(default_factory=list)
    wrap: Callable | None = None  # turns the workload's toolbox into the one offered
    system: str = DEFAULT_SYSTEM
    extra: dict | None = None
    extra_tools: Toolbox | None = None


def _capped(chars: int) -> Callable:
    def wrap(w: workloads.Workload) -> Toolbox:
        if w.workspace is None:
            return w.toolbox
        ws = w.workspace
        return Toolbox([ws.list_files, cap(ws.read_file, max_chars=chars), ws.search])
    return wrap


def strategies(size: dict, client, notes_dir: str) -> dict[str, Setup]:
    """The strategies compared, layered in the order to adopt them; `client` is the one the
    run will use (a compactor's summary calls go to the same model)."""
    clear = {"type": "clear_tool_uses_20250919",
             "trigger": {"type": "input_tokens", "value": size["clear_at"]},
             "keep": {"type": "tool_uses", "value": 3}}
    compact = {"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}}
    capped = _capped(size["cap_chars"])
    return {
        "append-only": Setup(),
        "truncate": Setup([SlidingWindow(size["keep"])]),
        "cap": Setup(wrap=capped),
        "cap+clear": Setup([Clearing(3, trigger=size["clear_at"])], wrap=capped),
        "cap+clear+compact": Setup([Clearing(3, trigger=size["clear_at"]),
                                    Compactor(client, size["compact_at"], keep=6,
                                              summary_max_tokens=SUMMARY_MAX)],
                                   wrap=capped),
        "all+notes": Setup([Clearing(3, trigger=size["clear_at"]),
                            Compactor(client, size["compact_at"], keep=6,
                                      summary_max_tokens=SUMMARY_MAX)],
                           wrap=capped, system=DEFAULT_SYSTEM + " " + NOTES_RULES,
                           extra_tools=Notes(notes_dir).toolbox()),
        "server clear": Setup(extra={"betas": ["context-management-2025-06-27"],
                                     "context_management": {"edits": [clear]}}),
        "server compact": Setup(extra={"betas": ["compact-2026-01-12"],
                                       "context_management": {"edits": [compact]}}),
    }


def window_for(strategy: str, size: dict) -> int:
    """The window a strategy runs in: the size's, but unlimited for append-only (the
    baseline) and at least 64,000 for server compaction (its trigger cannot go below 50,000)."""
    if strategy == "append-only":
        return UNLIMITED
    return max(size["window"], 64_000) if strategy == "server compact" else size["window"]


def cost(run: Run, summary_tokens: tuple[int, int] = (0, 0), cached: bool = True) -> float:
    """Dollars for a run's calls (and its summarizer calls) at PRICES."""
    p, total = PRICES, 0.0
    for s in run.steps:
        if cached:
            fresh = s.input_tokens - s.cache_read - s.cache_write
            total += fresh * p["input"] + s.cache_write * p["cache_write"] \
                + s.cache_read * p["cache_read"]
        else:
            total += s.input_tokens * p["input"]
        total += s.output_tokens * p["output"]
    total += summary_tokens[0] * p["input"] + summary_tokens[1] * p["output"]
    return total / 1e6


def measure(workload_name: str, size_name: str, strategy: str) -> dict:
    """One run, in a fresh offline model (so nothing is cached from another run)."""
    size = SIZES[size_name]
    n = size[workload_name]
    w = getattr(workloads, workload_name)(n)
    client = connect(offline=True, context_window=window_for(strategy, size))
    with tempfile.TemporaryDirectory(prefix="agentlib-bench-") as notes_dir:
        setup = strategies(size, client, notes_dir)[strategy]
        if setup.wrap:
            w.toolbox = setup.wrap(w)
        steps = 4 * n + 40 if workload_name == "audit" else 200
        run = run_agent(client, w, context=setup.context, system=setup.system,
                        extra=setup.extra, extra_tools=setup.extra_tools, max_steps=steps,
                        max_tokens=1024 if workload_name != "audit" or n < 100 else 2048,
                        cache=True, label=strategy)
    compactors = [s for s in setup.context if isinstance(s, Compactor)]
    summaries = [c for comp in compactors for c in comp.compactions]
    summary_tokens = (sum(c.summary_input_tokens for c in summaries)
                      + sum(s.compaction_tokens[0] for s in run.steps),
                      sum(c.summary_output_tokens for c in summaries)
                      + sum(s.compaction_tokens[1] for s in run.steps))
    server_compactions = sum(1 for m in run.history if m["role"] == "assistant"
                             for b in m["content"] if b.get("type") == "compaction")
    score = run.score
    return {
        "workload": workload_name, "size": size_name, "n": n, "strategy": strategy,
        "success": int(bool(score.success)),
        "recall": "" if score.recall is None else round(score.recall, 3),
        "constraint_kept": "" if score.constraint_kept is None else int(score.constraint_kept),
        "stopped": run.stopped.split(":")[0],
        "model_calls": run.calls,
        "summarizer_calls": sum(len(c.compactions) + c.failures for c in compactors)
        + server_compactions,
        "input_tokens": run.total_input_tokens + summary_tokens[0],
        "peak_window": run.peak_input_tokens,
        "cost_usd": round(cost(run, summary_tokens), 4),
        "cost_no_cache_usd": round(cost(run, summary_tokens, cached=False), 4),
    }


RATIO_OF = ("model_calls", "input_tokens", "peak_window", "cost_usd")


def add_ratios(rows: list[dict]) -> list[dict]:
    """Each metric as a ratio to append-only on the same workload and size."""
    base = {(r["workload"], r["size"]): r for r in rows if r["strategy"] == "append-only"}
    for r in rows:
        b = base.get((r["workload"], r["size"]))
        for k in RATIO_OF:
            r[f"{k}_ratio"] = round(r[k] / b[k], 3) if b and b[k] else ""
    return rows


def host_overhead(sizes=(100, 1_000, 10_000), steps: int = 30,
                  rounds: int = 3) -> dict[int, float]:
    """CPU seconds per step of the host's own work (context pipeline and token accounting,
    not the model) when the history holds each of `sizes` messages: the median step of
    each round, the best round, so that a busy machine disturbs the ratio as little as it
    can. The history is synthetic (`agentlib.histories`) and checked to reach every size."""
    history = Derived(agent_history("host-overhead", max(sizes) // 2 + 1, parallel=1, lines=(0, 10),
                            answer=0, text_rate=0, error_rate=0))
    if len(history) < max(sizes):
        raise RuntimeError(f"the history has {len(history)} messages, fewer than {max(sizes)}")
    client = connect(offline=True, context_window=UNLIMITED)  # the compactor never calls it
    out = {}
    for n in sizes:
        best = float("inf")
        for _ in range(rounds):
            # a trigger that every size is over, so every step does the same work: it clears
            context = [Clearing(3, trigger=1_000), Compactor(client, trigger=UNLIMITED)]
            estimate = tokens.Running(tokens.estimate)
            start_at = n - 2 * steps - 1  # odd: the task, then whole request/response pairs
            kept = apply_context(context, history[:start_at])[0]  # a warm pipeline
            times = []
            for k in range(start_at, n - 1, 2):  # the loop appends a reply and its results
                kept = Derived(kept, history[k:k + 2])  # as the loop does
                start = time.process_time()  # CPU time: other processes disturb it less
                kept, _ = apply_context(context, kept)
                estimate.of(kept)
                times.append(time.process_time() - start)
            if len(kept) < n - 1:
                raise RuntimeError(f"the pipeline kept {len(kept)} messages, not about {n}")
            best = min(best, sorted(times)[len(times) // 2])
        out[n] = best
    return out


def markdown(rows: list[dict], columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(f"{r[c]:,}" if isinstance(r[c], int) and c != "n"
                                         else str(r[c]) for c in columns) + " |")
    return "\n".join(lines)


TABLE = ["workload", "size", "n", "strategy", "success", "stopped", "recall", "constraint_kept",
         "model_calls", "summarizer_calls", "input_tokens", "peak_window", "cost_usd",
         "input_tokens_ratio", "peak_window_ratio", "cost_usd_ratio"]


def plots(rows: list[dict], out: Path) -> list[Path]:
    """One grouped bar chart per workload and size: the main metrics against append-only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .viz import plot_bars

    saved = []
    for key in sorted({(r["workload"], r["size"]) for r in rows}):
        table = {r["strategy"]: {"success": r["success"],
                                 "input tokens (x append-only)": r["input_tokens_ratio"] or 0,
                                 "peak window (x append-only)": r["peak_window_ratio"] or 0,
                                 "cost (x append-only)": r["cost_usd_ratio"] or 0}
                 for r in rows if (r["workload"], r["size"]) == key}
        fig = plot_bars(table, list(next(iter(table.values()))),
                        title=f"{key[0]} ({key[1]})")
        path = out / f"{key[0]}-{key[1]}.png"
        fig.savefig(path, dpi=90, bbox_inches="tight")
        plt.close(fig)
        saved.append(path)
    return saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", default=["small", "large"], choices=list(SIZES))
    ap.add_argument("--workloads", nargs="+", default=["audit", "needle", "constraints"])
    ap.add_argument("--strategies", nargs="+", default=None)
    ap.add_argument("--out", default="bench/results")
    args = ap.parse_args(argv)
    names = args.strategies or list(strategies(SIZES["small"], None, "."))
    jobs = [(w, s, k) for s in args.sizes for w in args.workloads for k in names
            if not (k == "server compact" and s == "small")]  # its 50,000 floor is not met
    rows = []
    for i, (w, s, k) in enumerate(jobs, 1):
        print(f"\r[{i}/{len(jobs)}] {w} ({s}): {k}".ljust(60), end="", file=sys.stderr,
              flush=True)
        rows.append(measure(w, s, k))
    print(file=sys.stderr)
    rows = add_ratios(rows)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "results.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    overhead = host_overhead()
    ratios = {n: overhead[n] / overhead[100] for n in overhead if n != 100}
    ratio = max(ratios.values())
    report = [f"# Strategy benchmark (offline course model; {PRICES['model']} prices as of "
              f"{PRICES['as_of']}, USD per million tokens: "
              f"input {PRICES['input']}, output {PRICES['output']}, cache write "
              f"{PRICES['cache_write']}, cache read {PRICES['cache_read']})", "",
              markdown(rows, TABLE), "",
              "Host overhead per step (context pipeline + token accounting, no model), "
              "measured side by side in this run: "
              + ", ".join(f"{n:,} messages vs 100 = {r:.2f}x" for n, r in ratios.items())
              + " (each must stay at or below 2).", ""]
    (out / "results.md").write_text("\n".join(report), encoding="utf-8")
    plots(rows, out)
    print("\n".join(report))
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
