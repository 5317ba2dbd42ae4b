"""Checks for lesson 8's exercises: ex8.fit_result, ex8.wall_clock_steps, ex8.team_bill.

- ex8.fit_result: a sub-agent's result within a token budget: unchanged if it fits, else
  the most whole lines from the start that fit with the notice line
  `agentlib.delegate.NOTICE` (how many lines are not shown), never over the budget.
- ex8.wall_clock_steps: the longest chain of requests of a team: the lead's steps, and
  at each step that delegated, only the longest of the sub-runs it started (they run side
  by side). Sub-runs are given in the order of the delegate calls that started them.
- ex8.team_bill: requests, input tokens and dollars (prompt caching on) over the lead and
  every sub-run.

The checks use small hand-made runs (`_Run`, `_Step`: the attributes the exercises name;
classroom/harness.py, so that the grader's learner kernel rebuilds them)
and one real team run, offline: an audit of 24 files in 3 folders, a lead and 3
sub-agents, compared with `agentlib.delegate`.
"""

from __future__ import annotations

import math
import tempfile
from functools import lru_cache

from classroom.grading import drawn, own_work, register, seed
from classroom.harness import SmallRun as _Run
from classroom.harness import SmallStep as _Step

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex8.fit_result", "agentlib.delegate:fit", cells="served")  # the setup's Team fits with it
own_work("ex8.wall_clock_steps", "agentlib.delegate:wall_clock_steps", "agentlib.delegate:task_of")
own_work("ex8.team_bill", "agentlib.delegate:totals", "agentlib.cost")

# ---------------------------------------------------------------- ex8.fit_result

FIT_HINT = ("if tokens.count_text(text) <= max_tokens return text; else split it on '\\n' and "
            "keep the first k lines plus NOTICE.format(budget=max_tokens, more=<lines left "
            "out>) as the last line, with k as large as the budget allows (count the whole "
            "joined result)")

REPLY = ("Noted [16/16] services/eu-west/tax.conf: tax timeout_s = 120 (above 30)\nAnswer:\n"
         "auth: 45\nmedia: 40\nemail: 90\ntax: 120\nusers: 35\nledger: 60")
LINES = "\n".join(f"service-{i}: {30 + 5 * i}" for i in range(40))
TEXTS = [  # (text, budget): a free-form reply, a long result, mixed scripts, blank lines
    (REPLY, 30), (REPLY, 40), (REPLY, 52), (LINES, 24), (LINES, 100), (LINES, 250),
    ("résumé: 45\n日本語のサービス: 60\n\nemoji-✅: 90\n" * 6, 50),
    ("a very long first line " * 20 + "\nauth: 45", 30),
]


def _drawn_text(r) -> str:
    """A reply or a result drawn from `r`: lines of services and numbers, some blank."""
    return "\n".join("" if r.random() < 0.08 else
                     f"{r.choice(['svc', 'auth', '서비스', 'media-✅', 'eu/tax'])}-{r.randrange(999)}: "
                     f"{r.randrange(10, 400)}" + " ok" * r.randrange(0, 6)
                     for _ in range(r.randrange(4, 60)))


