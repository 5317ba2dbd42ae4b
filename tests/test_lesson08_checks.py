"""Lesson 08's checks pass the right answers and fail the known wrong ones.

Each wrong implementation is a mistake a learner makes; the test names the check that
must catch it.
"""

import pytest
from checktools import statuses, title

from agentlib import tokens
from agentlib.delegate import NOTICE

# ---------------------------------------------------------------- ex8.fit_result


def _notice(budget, more):
    return NOTICE.format(budget=budget, more=more)


def _right_fit(text, max_tokens):
    if tokens.count_text(text) <= max_tokens:
        return text
    lines, kept = text.split("\n"), 0
    while kept < len(lines) and tokens.count_text(
            "\n".join(lines[:kept + 1] + [_notice(max_tokens, len(lines) - kept - 1)])) <= max_tokens:
        kept += 1
    return "\n".join(lines[:kept] + [_notice(max_tokens, len(lines) - kept)])


def test_fit_right_answer_passes():
    assert set(statuses("ex8.fit_result", fit_result=_right_fit).values()) == {"pass"}


def _always_cut(text, max_tokens):
    lines, kept = text.split("\n"), 0
    while kept < len(lines) and tokens.count_text(
            "\n".join(lines[:kept + 1] + [_notice(max_tokens, len(lines) - kept - 1)])) <= max_tokens:
        kept += 1
    return "\n".join(lines[:kept] + [_notice(max_tokens, len(lines) - kept)])


def _no_notice(text, max_tokens):
    lines, kept = text.split("\n"), 0
    while kept < len(lines) and tokens.count_text("\n".join(lines[:kept + 1])) <= max_tokens:
        kept += 1
    return text if kept == len(lines) else "\n".join(lines[:kept])


def _notice_not_counted(text, max_tokens):
    if tokens.count_text(text) <= max_tokens:
        return text
    lines, kept = text.split("\n"), 0
    while kept < len(lines) and tokens.count_text("\n".join(lines[:kept + 1])) <= max_tokens:
        kept += 1
    return "\n".join(lines[:kept] + [_notice(max_tokens, len(lines) - kept)])


def _mid_line(text, max_tokens):  # lesson 3's cap by characters: half a line can lie
    if tokens.count_text(text) <= max_tokens:
        return text
    enc = tokens.encoding()
    more = text.count("\n")
    room = max_tokens - tokens.count_text("\n" + _notice(max_tokens, more))
    return enc.decode(enc.encode(text)[:room]) + "\n" + _notice(max_tokens, more)


def _counts_kept(text, max_tokens):
    out = _right_fit(text, max_tokens)
    if out == text:
        return out
    lines = out.split("\n")
    return "\n".join(lines[:-1] + [_notice(max_tokens, len(lines) - 1)])


def _one_short(text, max_tokens):
    out = _right_fit(text, max_tokens)
    if out == text:
        return out
    lines, all_lines = out.split("\n"), text.split("\n")
    kept = max(0, len(lines) - 2)
    return "\n".join(all_lines[:kept] + [_notice(max_tokens, len(all_lines) - kept)])


def _from_the_end(text, max_tokens):
    if tokens.count_text(text) <= max_tokens:
        return text
    lines, kept = text.split("\n"), 0
    while kept < len(lines) and tokens.count_text(
            "\n".join(lines[len(lines) - kept - 1:] + [_notice(max_tokens, len(lines) - kept - 1)])) \
            <= max_tokens:
        kept += 1
    return "\n".join(lines[len(lines) - kept:] + [_notice(max_tokens, len(lines) - kept)])


@pytest.mark.parametrize("wrong, start", [
    (_always_cut, "returns a result that fits unchanged"),
    (_no_notice, "cuts at whole lines"),
    (_notice_not_counted, "never goes over the budget"),
    (_mid_line, "cuts at whole lines"),
    (_counts_kept, "cuts at whole lines"),
    (_one_short, "keeps as many lines"),
    (_from_the_end, "cuts at whole lines"),
])
def test_fit_known_mistakes_fail(wrong, start):
    got = statuses("ex8.fit_result", fit_result=wrong)
    assert got[title("ex8.fit_result", start)] == "fail", got


# ---------------------------------------------------------------- ex8.wall_clock_steps


