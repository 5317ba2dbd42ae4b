"""Checks for lesson 7's exercises: ex7.run_cost, ex7.choose_strategy, ex7.pipeline.

- ex7.run_cost: dollars for a run's steps with prompt caching. `input_tokens` already
  includes the cached tokens, so the uncached part is what is left after the cache reads
  and writes; billing it all at the input price, or adding the cached tokens a second
  time, fails.
- ex7.choose_strategy: the cheapest strategy that succeeded within a peak budget, from
  benchmark rows (numbers from a run of `python -m coursekit.bench`, written in here so
  that the check does not change when the benchmark is re-run).
- ex7.pipeline: the learner's pipeline runs the audit on a workload the lesson never
  showed (40 files, seed 3) in a 16,000-token window, offline, on a fresh client whose
  every call is counted and billed with prompt caching on (summaries included). It must
  answer, find every service, keep each request within 10,000 tokens, send at most 40% of
  append-only's input tokens and cost at most 80% of append-only's dollars (append-only
  cached too). The first check runs the pipeline; the others read that run. Whatever the
  learner's code raises is reported as a failure with its message, never raised.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from functools import lru_cache

from classroom.grading import drawn, own_work, register, uses_the_library
from classroom.harness import PIPELINE_KEYS as KEYS  # noqa: F401
from classroom.harness import run_pipeline

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex7.run_cost", "agentlib.cost")
uses_the_library("ex7.pipeline", "it combines the course's strategies: choosing them is the "
                 "exercise, and the check's own model measures the run")

# ---------------------------------------------------------------- ex7.run_cost

PRICES = {"input": 3.00, "output": 15.00, "cache_write": 3.75, "cache_read": 0.30}
COST_HINT = ("input_tokens counts every input token, cached or not: the uncached part is "
             "input_tokens - cache_read - cache_write at the input price, plus cache_read at "
             "the cache-read price and cache_write at the cache-write price, plus output at "
             "the output price, all per million tokens")


@dataclass
class _Step:
    """The four numbers of a step that a bill needs (agentlib.loop.Step has them too)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read: int = 0
    cache_write: int = 0


def _reference_cost(steps, prices: dict) -> float:
    total = 0.0
    for s in steps:
        fresh = s.input_tokens - s.cache_read - s.cache_write
        total += (fresh * prices["input"] + s.cache_read * prices["cache_read"]
                  + s.cache_write * prices["cache_write"] + s.output_tokens * prices["output"])
    return total / 1e6