TEXTS += [(text, r.randrange(24, max(25, len(text) // 6))) for r in drawn(81, 4)
          for text in [_drawn_text(r)]]


def _notice(budget: int, more: int) -> str:
    from agentlib.delegate import NOTICE

    return NOTICE.format(budget=budget, more=more)


def _best_cut(text: str, budget: int) -> str:
    """The answer, by brute force: the most whole lines that fit with the notice."""
    from agentlib import tokens

    if tokens.count_text(text) <= budget:
        return text
    lines = text.split("\n")
    cuts = ["\n".join(lines[:k] + [_notice(budget, len(lines) - k)]) for k in range(len(lines))]
    return [c for c in cuts if tokens.count_text(c) <= budget][-1]


def _fit(ns: dict, text: str, budget: int) -> str:
    got = ns["fit_result"](text, budget)
    assert isinstance(got, str), f"fit_result should return a str, got {type(got).__name__}"
    return got


def _show(text: str, width: int = 90) -> str:
    return repr(text if len(text) <= width else text[:width] + "...")


@register("ex8.fit_result", "returns a result that fits unchanged", hint=FIT_HINT,
          needs=("fit_result",))
def _fit_unchanged(ns: dict) -> None:
    from agentlib import tokens

    exact = tokens.count_text(REPLY)
    extra = [(t, max(24, tokens.count_text(t) + r.randrange(0, 40))) for r in drawn(82, 2)
             for t in [_drawn_text(r)]]
    for text, budget in [(REPLY, exact), (REPLY, 500), ("none", 24), ("", 24), *extra]:
        got = _fit(ns, text, budget)
        assert got == text, (f"{_show(text)} takes {tokens.count_text(text)} tokens, within "
                             f"max_tokens={budget}: return it as it is; got {_show(got)}")


@register("ex8.fit_result", "never goes over the budget", hint=FIT_HINT, needs=("fit_result",))
def _fit_within(ns: dict) -> None:
    from agentlib import tokens

    for text, budget in TEXTS:
        got = _fit(ns, text, budget)
        n = tokens.count_text(got)
        assert n <= budget, (f"fit_result({_show(text, 50)}, {budget}) returned {n} tokens, "
                             f"over the budget: count the notice too: {_show(got)}")


@register("ex8.fit_result", "cuts at whole lines from the start and says how many are not shown",
          hint=FIT_HINT, needs=("fit_result",))
def _fit_lines(ns: dict) -> None:
    for text, budget in TEXTS:
        got = _fit(ns, text, budget)
        lines, out = text.split("\n"), got.split("\n")
        k = len(out) - 1
        assert out[:k] == lines[:k], (
            f"fit_result({_show(text, 50)}, {budget}) should keep whole lines from the start; "
            f"got {_show(got)}")
        want = _notice(budget, len(lines) - k)
        assert out[-1] == want, (f"after {k} whole lines the last line should be the notice "
                                 f"{want!r}; got {out[-1]!r}")


@register("ex8.fit_result", "keeps as many lines as the budget allows", hint=FIT_HINT,
          needs=("fit_result",))
def _fit_most(ns: dict) -> None:
    for text, budget in TEXTS:
        got, want = _fit(ns, text, budget), _best_cut(text, budget)
        kept, best = got.count("\n"), want.count("\n")
        assert got == want, (f"fit_result({_show(text, 50)}, {budget}) kept {kept} lines; "
                             f"{best} fit with the notice: {_show(want)}")


@register("ex8.fit_result", "agrees with agentlib.delegate.fit", hint=FIT_HINT,
          needs=("fit_result",))
def _fit_agrees(ns: dict) -> None:
    from agentlib.delegate import fit

    for text, budget in TEXTS + [(REPLY, 24), (LINES, 60)]:
        got, want = _fit(ns, text, budget), fit(text, budget)
        assert got == want, (f"fit_result({_show(text, 50)}, {budget}) gave {_show(got)}; "
                             f"agentlib.delegate.fit gives {_show(want)}")


# ---------------------------------------------------------------- runs for the checks


def _plain(n: int, *calls) -> _Run:
    """A run of `n` steps; the first ones make the tool calls given, one list per step."""
    steps = [_Step(1_000, 50, tool_calls=list(c)) for c in calls]
    return _Run(steps + [_Step(1_000, 50) for _ in range(n - len(steps))])


def _delegates(k: int) -> list:
    return [("delegate", {"task": f"sub-task {i}"}) for i in range(k)]


@lru_cache(maxsize=1)
def _team():
    """A real team, offline: a lead and 3 sub-agents on an audit of 24 files in 3 folders."""
    from dataclasses import replace

    from agentlib.delegate import LEAD_RULES, Team
    from agentlib.loop import DEFAULT_SYSTEM, run_agent
    from agentlib.tools import Toolbox
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex8-") as root:
        audit = workloads.audit(24, seed=seed(5), folders=3, root=root)
        client = connect(offline=True)
        team = Team(client, audit.toolbox, budget=120)
        work = replace(audit, toolbox=Toolbox([audit.workspace.list_files]) + team.toolbox())
        lead = run_agent(client, work, system=f"{DEFAULT_SYSTEM} {LEAD_RULES}",
                         max_tokens=1024, cache=True, label="lead")
    assert lead.score.success and len(team.runs) == 3, "the check's team failed (a bug)"
    return lead, list(team.runs)


# ---------------------------------------------------------------- ex8.wall_clock_steps

WALL_HINT = ("walk the lead's steps: each adds 1, and a step with delegate calls also adds "
             "the largest .calls among the sub-runs it started (the next ones in the list, "
             "one per delegate call); other tool calls start no sub-run")


def reference_wall(lead, subs) -> int:
    """WALL_HINT, as code: the longest chain of requests that wait for one another."""
    total, started = 0, 0
    for step in lead.steps:
        k = sum(1 for name, _ in step.tool_calls if name == "delegate")
        total += 1 + max((s.calls for s in subs[started:started + k]), default=0)
        started += k
    return total


def _drawn_team(r, delegating: bool = True, together: bool = True):
    """A lead and its sub-runs drawn from `r`: (lead, subs)."""
    calls, subs = [], []
    for _ in range(r.randrange(2, 8)):
        k = r.randrange(0, 4 if together else 2) if delegating else 0
        calls.append([("list_files", {})] * r.randrange(0, 2) + _delegates(k))
        subs += [_plain(r.randrange(1, 15)) for _ in range(k)]
    return _plain(len(calls) + r.randrange(0, 3), *calls), subs


def _drawn_walls(ns: dict, public: int, **kinds) -> None:
    for r in drawn(public, 2):
        lead, subs = _drawn_team(r, **kinds)
        got, want = _wall(ns, lead, subs), reference_wall(lead, subs)
        assert got == want, (f"a lead of {lead.calls} requests with sub-runs of "
                             f"{[s.calls for s in subs]} requests: {want} steps, got {got}")


def _wall(ns: dict, lead, subs) -> int:
    got = ns["wall_clock_steps"](lead, list(subs))
    assert isinstance(got, int) and not isinstance(got, bool), \
        f"wall_clock_steps should return an int, got {type(got).__name__} {got!r}"
    return got


@register("ex8.wall_clock_steps", "a lead that never delegates: its own requests",
          hint=WALL_HINT, needs=("wall_clock_steps",))
def _wall_alone(ns: dict) -> None:
    lead = _plain(4, [("list_files", {})], [("read_file", {"path": "a.conf"})])
    got = _wall(ns, lead, [])
    assert got == 4, f"4 requests, no delegate call: 4 steps, got {got}"
    _drawn_walls(ns, 83, delegating=False)


@register("ex8.wall_clock_steps", "sub-agents started in one step run side by side: the longest counts",
          hint=WALL_HINT, needs=("wall_clock_steps",))
def _wall_parallel(ns: dict) -> None:
    lead = _plain(3, [("list_files", {})], _delegates(3))
    subs = [_plain(5), _plain(9), _plain(7)]
    got = _wall(ns, lead, subs)
    assert got == 3 + 9, (f"a lead of 3 requests whose second starts sub-runs of 5, 9 and 7 "
                          f"requests side by side: 3 + 9 = 12 steps, got {got}"
                          + (" (that adds them up, as if they ran one after another)"
                             if got == 3 + 21 else ""))
    _drawn_walls(ns, 84)


@register("ex8.wall_clock_steps", "sub-agents started in different steps wait for each other",
          hint=WALL_HINT, needs=("wall_clock_steps",))
def _wall_sequential(ns: dict) -> None:
    lead = _plain(4, [("list_files", {}), *_delegates(1)], _delegates(1), _delegates(2))
    subs = [_plain(4), _plain(6), _plain(2), _plain(8)]
    got = _wall(ns, lead, subs)
    want = 4 + 4 + 6 + 8
    assert got == want, (
        f"a lead of 4 requests: the first (with a list_files call too) starts a sub-run of 4 "
        f"requests, the second one of 6, the third two of 2 and 8 side by side: {want} "
        f"steps, got {got}")
    _drawn_walls(ns, 85, together=False)


@register("ex8.wall_clock_steps", "agrees with agentlib.delegate.wall_clock_steps on a real team",
          hint=WALL_HINT, needs=("wall_clock_steps",))
def _wall_real(ns: dict) -> None:
    from agentlib.delegate import wall_clock_steps

    lead, subs = _team()
    got, want = _wall(ns, lead, subs), wall_clock_steps(lead, subs)
    assert got == want, (f"a lead of {lead.calls} requests with sub-runs of "
                         f"{[s.calls for s in subs]} requests: {want} steps, got {got}")


# ---------------------------------------------------------------- ex8.team_bill

PRICES = {"input": 3.00, "output": 15.00, "cache_write": 3.75, "cache_read": 0.30}
BILL_HINT = ("add up over [lead, *subruns]: requests (steps), input_tokens, and dollars as "
             "in ex7.run_cost: (input_tokens - cache_read - cache_write) at the input price, "
             "cache_read and cache_write at theirs, output at the output price, per million")


def _reference_bill(runs, prices) -> dict:
    dollars = sum((s.input_tokens - s.cache_read - s.cache_write) * prices["input"]
                  + s.cache_read * prices["cache_read"] + s.cache_write * prices["cache_write"]
                  + s.output_tokens * prices["output"] for r in runs for s in r.steps) / 1e6
    return {"requests": sum(len(r.steps) for r in runs),
            "input_tokens": sum(s.input_tokens for r in runs for s in r.steps),
            "cost_usd": dollars}


def _drawn_run(r, cached: bool = True) -> _Run:
    steps = []
    for _ in range(r.randrange(1, 6)):
        total = r.randrange(500, 40_000)
        read = r.randrange(0, total // 2) if cached else 0
        write = r.randrange(0, (total - read) // 3) if cached else 0
        steps.append(_Step(total, r.randrange(1, 800), cache_read=read, cache_write=write))
    return _Run(steps)


def _drawn_bills(ns: dict, public: int, cached: bool = True, priced: bool = False) -> None:
    for r in drawn(public, 2):
        runs = [_drawn_run(r, cached) for _ in range(r.randrange(1, 5))]
        prices = dict(PRICES)
        if priced:
            i = r.choice([0.8, 1.0, 2.5, 5.0])
            prices = {"input": i, "output": i * 5, "cache_write": i * 1.25, "cache_read": i / 10}
        got, want = _bill(ns, runs[0], runs[1:], prices), _reference_bill(runs, prices)
        assert _same(got, want), (f"a lead and {len(runs) - 1} sub-runs at prices {prices}: "
                                  f"{_fmt(want)}; got {got!r:.200}")


def _bill(ns: dict, lead, subs, prices=None) -> dict:
    got = ns["team_bill"](lead, list(subs), dict(PRICES if prices is None else prices))
    assert isinstance(got, dict) and {"requests", "input_tokens", "cost_usd"} <= set(got), \
        f"team_bill should return a dict with requests, input_tokens and cost_usd; got {got!r:.200}"
    return got


def _same(got: dict, want: dict) -> bool:
    return got["requests"] == want["requests"] and got["input_tokens"] == want["input_tokens"] \
        and math.isclose(got["cost_usd"], want["cost_usd"], rel_tol=1e-9, abs_tol=1e-12)


def _fmt(bill: dict) -> str:
    return (f"{bill['requests']} requests, {bill['input_tokens']:,} input tokens, "
            f"${bill['cost_usd']:.6f}")


@register("ex8.team_bill", "counts the lead and every sub-agent", hint=BILL_HINT,
          needs=("team_bill",))
def _bill_everyone(ns: dict) -> None:
    lead, subs = _plain(3), [_plain(5), _plain(2)]
    got, want = _bill(ns, lead, subs), _reference_bill([lead, *subs], PRICES)
    assert _same(got, want), (f"a lead of 3 requests and sub-runs of 5 and 2, 1,000 input and "
                              f"50 output tokens each: {_fmt(want)}; got {got!r:.200}")
    alone = _bill(ns, lead, [])
    assert _same(alone, _reference_bill([lead], PRICES)), \
        f"with no sub-runs the bill is the lead's own; got {alone!r:.200}"
    _drawn_bills(ns, 86, cached=False)


@register("ex8.team_bill", "bills every step with the prompt cache", hint=BILL_HINT,
          needs=("team_bill",))
def _bill_cache(ns: dict) -> None:
    lead = _Run([_Step(4_000, 100, cache_write=3_500), _Step(4_500, 80, cache_read=3_500)])
    sub = _Run([_Step(2_000, 40, cache_write=1_500), _Step(9_000, 60, cache_read=8_000,
                                                            cache_write=600)])
    got, want = _bill(ns, lead, [sub]), _reference_bill([lead, sub], PRICES)
    assert _same(got, want), (f"two cached runs: {_fmt(want)}; got {got!r:.200}. "
                              "input_tokens already includes the cached tokens")
    _drawn_bills(ns, 87)


@register("ex8.team_bill", "uses the prices it is given", hint=BILL_HINT, needs=("team_bill",))
def _bill_prices(ns: dict) -> None:
    prices = {"input": 1.0, "output": 5.0, "cache_write": 1.25, "cache_read": 0.1}
    lead, sub = _Run([_Step(8_000, 300, cache_read=5_000, cache_write=2_000)]), _plain(2)
    got, want = _bill(ns, lead, [sub], prices), _reference_bill([lead, sub], prices)
    assert _same(got, want), (f"with prices {prices}, the bill is {_fmt(want)}; "
                              f"got {got!r:.200}")
    _drawn_bills(ns, 88, priced=True)


@register("ex8.team_bill", "agrees with agentlib.delegate.totals on a real team", hint=BILL_HINT,
          needs=("team_bill",))
def _bill_real(ns: dict) -> None:
    from agentlib.delegate import totals
    from coursekit.bench import PRICES as BENCH_PRICES

    lead, subs = _team()
    got = _bill(ns, lead, subs, {k: BENCH_PRICES[k] for k in PRICES})
    want = totals([lead, *subs])
    want = {"requests": want["calls"], "input_tokens": want["input_tokens"],
            "cost_usd": want["cost_usd"]}
    assert _same(got, want), (f"the team (a lead and {len(subs)} sub-agents): {_fmt(want)}; "
                              f"got {got!r:.200}")