def _right_wall(lead, subruns):
    pending, chain = list(subruns), 0
    for step in lead.steps:
        k = sum(1 for name, _ in step.tool_calls if name == "delegate")
        mine, pending = pending[:k], pending[k:]
        chain += 1 + max((r.calls for r in mine), default=0)
    return chain


def test_wall_right_answer_passes():
    assert set(statuses("ex8.wall_clock_steps", wall_clock_steps=_right_wall).values()) \
        == {"pass"}


def _sum_all(lead, subruns):  # as if the sub-agents ran one after another
    return lead.calls + sum(r.calls for r in subruns)


def _lead_only(lead, subruns):
    return lead.calls


def _longest_overall(lead, subruns):
    return lead.calls + max((r.calls for r in subruns), default=0)


def _every_tool_starts_one(lead, subruns):
    pending, chain = list(subruns), 0
    for step in lead.steps:
        k = len(step.tool_calls)
        mine, pending = pending[:k], pending[k:]
        chain += 1 + max((r.calls for r in mine), default=0)
    return chain


def _as_float(lead, subruns):
    return float(_right_wall(lead, subruns))


@pytest.mark.parametrize("wrong, start", [
    (_sum_all, "sub-agents started in one step run side by side"),
    (_lead_only, "sub-agents started in one step run side by side"),
    (_longest_overall, "sub-agents started in different steps wait"),
    (_every_tool_starts_one, "sub-agents started in different steps wait"),
    (_every_tool_starts_one, "agrees with agentlib"),
    (_as_float, "a lead that never delegates"),
])
def test_wall_known_mistakes_fail(wrong, start):
    got = statuses("ex8.wall_clock_steps", wall_clock_steps=wrong)
    assert got[title("ex8.wall_clock_steps", start)] == "fail", got


# ---------------------------------------------------------------- ex8.team_bill


def _step_cost(s, prices, cached=True):
    fresh = s.input_tokens - s.cache_read - s.cache_write if cached else s.input_tokens
    cache = s.cache_read * prices["cache_read"] + s.cache_write * prices["cache_write"]
    return (fresh * prices["input"] + (cache if cached else 0)
            + s.output_tokens * prices["output"]) / 1e6


def _right_bill(lead, subruns, prices):
    runs = [lead, *subruns]
    return {"requests": sum(len(r.steps) for r in runs),
            "input_tokens": sum(s.input_tokens for r in runs for s in r.steps),
            "cost_usd": sum(_step_cost(s, prices) for r in runs for s in r.steps)}


def test_bill_right_answer_passes():
    assert set(statuses("ex8.team_bill", team_bill=_right_bill).values()) == {"pass"}


def _lead_only_bill(lead, subruns, prices):
    return _right_bill(lead, [], prices)


def _no_cache(lead, subruns, prices):
    bill = _right_bill(lead, subruns, prices)
    bill["cost_usd"] = sum(_step_cost(s, prices, cached=False) for r in [lead, *subruns]
                           for s in r.steps)
    return bill


def _fixed_prices(lead, subruns, prices):
    return _right_bill(lead, subruns, {"input": 3.0, "output": 15.0, "cache_write": 3.75,
                                       "cache_read": 0.3})


def _wrong_keys(lead, subruns, prices):
    bill = _right_bill(lead, subruns, prices)
    return {"calls": bill["requests"], "input_tokens": bill["input_tokens"],
            "cost_usd": bill["cost_usd"]}


def _sub_runs_only(lead, subruns, prices):
    return _right_bill(subruns[0], subruns[1:], prices) if subruns else _right_bill(lead, [], prices)


@pytest.mark.parametrize("wrong, start", [
    (_lead_only_bill, "counts the lead and every sub-agent"),
    (_lead_only_bill, "agrees with agentlib"),
    (_sub_runs_only, "counts the lead and every sub-agent"),
    (_no_cache, "bills every step with the prompt cache"),
    (_fixed_prices, "uses the prices it is given"),
    (_wrong_keys, "counts the lead and every sub-agent"),
])
def test_bill_known_mistakes_fail(wrong, start):
    got = statuses("ex8.team_bill", team_bill=wrong)
    assert got[title("ex8.team_bill", start)] == "fail", got