def _run_cost(ns: dict, steps, prices: dict | None = None) -> float:
    prices = dict(PRICES if prices is None else prices)
    got = ns["run_cost"](list(steps), prices)
    assert isinstance(got, int | float) and not isinstance(got, bool), \
        f"run_cost should return a number of dollars, got {type(got).__name__} {got!r}"
    return got


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _drawn_steps(r, reads: bool = True, writes: bool = True) -> list[_Step]:
    """A few steps drawn from `r` (cache reads and writes within each step's input)."""
    steps = []
    for _ in range(r.randrange(1, 6)):
        total = r.randrange(500, 60_000)
        read = r.randrange(0, total // 2) if reads else 0
        write = r.randrange(0, (total - read) // 2) if writes else 0
        steps.append(_Step(total, r.randrange(1, 900), cache_read=read, cache_write=write))
    return steps


def _drawn_agree(ns: dict, public: int, prices: dict | None = None, **kinds) -> None:
    """run_cost agrees with the bill on steps (and prices) drawn at grading time."""
    for r in drawn(public, 2):
        steps = _drawn_steps(r, **kinds)
        given = prices or {"input": r.choice([0.8, 1.0, 3.0, 5.0]), "output": r.choice(
            [4.0, 5.0, 15.0, 25.0]), "cache_write": 0.0, "cache_read": 0.0}
        if not prices:
            given.update(cache_write=given["input"] * 1.25, cache_read=given["input"] * 0.1)
        got, want = _run_cost(ns, steps, given), _reference_cost(steps, given)
        assert _close(got, want), (f"with prices {given}, the steps ({_steps_text(steps)}) cost "
                                   f"${want:.6f}; got {got!r}")


def _steps_text(steps) -> str:
    return "; ".join(f"input_tokens {s.input_tokens:,} (cache_read {s.cache_read:,}, "
                     f"cache_write {s.cache_write:,}), output_tokens {s.output_tokens:,}"
                     for s in steps)


@register("ex7.run_cost", "bills uncached input at the input price and output at the output price",
          hint=COST_HINT, needs=("run_cost",))
def _cost_plain(ns: dict) -> None:
    steps = [_Step(1_000, 100), _Step(2_000, 200), _Step(3_000, 50)]
    got, want = _run_cost(ns, steps), _reference_cost(steps, PRICES)
    assert _close(got, want), (f"three steps without caching ({_steps_text(steps)}) cost "
                               f"${want:.6f} at $3 / $15 per million; got {got!r}")
    got = _run_cost(ns, [])
    assert got == 0, f"no steps cost nothing, got {got!r}"
    _drawn_agree(ns, 71, PRICES, reads=False, writes=False)


@register("ex7.run_cost", "cache reads are part of input_tokens: billed once, at the cache-read price",
          hint=COST_HINT, needs=("run_cost",))
def _cost_reads(ns: dict) -> None:
    steps = [_Step(10_000, 0, cache_read=9_000)]
    got, want = _run_cost(ns, steps), _reference_cost(steps, PRICES)
    all_input = 10_000 * PRICES["input"] / 1e6
    twice = all_input + 9_000 * PRICES["cache_read"] / 1e6
    assert _close(got, want), (
        f"a step of {_steps_text(steps)}: 1,000 uncached tokens at $3 and 9,000 read from the "
        f"cache at $0.30 per million make ${want:.6f}, got {got!r}"
        + (" (that bills every input token at the input price: the cache saved nothing)"
           if _close(got, all_input) else "")
        + (" (that bills the cached tokens twice: input_tokens already includes them)"
           if _close(got, twice) else ""))
    _drawn_agree(ns, 72, PRICES, writes=False)


@register("ex7.run_cost", "cache writes are billed at the cache-write price (1.25x input)",
          hint=COST_HINT, needs=("run_cost",))
def _cost_writes(ns: dict) -> None:
    steps = [_Step(5_000, 10, cache_write=4_000), _Step(6_000, 10, cache_read=4_000,
                                                        cache_write=1_500)]
    got, want = _run_cost(ns, steps), _reference_cost(steps, PRICES)
    assert _close(got, want), (f"two steps ({_steps_text(steps)}) cost ${want:.6f}; got {got!r}. "
                               "A cache write costs more than a plain input token, not less")
    _drawn_agree(ns, 73, PRICES)


@register("ex7.run_cost", "uses the prices it is given",
          hint="read the four prices from the `prices` argument; do not write $3 or $15 "
               "into the function", needs=("run_cost",))
def _cost_prices(ns: dict) -> None:
    prices = {"input": 1.0, "output": 5.0, "cache_write": 1.25, "cache_read": 0.1}
    steps = [_Step(8_000, 300, cache_read=5_000, cache_write=2_000)]
    got, want = _run_cost(ns, steps, prices), _reference_cost(steps, prices)
    assert _close(got, want), (f"with prices {prices}, a step of {_steps_text(steps)} costs "
                               f"${want:.6f}; got {got!r}")
    _drawn_agree(ns, 74)


@lru_cache(maxsize=1)
def _cached_run():
    """A real run with prompt caching on: a small audit, offline, on a fresh client."""
    from agentlib.loop import run_agent
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex7-") as root:
        return run_agent(connect(offline=True), workloads.audit(6, seed=2, root=root),
                         max_tokens=512, cache=True)


@register("ex7.run_cost", "agrees with coursekit.bench.cost on a real cached run",
          hint=COST_HINT, needs=("run_cost",))
def _cost_real(ns: dict) -> None:
    from coursekit.bench import PRICES as BENCH_PRICES
    from coursekit.bench import cost

    run = _cached_run()
    prices = {k: BENCH_PRICES[k] for k in PRICES}
    got, want = _run_cost(ns, run.steps, prices), cost(run)
    reads = sum(s.cache_read for s in run.steps)
    assert _close(got, want), (
        f"the audit run's {run.calls} steps ({run.total_input_tokens:,} input tokens, "
        f"{reads:,} of them read from the cache) cost ${want:.6f}; got {got!r}")


# ---------------------------------------------------------------- ex7.choose_strategy

CHOOSE_HINT = ("keep the rows with success == 1 and peak_window <= max_peak; of those, "
               "return the strategy with the lowest cost_usd (or cost_no_cache_usd when "
               "cached is False); on a tie keep the earlier row; None if no row qualifies")

# audit, large (200 files, a 64,000-token window): one run of `python -m coursekit.bench`
AUDIT_LARGE = [
    ("append-only", 1, 165_943, 5.8931, 51.4501),
    ("truncate", 0, 19_760, 14.6804, 12.3169),
    ("cap", 0, 61_648, 1.2979, 9.9767),
    ("cap+clear", 1, 24_614, 11.5108, 11.6286),
    ("cap+clear+compact", 1, 17_662, 7.0882, 9.4039),
    ("all+notes", 1, 17_994, 7.5386, 10.1807),
    ("server clear", 1, 22_087, 10.4188, 8.5790),
    ("server compact", 1, 49_939, 3.0756, 16.5018),
]


def _rows(table=AUDIT_LARGE) -> list[dict]:
    return [{"workload": "audit", "size": "large", "strategy": name, "success": ok,
             "peak_window": peak, "cost_usd": cached, "cost_no_cache_usd": plain}
            for name, ok, peak, cached, plain in table]


def reference_choice(rows: list[dict], max_peak: int, cached: bool = True) -> str | None:
    """The cheapest strategy that succeeded within max_peak, the earlier on a tie, or None."""
    column = "cost_usd" if cached else "cost_no_cache_usd"
    best = None
    for r in rows:
        if r["success"] == 1 and r["peak_window"] <= max_peak and (
                best is None or r[column] < best[column]):
            best = r
    return None if best is None else best["strategy"]


def _drawn_choices(ns: dict, public: int, cached: bool = True, tie: bool = False) -> None:
    """choose_strategy agrees with the rule on tables drawn at grading time."""
    for r in drawn(public, 2):
        names = r.sample([t[0] for t in AUDIT_LARGE], r.randrange(3, len(AUDIT_LARGE) + 1))
        table = [(n, r.choice([0, 1, 1]), r.randrange(4_000, 170_000),
                  round(r.uniform(0.05, 60), 4), round(r.uniform(0.05, 60), 4)) for n in names]
        if tie:
            table.append((table[-1][0] + " (again)", 1, *table[-1][2:]))
        peak = r.choice([t[2] for t in table] + [r.randrange(4_000, 170_000)])
        rows = _rows(table)
        got, want = _choose(ns, rows, max_peak=peak, cached=cached), \
            reference_choice(rows, peak, cached)
        assert got == want, (f"of {len(rows)} runs, with max_peak={peak:,} and cached={cached}, "
                             f"the cheapest that succeeded within the budget is {want!r}; got "
                             f"{got!r}")


def _choose(ns: dict, rows: list[dict], max_peak: int, cached: bool = True):
    got = ns["choose_strategy"]([dict(r) for r in rows], max_peak=max_peak, cached=cached)
    assert got is None or isinstance(got, str), (
        f"choose_strategy should return a strategy's name (a str) or None, got "
        f"{type(got).__name__} {got!r}")
    return got


@register("ex7.choose_strategy", "never picks a strategy that failed the task",
          hint=CHOOSE_HINT, needs=("choose_strategy",))
def _choose_success(ns: dict) -> None:
    got = _choose(ns, _rows(), max_peak=64_000)
    assert got == "server compact", (
        f"within a 64,000-token peak, the cheapest run that succeeded (cache on) is 'server "
        f"compact' ($3.08); got {got!r}"
        + (": 'cap' is cheaper, but it overflowed the window and answered nothing"
           if got == "cap" else ""))
    _drawn_choices(ns, 75)


@register("ex7.choose_strategy", "never picks a strategy whose peak is over the budget",
          hint=CHOOSE_HINT, needs=("choose_strategy",))
def _choose_peak(ns: dict) -> None:
    got = _choose(ns, _rows(), max_peak=20_000)
    assert got == "cap+clear+compact", (
        f"within a 20,000-token peak, the cheapest run that succeeded is 'cap+clear+compact' "
        f"($7.09, peak 17,662); got {got!r}"
        + (" whose peak is over 20,000" if got in ("server compact", "append-only") else ""))
    rows = [r for r in _rows() if r["strategy"] in ("append-only", "cap+clear")]
    got = _choose(ns, rows, max_peak=165_943)
    assert got == "append-only", ("a peak exactly at the budget is within it: with "
                                  f"max_peak=165,943 append-only qualifies and is cheaper; got {got!r}")
    _drawn_choices(ns, 76)


@register("ex7.choose_strategy", "compares the cost the caller asks for (cached or not)",
          hint=CHOOSE_HINT, needs=("choose_strategy",))
def _choose_cached(ns: dict) -> None:
    got = _choose(ns, _rows(), max_peak=64_000, cached=False)
    assert got == "server clear", (
        "without prompt caching (cost_no_cache_usd) the cheapest run that succeeded within "
        f"64,000 tokens is 'server clear' ($8.58); got {got!r}")
    _drawn_choices(ns, 77, cached=False)


@register("ex7.choose_strategy", "on a tie keeps the earlier, simpler strategy; None if none qualifies",
          hint=CHOOSE_HINT, needs=("choose_strategy",))
def _choose_tie(ns: dict) -> None:
    small = _rows([("append-only", 1, 9_933, 0.0705, 0.2173), ("truncate", 0, 5_015, 0.2509, 0.2226),
                   ("cap+clear", 1, 4_132, 0.0881, 0.1696),
                   ("cap+clear+compact", 1, 4_132, 0.0881, 0.1696)])
    got = _choose(ns, small, max_peak=8_000)
    assert got == "cap+clear", (
        "cap+clear and cap+clear+compact measured the same (the compactor never fired): keep "
        f"the one with fewer layers, the earlier row; got {got!r}")
    got = _choose(ns, small, max_peak=4_000)
    assert got is None, f"no run that succeeded has a peak within 4,000 tokens: return None, got {got!r}"
    _drawn_choices(ns, 78, tie=True)


# ---------------------------------------------------------------- ex7.pipeline

N_FILES, SEED = 40, 3  # a size and a seed the lesson never ran
WINDOW = 16_000  # the offline model's hard limit for this check
PEAK_BUDGET = 10_000  # the budget: every request within this many tokens
INPUT_BUDGET = 0.40  # and all input tokens (summaries too) within 40% of append-only's
COST_BUDGET = 0.80  # and its dollars, prompt caching on, within 80% of append-only's
MAX_STEPS = 3 * N_FILES  # a good pipeline needs about 60 requests
MAX_TOKENS = 1024
PIPELINE_HINT = ("adopt the layers in order: cap read_file, clear old results, and compact "
                 "only if the window still fills (with the client you are given)")


@dataclass
class Trial:
    """What the check measured of one pipeline. Everything but `error` and `stopped` is
    counted by the model the check owns, not reported by the learner's process."""

    error: str | None = None  # what went wrong before a run could be scored
    stopped: str = ""  # how the run ended, as run_agent said in the learner's process
    calls: int = 0  # every successful create through the client: agent and summaries
    agent_calls: int = 0  # the agent's own successful requests (those with tools)
    input_tokens: int = 0  # all their input tokens (cached or not, compaction iterations)
    cost: float = 0.0  # their dollars at the catalog's prices, cache reads and writes apart
    baseline: int = 0  # append-only's input tokens on the same workload
    baseline_cost: float = 0.0  # and its dollars, prompt caching on
    peak: int = 0  # the largest agent request's input tokens
    refused: str = ""  # the model's error message when it refused a request
    answer: str | None = None  # the model's last reply to the agent, when it ended the turn
    score: object = None  # the workload's score of that answer


@lru_cache(maxsize=1)
def _append_only() -> tuple[int, float]:
    """Append-only's input tokens and dollars (prompt caching on) on the check's audit."""
    from agentlib.cost import cost
    from agentlib.loop import run_agent
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex7-") as root:
        run = run_agent(connect(offline=True, context_window=10_000_000),
                        workloads.audit(N_FILES, seed=SEED, root=root),
                        max_steps=MAX_STEPS, max_tokens=MAX_TOKENS, cache=True)
    assert run.score.success, "append-only should solve the check's audit (a bug in the check)"
    return run.total_input_tokens, cost(run)


def _usage_cost(usage: dict) -> float:
    """Dollars of one response's usage at the course model's catalog prices."""
    from agentlib.models import OFFLINE_MODEL, prices

    p = prices(OFFLINE_MODEL)
    made = usage.get("cache_creation") or {}
    hour = made.get("ephemeral_1h_input_tokens", 0)
    total = (usage["input_tokens"] * p.input + usage["cache_read_input_tokens"] * p.cache_read
             + (usage["cache_creation_input_tokens"] - hour) * p.cache_write_5m
             + hour * p.cache_write_1h + usage["output_tokens"] * p.output)
    total += sum(i["input_tokens"] * p.input + i["output_tokens"] * p.output
                 for i in usage.get("iterations", []) if i["type"] == "compaction")
    return total / 1e6


def _counting_client():
    """A fresh offline client whose model records every request it answers or refuses."""
    from coursekit import connect

    client = connect(offline=True, context_window=WINDOW)
    model = client.course_model
    tally: dict = {"calls": 0, "input": 0, "cost": 0.0, "agent": [], "refused": "",
                   "last": None}
    create = model.create

    def counted(request, betas, key=""):
        try:
            out = create(request, betas, key)
        except Exception as e:
            tally["refused"] = tally["refused"] or " ".join(str(e).split())[:200]
            raise
        usage = out["usage"]
        sent = (usage["input_tokens"] + usage["cache_creation_input_tokens"]
                + usage["cache_read_input_tokens"])
        tally["calls"] += 1
        tally["cost"] += _usage_cost(usage)
        tally["input"] += sent + sum(i["input_tokens"] for i in usage.get("iterations", [])
                                     if i["type"] == "compaction")
        if request.get("tools"):
            tally["agent"].append(sent)
            tally["last"] = out
        return out

    model.create = counted
    return client, tally


def _trial(fn) -> Trial:
    """Run the learner's pipeline once; judge it by what the check's own model saw."""
    from classroom.grading import in_learner_process, portable
    from coursekit import workloads

    baseline, baseline_cost = _append_only()
    trial = Trial(baseline=baseline, baseline_cost=baseline_cost)
    client, tally = _counting_client()
    with tempfile.TemporaryDirectory(prefix="agentlib-ex7-") as root:
        work = portable(workloads.audit, N_FILES, seed=SEED, root=f"{root}/workspace")
        outcome = in_learner_process(run_pipeline, fn, client, work, f"{root}/notes",
                                     MAX_STEPS, MAX_TOKENS)
    if not isinstance(outcome, dict):
        outcome = {"error": f"the run reported {type(outcome).__name__}, not a dict"}
    trial.error, trial.stopped = outcome.get("error"), str(outcome.get("stopped", ""))[:300]
    trial.calls, trial.input_tokens, trial.cost = tally["calls"], tally["input"], tally["cost"]
    trial.agent_calls, trial.peak = len(tally["agent"]), max(tally["agent"], default=0)
    trial.refused = tally["refused"]
    last = tally["last"]
    # a reply cut where the window ends is not an answer (current models cut, not refuse)
    if last is not None and last.get("stop_reason") not in ("tool_use",
                                                            "model_context_window_exceeded"):
        trial.answer = "\n".join(b.get("text", "") for b in last.get("content", [])
                                 if b.get("type") == "text")
    trial.score = work.score(trial.answer) if trial.answer is not None else None
    return trial


_LAST: dict = {}


def _get_trial(ns: dict, fresh: bool = False) -> Trial:
    """The trial of ns['pipeline']; the first check of the exercise always runs it anew."""
    fn = ns["pipeline"]
    if fresh or _LAST.get("fn") is not fn:
        _LAST.clear()
        _LAST.update(fn=fn, trial=_trial(fn))
    return _LAST["trial"]


def _scored(ns: dict) -> Trial:
    t = _get_trial(ns)
    assert t.error is None, t.error
    return t


def _answered(t: Trial) -> bool:
    return t.answer is not None and not t.refused


def report(t: Trial) -> str:
    """One line: what the check measured against the budget."""
    if t.error is not None:
        return f"audit({N_FILES}) in a {WINDOW:,}-token window: no run ({t.error})"
    share = t.input_tokens / t.baseline
    ended = "answered" if _answered(t) else (t.stopped.split(":")[0] or "no answer")
    return (f"audit({N_FILES}) in a {WINDOW:,}-token window: {ended} after "
            f"{t.agent_calls} requests (+{t.calls - t.agent_calls} summary calls); "
            f"{getattr(t.score, 'detail', 'no answer to score')}; peak {t.peak:,} tokens "
            f"(budget {PEAK_BUDGET:,}); input {t.input_tokens:,} = {share:.0%} of "
            f"append-only's {t.baseline:,} (budget {INPUT_BUDGET:.0%}); ${t.cost:.4f} cached = "
            f"{t.cost / t.baseline_cost:.0%} of append-only's ${t.baseline_cost:.4f} (budget "
            f"{COST_BUDGET:.0%})")


def _said(t: Trial) -> str:
    """report(t) in the notebook's language (classroom/checks/ko.py); the run's error is
    translated on its own, since it may hold words a template of the grading takes."""
    from dataclasses import replace

    from classroom.grading import translate
    from coursekit import i18n

    if i18n.lang() != "ko":
        return report(t)
    if t.error is None:
        return translate(report(t))
    return translate(report(replace(t, error="{error}"))).replace("{error}", translate(t.error))


@register("ex7.pipeline", "returns a pipeline run_agent can use (context, toolbox, system, ...)",
          hint=PIPELINE_HINT, needs=("pipeline",))
def _pipeline_shape(ns: dict) -> None:
    t = _get_trial(ns, fresh=True)
    print(_said(t))
    assert t.error is None, t.error
    assert t.agent_calls, ("the run ended without one request to the model: the check's own "
                           "model, which counts them, received none")


@register("ex7.pipeline", f"answers audit({N_FILES}) in a {WINDOW:,}-token window, without a 400",
          hint=PIPELINE_HINT, needs=("pipeline",))
def _pipeline_answers(ns: dict) -> None:
    t = _scored(ns)
    if t.refused:
        raise AssertionError(f"the model refused a request after {t.agent_calls} requests: "
                             f"{t.refused}")
    if t.answer is None and t.stopped == "max_steps":
        raise AssertionError(f"no answer after {t.agent_calls} requests: is the agent "
                             "re-reading results that were cleared or cut too soon?")
    assert t.answer is not None, (f"the run stopped after {t.agent_calls} requests without an "
                                  f"answer: {t.stopped.removeprefix('error: ')[:200]}")


@register("ex7.pipeline", "still finds every service (full marks)",
          hint=PIPELINE_HINT + "; a sliding window or a free-form summary forgets findings",
          needs=("pipeline",))
def _pipeline_score(ns: dict) -> None:
    t = _scored(ns)
    assert t.score is not None and t.score.success, \
        f"the answer scored {t.score.detail or t.score}, not full marks" \
        if t.score is not None else "there was no answer"


@register("ex7.pipeline", f"keeps every request within {PEAK_BUDGET:,} tokens",
          hint="clear or compact earlier: a trigger (with its margin) well under the budget, "
               "since a request grows by a tool result after the check", needs=("pipeline",))
def _pipeline_peak(ns: dict) -> None:
    t = _scored(ns)
    assert t.agent_calls and t.peak <= PEAK_BUDGET and not t.refused, (
        f"the largest request was {t.peak:,} tokens"
        + (" and then one was refused" if t.refused else "")
        + f"; the budget is {PEAK_BUDGET:,}")


@register("ex7.pipeline", f"sends at most {INPUT_BUDGET:.0%} of append-only's input tokens, "
          "summaries included", hint="cap the reads, clear old results, compact rarely: "
          "a compaction's summary call sends the old part again", needs=("pipeline",))
def _pipeline_tokens(ns: dict) -> None:
    t = _scored(ns)
    assert _answered(t), \
        f"the run did not answer ({t.stopped.split(':')[0]}): its token count says nothing yet"
    share = t.input_tokens / t.baseline
    assert share <= INPUT_BUDGET, (
        f"{t.calls} calls sent {t.input_tokens:,} input tokens, {share:.0%} of append-only's "
        f"{t.baseline:,}; the budget is {INPUT_BUDGET:.0%}")


@register("ex7.pipeline", f"costs at most {COST_BUDGET:.0%} of append-only's dollars, prompt "
          "caching on", hint="a clear rewrites every cached block after the first one it "
          "empties: mark the end of the stable part (agentlib.context.Breakpoints), and do not "
          "cache a result that is cleared after one read (newest=False with Clearing(1))",
          needs=("pipeline",))
def _pipeline_cost(ns: dict) -> None:
    t = _scored(ns)
    assert _answered(t), \
        f"the run did not answer ({t.stopped.split(':')[0]}): its bill says nothing yet"
    share = t.cost / t.baseline_cost
    assert share <= COST_BUDGET, (
        f"{t.calls} calls cost ${t.cost:.4f} with prompt caching, {share:.0%} of append-only's "
        f"${t.baseline_cost:.4f}; the budget is {COST_BUDGET:.0%}")
