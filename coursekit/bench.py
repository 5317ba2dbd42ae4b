"""The strategy benchmark: every strategy on every workload, measured side by side.

    python -m coursekit.bench [--sizes small large] [--models ...] [--held-out random|SEED ...]
                              [--out bench/results]

Runs offline on both model behaviours the stand-in has (`MODELS`): the course model,
whose notes between tool calls are plain text, and the README's default live model's
semantics (claude-sonnet-5-5: its notes are thinking blocks bound to the conversation
before them, its cache minimum and prices). Writes `results.csv` (a `model` column),
`results.md` (one table per model) and plots. Every number is also given as a ratio to
append-only measured in the same run on the same model; costs are the bill of each run's
trace (`agentlib.cost`) at the prices of the model catalog, with prompt caching on (a fresh
cache per run), with each run's ratio to its own floor (`agentlib.cost.floor`, which keeps
more on a model that binds thinking), its bill by kind of token and the files it read again. Held-out audits, of a seed and size drawn when the benchmark runs or of the
seeds given (the strategies were not tuned on them), check that the best pipelines carry
over. The bars the course promises (`BARS`) are checked at the end: a regression
fails the command.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from agentlib import models, tokens
from agentlib.context import NOTES_RULES, Clearing, Compactor, Notes, SlidingWindow, cap
from agentlib.context.batch import BatchClearing
from agentlib.context.breakpoints import Breakpoints
from agentlib.context.lowwater import LowWaterCompactor
from agentlib.context.records import DropRecords
from agentlib.context.textfold import FoldTexts
from agentlib.cost import bill, floor, floor_tokens, summary_tokens
from agentlib.cost import (
    cost as cost,  # the course's one price function (agentlib.cost), kept here too
)
from agentlib.derived import Derived
from agentlib.loop import DEFAULT_SYSTEM, apply_context, run_agent
from agentlib.tools import Toolbox
from coursekit import connect, workloads
from coursekit.histories import agent_history

_P = models.prices(models.OFFLINE_MODEL)  # the course model is priced as the current Sonnet
PRICES = {  # USD per million tokens, from the catalog (agentlib/models.py, checked 2026-11-30)
    "as_of": "2026-11", "model": models.DEFAULT_MODEL, "input": _P.input, "output": _P.output,
    "cache_write": _P.cache_write_5m,  # 1.25x input
    "cache_write_1h": _P.cache_write_1h,  # 2x input
    "cache_read": _P.cache_read,
}
MODELS = (models.OFFLINE_MODEL, models.DEFAULT_MODEL)  # notes in text; notes in bound thinking
UNLIMITED = 10_000_000
BEST = "cache-aware"  # lesson 7's best pipeline; lesson 8 compares sub-agents with it
RECORDS = "records"  # call records dropped once read: the floor's shape (context/records.py)
SUMMARY_MAX = 16_384  # room for a structured summary of the findings of 500 files

def _results() -> Path:
    """The course's `bench/results/`: beside the package when it is installed from the
    course folder (editable), else in the course folder a notebook runs in (lessons/ or
    lessons/ko/, as on a hub where agentlib is installed into a shared environment)."""
    here = Path(__file__).resolve().parent.parent / "bench" / "results"
    for folder in (here, *(p / "bench" / "results" for p in Path.cwd().resolve().parents)):
        if (folder / "results.csv").is_file():
            return folder
    return here


RESULTS = _results()
"""Where the saved benchmark lives, wherever a notebook runs."""

SIZES = {  # workload sizes, the window the strategies get, and their triggers
    "small": {"audit": 12, "needle": 400, "constraints": 8, "window": 8_000,
              "clear_at": 4_000, "compact_at": 5_000, "fold_at": 4_000, "cap_chars": 1_500,
              "keep": 12},
    "large": {"audit": 200, "needle": 2_000, "constraints": 12, "window": 64_000,
              "clear_at": 12_000, "compact_at": 20_000, "fold_at": 12_000, "cap_chars": 1_500,
              "keep": 40, "text_fold_at": 7_000},
}
HELD_OUT = (150, 300)  # the held-out audit's number of files is drawn from this range
HELD_OUT_STRATEGIES = ("append-only", "cap+clear+compact", "cap+clear+compact+bp", BEST, RECORDS)
BARS = {  # what the course promises, checked on every run (`check_bars`)
    "audit-large": {"cost": 0.50, "peak": 0.10, "input": 0.15},  # BEST, x append-only
    "needle-large": {"input": 2.0},  # every capped pipeline, x append-only
    "held-out": {"cost": 0.60},  # BEST on the held-out audit
    # RECORDS: within 10% of its own floor on the audit, and under 0.35x on a held-out one
    "audit-large-records": {"cost": 0.31, "peak": 0.10, "input": 0.10, "floor": 1.10},
    "held-out-records": {"cost": 0.35},
}
LIVE_BEST = "server clear+inputs+bp"  # the pipeline for the default live model (lesson 7b)
LIVE_BARS = {  # what the course promises on the default live model's semantics, LIVE_BEST:
    # x append-only, x its own floor; a cost or peak bar below the run's own floor's
    # (`floor_tokens`) is bound by it: then the run must be within "floor" of that floor
    "audit-large": {"cost": 0.25, "peak": 0.10, "floor": 1.3},
    "held-out": {"cost": 0.30},
}


@dataclass
class Setup:
    """How one strategy runs: context strategies, tools, request extras."""

    context: list = field(default_factory=list)
    wrap: Callable | None = None  # turns the workload's toolbox into the one offered
    system: str = DEFAULT_SYSTEM
    extra: dict | None = None
    extra_tools: Toolbox | None = None
    cache: bool | Callable = True  # run_agent's cache: True, or a breakpoint placer


def _capped(chars: int) -> Callable:
    def wrap(w: workloads.Workload) -> Toolbox:
        if w.workspace is None:
            return w.toolbox
        ws = w.workspace
        return Toolbox([ws.list_files, cap(ws.read_file, max_chars=chars), ws.search])
    wrap.max_chars = chars  # for a description of the set-up (lesson 7b)
    return wrap


def strategies(size: dict, client, notes_dir: str) -> dict[str, Setup]:
    """The strategies compared, layered in the order to adopt them, then the cache-aware
    ones (each idea alone on the lesson-5 pipeline, then combined), then the API's own;
    `client` is the one the run will use (a compactor's summary calls go to the same model).
    `size` needs window, cap_chars, clear_at, compact_at and keep (`fold_at`, the
    cache-aware compaction trigger, defaults to compact_at)."""
    clear_at, compact_at = size["clear_at"], size["compact_at"]
    fold_at = size.get("fold_at", compact_at)
    clear = {"type": "clear_tool_uses_20250919",
             "trigger": {"type": "input_tokens", "value": clear_at},
             "keep": {"type": "tool_uses", "value": 3}}
    compact = {"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}}
    capped = _capped(size["cap_chars"])

    def batch():  # over clear_at, down to a third of it, at least a quarter of it at once
        return BatchClearing(3, trigger=clear_at, down_to=clear_at // 3,
                             clear_at_least=clear_at // 4)

    def best():  # fold again only once a fold would free a trigger's worth since the last
        return [Clearing(1), compactor(fold_at, keep=4, at_least=fold_at)]

    def records():  # call records dropped once read, breakpoints after the texts, a fold
        drop = DropRecords(1)  # only when it frees a trigger's worth, never of the task and
        text_at = size.get("text_fold_at", fold_at)  # the plan (the first 3 messages)
        fold = FoldTexts(client, text_at, at_least=text_at, pin=3, keep=4,
                         summary_max_tokens=SUMMARY_MAX)
        return Setup([drop, fold], wrap=capped, cache=drop.mark)

    def compactor(trigger=compact_at, keep=6, at_least=None):
        if at_least is None:
            return Compactor(client, trigger, keep=keep, summary_max_tokens=SUMMARY_MAX)
        return LowWaterCompactor(client, trigger, at_least=at_least, keep=keep,
                                 summary_max_tokens=SUMMARY_MAX)

    return {
        "append-only": Setup(),
        "truncate": Setup([SlidingWindow(size["keep"])]),
        "cap": Setup(wrap=capped),
        "cap+clear": Setup([Clearing(3, trigger=clear_at)], wrap=capped),
        "cap+clear+compact": Setup([Clearing(3, trigger=clear_at), compactor()], wrap=capped),
        "all+notes": Setup([Clearing(3, trigger=clear_at), compactor()],
                           wrap=capped, system=DEFAULT_SYSTEM + " " + NOTES_RULES,
                           extra_tools=Notes(notes_dir).toolbox()),
        # cache-aware, each idea alone on cap+clear+compact, then combined:
        "cap+clear+compact+bp": Setup([Clearing(3, trigger=clear_at), compactor()],
                                      wrap=capped, cache=Breakpoints()),
        "cap+batch+compact": Setup([batch(), compactor()], wrap=capped),
        "cap+batch+lowwater+bp": Setup([batch(), compactor(at_least=compact_at // 2)],
                                       wrap=capped, cache=Breakpoints()),
        # every result cleared after its one read, breakpoints that never cache it (lesson
        # 7's break-even), a low-water compactor under the peak: the best; then without each
        BEST: Setup(best(), wrap=capped, cache=Breakpoints(newest=False)),
        f"{BEST}, no bp": Setup(best(), wrap=capped),
        f"{BEST}, newest cached": Setup(best(), wrap=capped, cache=Breakpoints()),
        f"{BEST}, plain compact": Setup([Clearing(1), compactor(fold_at, keep=4)], wrap=capped,
                                        cache=Breakpoints(newest=False)),
        RECORDS: records(),
        "server clear": Setup(extra={"betas": ["context-management-2025-06-27"],
                                     "context_management": {"edits": [clear]}}),
        "server compact": Setup(extra={"betas": ["compact-2026-01-12"],
                                       "context_management": {"edits": [compact]}}),
        "server clear+bp": Setup(extra={"betas": ["context-management-2025-06-27"],
                                        "context_management": {"edits": [{
                                            **clear, "keep": {"type": "tool_uses", "value": 1},
                                            "clear_at_least": {"type": "input_tokens",
                                                               "value": clear_at // 4}}]}},
                                 wrap=capped, cache=Breakpoints(keep=1, newest=False)),
        # the API's edit on every request once over a third of clear_at: each result is
        # read once, its call's input emptied too; the notes (thinking) stay valid, and a
        # breakpoint before the one result kept caches every placeholder (lesson 7b); a cap
        # with room for a whole config file (fewer calls, so fewer notes kept)
        LIVE_BEST: Setup(extra={"betas": ["context-management-2025-06-27"],
                                "context_management": {"edits": [{
                                    **clear, "trigger": {"type": "input_tokens",
                                                         "value": clear_at // 3},
                                    "keep": {"type": "tool_uses", "value": 1},
                                    "clear_tool_inputs": True}]}},
                         wrap=_capped(2 * size["cap_chars"]),  # a whole config file a read
                         cache=Breakpoints(keep=1, newest=False)),
    }


def window_for(strategy: str, size: dict) -> int:
    """The window a strategy runs in: the size's, but unlimited for append-only (the
    baseline) and at least 64,000 for server compaction (its trigger cannot go below 50,000)."""
    if strategy == "append-only":
        return UNLIMITED
    return max(size["window"], 64_000) if strategy == "server compact" else size["window"]


def held_out(choice: str = "random") -> tuple[int, int]:
    """(seed, files) of the held-out audit: drawn now for "random", else from the seed given.
    The seeds the lessons use are small numbers; these start at 1,000."""
    seed = 1_000 + secrets.randbelow(1_000_000) if choice == "random" else int(choice)
    return seed, HELD_OUT[0] + seed % (HELD_OUT[1] - HELD_OUT[0] + 1)


def measure(workload_name: str, size_name: str, strategy: str, *, n: int | None = None,
            seed: int = 0, model: str | None = None) -> dict:
    """One run, in a fresh offline model (so nothing is cached from another run). The
    held-out size runs the large size's settings on audit(n, seed). `model`: the model the
    client asks for, whose rules the stand-in applies (default: the course model)."""
    model = model or models.OFFLINE_MODEL
    size = SIZES["large" if size_name == "held-out" else size_name]
    n = size[workload_name] if n is None else n
    client = connect(offline=True, unscripted=False, context_window=window_for(strategy, size),
                     model=model)
    with tempfile.TemporaryDirectory(prefix="agentlib-bench-") as work:
        w = getattr(workloads, workload_name)(n, seed, root=f"{work}/workspace") \
            if workload_name != "constraints" else workloads.constraints(n, seed)
        setup = strategies(size, client, f"{work}/notes")[strategy]
        if setup.wrap:
            w.toolbox = setup.wrap(w)
        # a run that reads each file twice on average has lost its findings: it stops there
        steps = 2 * n + 40 if workload_name == "audit" else 200
        run = run_agent(client, w, context=setup.context, system=setup.system,
                        extra=setup.extra, extra_tools=setup.extra_tools, max_steps=steps,
                        max_tokens=1024 if workload_name != "audit" or n < 100 else 2048,
                        cache=setup.cache, label=strategy)
    compactors = [s for s in setup.context if isinstance(s, Compactor)]
    folded = summary_tokens(compactors)
    summaries = (folded[0] + sum(s.compaction_tokens[0] for s in run.steps),
                 folded[1] + sum(s.compaction_tokens[1] for s in run.steps))
    server_compactions = sum(1 for m in run.history if m["role"] == "assistant"
                             for b in m["content"] if b.get("type") == "compaction")
    score = run.score
    parts = bill(run, summaries=folded)
    return {
        "workload": workload_name, "size": size_name, "n": n, "seed": seed, "model": model,
        "strategy": strategy,
        "success": int(bool(score.success)),
        "recall": "" if score.recall is None else round(score.recall, 3),
        "constraint_kept": "" if score.constraint_kept is None else int(score.constraint_kept),
        "stopped": run.stopped.split(":")[0],
        "model_calls": run.calls, "re_reads": re_reads(run),
        "summarizer_calls": sum(len(c.compactions) + c.failures for c in compactors)
        + server_compactions,
        "input_tokens": run.total_input_tokens + summaries[0],
        "peak_window": run.peak_input_tokens,
        "cache_read_tokens": sum(s.cache_read for s in run.steps),
        "cache_write_tokens": sum(s.cache_write for s in run.steps),
        "cost_usd": round(parts.total, 4),
        "cost_no_cache_usd": round(bill(run, summaries=folded, cached=False).total, 4),
        "cost_floor_usd": round(floor(run), 4),
        **{f"floor_{k}_tokens": v for k, v in floor_tokens(run).items()},
        "cost_to_floor": round(parts.total / floor(run), 3) if floor(run) else "",
        # where the cost goes: tokens and dollars by kind (agentlib.cost.bill)
        "uncached_input_tokens": sum(s.input_tokens - s.cache_read - s.cache_write
                                     for s in run.steps),
        "output_tokens": run.total_output_tokens,
        "summary_input_tokens": summaries[0], "summary_output_tokens": summaries[1],
        **{f"cost_{k}_usd": round(v, 4) for k, v in (
            ("input", parts.input), ("write", parts.cache_write_5m + parts.cache_write_1h),
            ("read", parts.cache_read), ("output", parts.output),
            ("summaries", parts.summaries + parts.compaction))},
    }


def re_reads(run) -> int:
    """Reads the run made of what it had read already: `read_file` calls with the same
    arguments as an earlier one (a model that lost its notes reads the files again)."""
    seen: set[str] = set()
    again = 0
    for _, args in run.tool_calls("read_file"):
        key = json.dumps(args, sort_keys=True)
        again += key in seen
        seen.add(key)
    return again


RATIO_OF = ("model_calls", "input_tokens", "peak_window", "cost_usd", "cost_floor_usd")


def add_ratios(rows: list[dict]) -> list[dict]:
    """Each metric as a ratio to append-only on the same model, workload, size and seed."""
    def key(r):
        return r.get("model", models.OFFLINE_MODEL), r["workload"], r["size"], r["seed"]

    base = {key(r): r for r in rows if r["strategy"] == "append-only"}
    for r in rows:
        b = base.get(key(r))
        for k in RATIO_OF:
            r[f"{k}_ratio"] = round(r[k] / b[k], 3) if b and b[k] else ""
    return rows


def host_overhead(sizes=(100, 1_000, 10_000), steps: int = 30,
                  rounds: int = 3) -> dict[int, float]:
    """CPU seconds per step of the host's own work (context pipeline and token accounting,
    not the model) when the history holds each of `sizes` messages: the median step of
    each round, the best round, so that a busy machine disturbs the ratio as little as it
    can. The history is synthetic (`coursekit.histories`) and checked to reach every size."""
    history = Derived(agent_history("host-overhead", max(sizes) // 2 + 1, parallel=1, lines=(0, 10),
                            answer=0, text_rate=0, error_rate=0))
    if len(history) < max(sizes):
        raise RuntimeError(f"the history has {len(history)} messages, fewer than {max(sizes)}")
    client = connect(offline=True, unscripted=False,
                     context_window=UNLIMITED)  # the compactor never calls it
    out = {}
    for n in sizes:
        best = float("inf")
        for _ in range(rounds):
            # a trigger that every size is over, so every step does the same work: it clears
            context = [Clearing(3, trigger=1_000), Compactor(client, trigger=UNLIMITED)]
            estimate = tokens.Running(tokens.estimate)
            start_at = n - 2 * steps - 1  # odd: the task, then whole request/response pairs
            kept = apply_context(context, history[:start_at])[0]  # a warm pipeline
            times, trace = [], []
            for k in range(start_at, n - 1, 2):  # the loop appends a reply and its results
                kept = Derived(kept, history[k:k + 2])  # as the loop does
                start = time.process_time()  # CPU time: other processes disturb it less
                kept, _ = apply_context(context, kept)
                estimate.of(kept)
                times.append(time.process_time() - start)
                trace.append(kept)  # the run's trace keeps what each step sent (Step.sent)
            if len(kept) < n - 1:
                raise RuntimeError(f"the pipeline kept {len(kept)} messages, not about {n}")
            best = min(best, sorted(times)[len(times) // 2])
        out[n] = best
    return out


def markdown(rows: list[dict], columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(f"{r[c]:,}" if isinstance(r[c], int) and c not in
                                         ("n", "seed") else str(r[c]) for c in columns) + " |")
    return "\n".join(lines)


TABLE = ["workload", "size", "n", "strategy", "success", "stopped", "recall", "constraint_kept",
         "model_calls", "re_reads", "summarizer_calls", "input_tokens", "peak_window", "cost_usd",
         "input_tokens_ratio", "peak_window_ratio", "cost_usd_ratio", "cost_to_floor"]
PARTS = ["strategy", "uncached_input_tokens", "cache_write_tokens", "cache_read_tokens",
         "output_tokens", "summary_input_tokens", "summary_output_tokens", "cost_input_usd",
         "cost_write_usd", "cost_read_usd", "cost_output_usd", "cost_summaries_usd", "cost_usd",
         "cost_floor_usd", "cost_to_floor"]
FLOOR_PARTS = ["floor_write_tokens", "floor_read_tokens", "floor_input_tokens",
               "floor_output_tokens", "floor_peak_tokens"]
CAPPED = ("cap", "cap+clear", "cap+clear+compact", "all+notes", "cap+clear+compact+bp",
          "cap+batch+compact", "cap+batch+lowwater+bp", BEST, f"{BEST}, no bp",
          f"{BEST}, newest cached", f"{BEST}, plain compact", "server clear+bp", RECORDS)  # capped reads


def check_bars(rows: list[dict]) -> list[str]:
    """Each of `BARS` that the course model's rows measured, then each of `LIVE_BARS` that
    the default model's rows measured, as a line saying "ok" or "FAILS"; read from the rows
    only, so lesson 7 checks the saved CSV the same way (a row without a model is the
    course model's)."""
    out = []

    def bar(name, r, key, limit):
        if r is None:
            return
        got = r[f"{key}_ratio"]
        ok = bool(r["success"]) and got != "" and got <= limit
        out.append(f"{'ok' if ok else 'FAILS'}: {name}, {r['strategy']}: success "
                   f"{r['success']}, {key.replace('_', ' ')} {got}x append-only (bar {limit}x)")

    def to_floor(name, r, limit):
        if r is None:
            return
        got = r["cost_to_floor"]
        ok = bool(r["success"]) and got != "" and got <= limit
        out.append(f"{'ok' if ok else 'FAILS'}: {name}, {r['strategy']}: cost {got}x its own "
                   f"floor (bar {limit}x)")

    def bounded(name, r, column, limit):
        """`bar`, unless the run's own floor is above it: then the run within
        LIVE_BARS' "floor" of that floor, the bound shown in tokens."""
        bound = None if r is None else least(r, column)
        if bound is None or bound[0] <= limit:
            return bar(name, r, column, limit)
        within, got = LIVE_BARS["audit-large"]["floor"], float(r[f"{column}_ratio"])
        ok = bool(r["success"]) and got <= within * bound[0]
        out.append(f"{'ok' if ok else 'FAILS'}: {name}, {r['strategy']}: success "
                   f"{r['success']}, {column.replace('_', ' ')} {got}x append-only; its own "
                   f"floor is {bound[0]:.3f}x ({bound[1]}), above the bar {limit}x, so "
                   f"the bar is {within}x that floor")

    def of(model):
        mine = [r for r in rows if r.get("model", models.OFFLINE_MODEL) == model]
        held = [r for r in mine if r["size"] == "held-out"]  # one or more seeds
        return {(r["workload"], r["size"], r["strategy"]): r for r in mine}, held

    by, held = of(models.OFFLINE_MODEL)
    audit = by.get(("audit", "large", BEST))
    for key, column in (("cost", "cost_usd"), ("peak", "peak_window"), ("input", "input_tokens")):
        bar("audit-large", audit, column, BARS["audit-large"][key])
    for k in CAPPED:
        bar("needle-large", by.get(("needle", "large", k)), "input_tokens",
            BARS["needle-large"]["input"])
    for r in held:
        if r["strategy"] == BEST:
            bar(f"held-out (seed {r.get('seed')})", r, "cost_usd", BARS["held-out"]["cost"])
    records = by.get(("audit", "large", RECORDS))
    for key, column in (("cost", "cost_usd"), ("peak", "peak_window"), ("input", "input_tokens")):
        bar("audit-large", records, column, BARS["audit-large-records"][key])
    to_floor("audit-large", records, BARS["audit-large-records"]["floor"])
    for r in held:
        if r["strategy"] == RECORDS:
            bar(f"held-out (seed {r.get('seed')})", r, "cost_usd",
                BARS["held-out-records"]["cost"])
    live = models.DEFAULT_MODEL
    by, held = of(live)
    best = by.get(("audit", "large", LIVE_BEST))
    for key, column in (("cost", "cost_usd"), ("peak", "peak_window")):
        bounded(f"audit-large on {live}", best, column, LIVE_BARS["audit-large"][key])
    to_floor(f"audit-large on {live}", best, LIVE_BARS["audit-large"]["floor"])
    for r in held:
        if r["strategy"] == LIVE_BEST:
            bounded(f"held-out (seed {r.get('seed')}) on {live}", r, "cost_usd",
                    LIVE_BARS["held-out"]["cost"])
    return out


def least(r: dict, column: str) -> tuple[float, str] | None:
    """The least `column` ("cost_usd" or "peak_window") the run's own floor allows, as a
    ratio to append-only, and its tokens; None if the row does not carry its floor."""
    floor_column = {"cost_usd": "cost_floor_usd", "peak_window": "floor_peak_tokens"}[column]
    got = r.get(f"{column}_ratio")
    if got in ("", None) or not r.get(floor_column) or not r.get(column):
        return None
    ratio = float(got) * float(r[floor_column]) / float(r[column])
    if column == "peak_window":
        return ratio, f"{int(r[floor_column]):,} tokens"
    return ratio, "write {:,}, read {:,}, input {:,}, output {:,} tokens".format(
        *(int(r[f"floor_{k}_tokens"]) for k in ("write", "read", "input", "output")))


def plots(rows: list[dict], out: Path) -> list[Path]:
    """One grouped bar chart per model, workload and size (the main metrics against
    append-only), and the cost/peak frontier of each audit; of the held-out audits, the
    first seed's. The course model's files keep their names; the other's end in the model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coursekit.viz import plot_bars
    from coursekit.viz.frontier import plot_frontier

    saved = []
    first = next((r["seed"] for r in rows if r["size"] == "held-out"), None)
    rows = [r for r in rows if r["size"] != "held-out" or r["seed"] == first]
    for key in dict.fromkeys((r.get("model", models.OFFLINE_MODEL), r["workload"], r["size"])
                             for r in rows):
        model, workload, size = key
        here = [r for r in rows
                if (r.get("model", models.OFFLINE_MODEL), r["workload"], r["size"]) == key]
        tail = "" if model == models.OFFLINE_MODEL else f"-{model}"
        table = {r["strategy"]: {"success": r["success"],
                                 "input tokens (x append-only)": r["input_tokens_ratio"] or 0,
                                 "peak window (x append-only)": r["peak_window_ratio"] or 0,
                                 "cost (x append-only)": r["cost_usd_ratio"] or 0}
                 for r in here}
        fig = plot_bars(table, list(next(iter(table.values()))),
                        title=f"{workload} ({size}, n = {here[0]['n']:,}), {model}")
        saved.append(out / f"{workload}-{size}{tail}.png")
        fig.savefig(saved[-1], dpi=90, bbox_inches="tight")
        plt.close(fig)
        if workload == "audit" and size != "small":
            bars = None if size != "large" else BARS["audit-large"] if not tail \
                else LIVE_BARS["audit-large"]
            fig = plot_frontier(here, bars=bars and (bars["peak"], bars["cost"]),
                                title=f"audit ({size}, {here[0]['n']:,} files), {model}: "
                                      "dollars against window")
            saved.append(out / f"frontier-audit-{size}{tail}.png")
            fig.savefig(saved[-1], dpi=90, bbox_inches="tight")
            plt.close(fig)
    return saved


def _timed(job: tuple) -> tuple[float, dict]:
    """measure(*job) and how long it took (for the progress line only)."""
    start = time.perf_counter()
    w, s, k, n, seed, model = job
    row = measure(w, s, k, n=n, seed=seed, model=model)
    return time.perf_counter() - start, row


def run_jobs(jobs: list[tuple], processes: int) -> list[dict]:
    """Every job (workload, size, strategy, n, seed, model), `processes` at a time, with a
    progress line per finished run; rows in the order of `jobs`."""
    order = {job: i for i, job in enumerate(jobs)}
    rows: list[dict | None] = [None] * len(jobs)
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        slow_first = sorted(jobs, key=lambda j: -(j[3] or 0) if j[0] == "audit" else 0)
        for done, (seconds, row) in enumerate(pool.imap_unordered(_timed, slow_first), 1):
            key = (row["workload"], row["size"], row["strategy"], row["n"], row["seed"],
                   row["model"])
            rows[order[key]] = row
            print(f"[{done}/{len(jobs)}] {row['model']}: {row['workload']} ({row['size']}, "
                  f"n={row['n']:,}) {row['strategy']}: {'ok' if row['success'] else 'failed'}, "
                  f"{row['model_calls']} calls, ${row['cost_usd']:.4f} in {seconds:.1f}s",
                  file=sys.stderr, flush=True)
    return [r for r in rows if r is not None]


def held_out_strategies(model: str) -> tuple[str, ...]:
    """The strategies run on a held-out audit: the baseline and the best of each model."""
    if model == models.OFFLINE_MODEL:
        return HELD_OUT_STRATEGIES
    return ("append-only", BEST, RECORDS, LIVE_BEST)


def binding_note(rows: list[dict]) -> str:
    """What fails on a model that binds thinking, and why; and the floor's bound on LIVE_BEST."""
    lost = [r for r in rows if r["workload"] == "audit" and r["size"] == "large"
            and r["stopped"] == "max_steps"]
    out = ("A client edit before a thinking block invalidates it and every later one: the "
           "loop drops them (`agentlib.loop.drop_stale_thinking`), and with them the "
           "findings kept there, so the agent reads the files again until its step limit "
           "(two reads a file, plus 40): "
           + "; ".join(f"{r['strategy']} {r['model_calls']:,} calls, {r['re_reads']:,} "
                       "re-reads" for r in lost) + ". (A run that dropped its notes can cost "
           "less than the floor, which keeps them.)")
    best = next((r for r in rows if (r["workload"], r["size"], r["strategy"])
                 == ("audit", "large", LIVE_BEST)), None)
    if best is not None and least(best, "cost_usd") and least(best, "peak_window"):
        (cost_x, cost_t), (peak_x, peak_t) = least(best, "cost_usd"), least(best, "peak_window")
        out += (f" The floor of {LIVE_BEST}'s own run (its notes, emptied calls and "
                f"placeholders kept): {cost_x:.3f}x append-only's dollars ({cost_t}) and a "
                f"least peak of {peak_t} ({peak_x:.3f}x append-only's).")
    return out


def report(rows: list[dict], bars: list[str], ratios: dict[int, float]) -> str:
    """results.md: the prices, one table per model, where the audit's cost goes and the
    floor's tokens, the host's overhead and the bars."""
    out = [f"# Strategy benchmark (offline; priced with the catalog: {PRICES['model']} as of "
           f"{PRICES['as_of']}, USD per million tokens: input {PRICES['input']}, output "
           f"{PRICES['output']}, cache write {PRICES['cache_write']} (1 hour: "
           f"{PRICES['cache_write_1h']}), cache read {PRICES['cache_read']}; course-model-1 "
           "is priced the same)", ""]
    for model in dict.fromkeys(r["model"] for r in rows):
        mine = [r for r in rows if r["model"] == model]
        notes = "notes in plain text" if not getattr(models.get(model), "binds_thinking",
                                                     False) else \
            "notes in thinking blocks bound to the conversation before them"
        best = BEST if model == models.OFFLINE_MODEL else LIVE_BEST
        out += [f"## {model} ({notes})", "", markdown(mine, TABLE), "",
                "Where the audit's cost goes (tokens and dollars by kind; the floor is each "
                "run's own, `agentlib.cost.floor`, its tokens by kind beside it):", "",
                markdown([r for r in mine if r["workload"] == "audit" and r["size"] != "small"
                          and r["strategy"] in ("append-only", BEST, RECORDS, best)],
                         ["size", "n", *PARTS, *FLOOR_PARTS]), ""]
        if best != BEST:
            out += [binding_note(mine), ""]
    out += ["Host overhead per step (context pipeline + token accounting, no model), "
            "measured side by side in this run: "
            + ", ".join(f"{n:,} messages vs 100 = {r:.2f}x" for n, r in ratios.items())
            + " (each must stay at or below 2).", "", "The bars:", "",
            *[f"- {line}" for line in bars], ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", default=["small", "large"], choices=list(SIZES))
    ap.add_argument("--workloads", nargs="+", default=["audit", "needle", "constraints"])
    ap.add_argument("--strategies", nargs="+", default=None)
    ap.add_argument("--models", nargs="+", default=list(MODELS),
                    help="the model behaviours to run (default: both of MODELS)")
    ap.add_argument("--held-out", nargs="+", default=["random", "random"],
                    metavar="random|SEED|none", help="the held-out audits: seeds drawn now "
                    "(default: two), given seeds, or none")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="runs at a time (default: 2, or 1 on one core)")
    ap.add_argument("--out", default="bench/results")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    names = args.strategies or list(strategies(SIZES["small"], None, "."))
    jobs = [(w, s, k, SIZES[s][w], 0, m) for m in args.models for s in args.sizes
            for w in args.workloads for k in names
            if not (k == "server compact" and s == "small")]  # its 50,000 floor is not met
    for choice in [c for c in args.held_out if c != "none"]:
        seed, n = held_out(choice)
        print(f"held-out audit: {n} files, seed {seed}", file=sys.stderr)
        jobs += [("audit", "held-out", k, n, seed, m) for m in args.models
                 for k in held_out_strategies(m) if k in names]
    rows = add_ratios(run_jobs(list(dict.fromkeys(jobs)), max(1, args.jobs)))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "results.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    overhead = host_overhead()
    ratios = {n: overhead[n] / overhead[100] for n in overhead if n != 100}
    bars = check_bars(rows)
    text = report(rows, bars, ratios)
    (out / "results.md").write_text(text, encoding="utf-8")
    plots(rows, out)
    print(text)
    print(f"{len(rows)} runs in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    failed = [line for line in bars if line.startswith("FAILS")]
    if max(ratios.values()) > 2:
        failed.append("the host's work per step grows with the history (over 2x)")
    for line in failed:
        print(line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
