"""Lesson 01b's checks pass the right answers and fail the known wrong ones.

Each wrong implementation is a mistake a learner makes with the prompt cache; the test names
the check that must catch it.
"""

import copy

import pytest
from checktools import statuses

MARK = {"type": "ephemeral"}

# ---------------------------------------------------------------- ex1b.place_breakpoints


def _blocks(content):
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def _place(request, mistake=None):
    out = request if mistake == "mutates" else copy.deepcopy(request)
    system = out.get("system")
    if isinstance(system, str) and mistake != "string_system":
        system = [{"type": "text", "text": system}]
    if isinstance(system, list):
        out["system"] = [*system[:-1], {**system[-1], "cache_control": MARK}]
    if mistake == "only_system":
        return out
    messages = []
    for m in out["messages"]:
        content = _blocks(m["content"])
        if mistake != "keeps_old":
            content = [{k: v for k, v in b.items() if k != "cache_control"} for b in content]
        messages.append({**m, "content": content})
    last = messages[-1]["content"]
    i = 0 if mistake == "first_block" else -1
    last[i] = {**last[i], "cache_control": MARK}
    if mistake == "mutates":
        request["messages"] = messages
        return request
    out["messages"] = messages
    return out


def _place_with(mistake):
    return lambda request: _place(request, mistake)


def test_place_breakpoints_right_answer_passes():
    assert set(statuses("ex1b.place_breakpoints",
                        place_breakpoints=_place_with(None)).values()) == {"pass"}


@pytest.mark.parametrize("mistake, failing", [
    ("only_system", {"marks the end of the system prompt and the newest block, nothing else",
                     "in a loop, every request reads the whole previous prompt, within 4 "
                     "breakpoints"}),
    ("keeps_old", {"marks the end of the system prompt and the newest block, nothing else",
                   "in a loop, every request reads the whole previous prompt, within 4 "
                   "breakpoints"}),
    ("string_system", {"marks the end of the system prompt and the newest block, nothing "
                       "else"}),
    ("first_block", {"marks the end of the system prompt and the newest block, nothing else"}),
    ("mutates", {"does not change its input"}),
])
def test_place_breakpoints_known_mistakes_fail(mistake, failing):
    got = statuses("ex1b.place_breakpoints", place_breakpoints=_place_with(mistake))
    assert {t for t, s in got.items() if s != "pass"} >= failing, got
    assert all(got[t] == "fail" for t in failing), got


def test_keeping_old_breakpoints_is_refused_by_the_api_in_the_loop():
    from classroom.grading import run_checks

    results = run_checks("ex1b.place_breakpoints", {"place_breakpoints": _place_with("keeps_old")})
    loop = next(r for r in results if r.check.startswith("in a loop"))
    assert "A maximum of 4 blocks with cache_control may be provided" in loop.detail

# ---------------------------------------------------------------- ex1b.bill_from_usage


def _bill(usages, prices, cached=True, mistake=None):
    total = 0.0
    for u in usages:
        written, read = u["cache_creation_input_tokens"], u["cache_read_input_tokens"]
        hour = 0 if mistake == "all_5m" else u["cache_creation"]["ephemeral_1h_input_tokens"]
        fresh = u["input_tokens"] - written - read if mistake == "as_total" else u["input_tokens"]
        if cached:
            total += (fresh * prices["input"] + read * prices["cache_read"]
                      + (written - hour) * prices["cache_write_5m"] + hour * prices["cache_write_1h"])
        elif mistake == "uncached_input_only":
            total += u["input_tokens"] * prices["input"]
        else:
            total += (u["input_tokens"] + written + read) * prices["input"]
        if mistake != "no_output":
            total += u["output_tokens"] * prices["output"]
    return total / (1_000 if mistake == "per_thousand" else 1_000_000)


def _bill_with(mistake):
    def bill_from_usage(usages, prices, cached=True):
        return _bill(usages, prices, cached, mistake)
    return bill_from_usage


def test_bill_from_usage_right_answer_passes():
    assert set(statuses("ex1b.bill_from_usage",
                        bill_from_usage=_bill_with(None)).values()) == {"pass"}


@pytest.mark.parametrize("mistake, failing", [
    ("as_total", {"input_tokens is only the uncached part: reads and writes are billed once, "
                  "at their own prices", "agrees with agentlib.cost.bill on a real cached run"}),
    ("all_5m", {"1-hour writes at the 1-hour price, 5-minute writes at the 5-minute price",
                "agrees with agentlib.cost.bill on a real cached run"}),
    ("per_thousand", {"input_tokens is only the uncached part: reads and writes are billed "
                      "once, at their own prices"}),
    ("no_output", {"input_tokens is only the uncached part: reads and writes are billed once, "
                   "at their own prices", "cached=False: the same prompt, every token at the "
                   "input price"}),
    ("uncached_input_only", {"cached=False: the same prompt, every token at the input price",
                             "agrees with agentlib.cost.bill on a real cached run"}),
])
def test_bill_from_usage_known_mistakes_fail(mistake, failing):
    got = statuses("ex1b.bill_from_usage", bill_from_usage=_bill_with(mistake))
    assert all(got[t] == "fail" for t in failing), got

# ---------------------------------------------------------------- ex1b.first_divergence


def _divergence(previous, current, mistake=None):
    def bare(x):
        if isinstance(x, dict):
            return {k: bare(v) for k, v in x.items()
                    if k != "cache_control" or mistake == "with_marks"}
        if isinstance(x, list):
            return [bare(v) for v in x]
        return x

    order = ["model", "system", "tools"] if mistake == "system_first" else \
        ["model", "tools", "system"]
    for part in order:
        if bare(previous.get(part)) != bare(current.get(part)):
            return f"{part}_changed"
    if mistake != "ignores_settings" and any(previous.get(k) != current.get(k)
                                             for k in ("thinking", "tool_choice")):
        return "unavailable"
    before, now = bare(previous["messages"]), bare(current["messages"])
    if (now != before) if mistake == "whole_list" else (now[:len(before)] != before):
        return "messages_changed"
    return None


def _divergence_with(mistake):
    return lambda previous, current: _divergence(previous, current, mistake)


def test_first_divergence_right_answer_passes():
    assert set(statuses("ex1b.first_divergence",
                        first_divergence=_divergence_with(None)).values()) == {"pass"}


@pytest.mark.parametrize("mistake, failing", [
    ("with_marks", "None when the request only appends (a moved breakpoint is no change)"),
    ("whole_list", "None when the request only appends (a moved breakpoint is no change)"),
    ("system_first", "names the earliest of model, tools, system"),
    ("ignores_settings", "an edited or removed old message is messages_changed; a changed "
                         "setting is unavailable"),
])
def test_first_divergence_known_mistakes_fail(mistake, failing):
    got = statuses("ex1b.first_divergence", first_divergence=_divergence_with(mistake))
    assert got[failing] == "fail" and got["agrees with the API's cache diagnostics on every "
                                          "case"] == "fail", got


def test_a_wrong_type_is_reported_not_raised():
    got = statuses("ex1b.first_divergence", first_divergence=lambda a, b: 0)
    assert set(got.values()) == {"fail"}, got

# ---------------------------------------------------------------- the class grader's assignment


def test_the_grader_knows_assignment_01b(tmp_path):
    from classroom.grader import assignments

    course = assignments.course_assignments()
    assert course["01b"] == ["ex1b.place_breakpoints", "ex1b.bill_from_usage",
                             "ex1b.first_divergence"]
    assert all(not ex.startswith("ex1b.") for ex in course["01"])
    for name in ("1b", "01b", "01B", "01b_the_prompt_cache", "lesson01b", "ex1b"):
        assert assignments.normalize(name) == "01b", name
    assert assignments.normalize("02b_notes") == "02"  # a letter that names no part
    assert assignments.normalize("01_append_only_growth") == "01"
    sub = assignments.Submission("alice", tmp_path / "whatever.ipynb",
                                 declared=["ex1b.bill_from_usage", "ex1b.first_divergence"])
    assert assignments.infer(sub) == "01b"
    assert [c[0] for c in assignments.columns("01b")].count("ex1b.bill_from_usage") == 4

# ---------------------------------------------------------------- inputs drawn when grading


@pytest.fixture
def secret():
    """Lesson 1b's checks as the class grader loads them: inputs drawn from a secret."""
    import importlib

    from classroom import grading
    from classroom.checks import lesson01b

    grading.use_secret(20261204)
    importlib.reload(lesson01b)
    yield lesson01b
    grading.use_secret(None)
    importlib.reload(lesson01b)


RIGHT = {"ex1b.place_breakpoints": ("place_breakpoints", _place_with(None)),
         "ex1b.bill_from_usage": ("bill_from_usage", _bill_with(None)),
         "ex1b.first_divergence": ("first_divergence", _divergence_with(None))}


def _key(args: tuple, kwargs: dict) -> str:
    import json

    return json.dumps([args, kwargs], sort_keys=True, default=str)


def _precomputed(exercise: str):
    """Issue 39's attack 4: every input the shipped checks give, answered in advance by a
    right answer, and looked up at grading time (else nothing)."""
    name, right = RIGHT[exercise]
    table = {}

    def record(*args, **kwargs):
        table[_key(args, kwargs)] = answer = right(*copy.deepcopy(args), **kwargs)
        return answer
    statuses(exercise, **{name: record})
    return {name: lambda *args, **kwargs: copy.deepcopy(table.get(_key(args, kwargs), -1))}


def test_the_right_answers_pass_the_drawn_cases_too(secret):
    assert secret.AUDIT_SEED != 1 and len(secret._sets()) == 3
    for exercise, (name, fn) in RIGHT.items():
        assert set(statuses(exercise, **{name: fn}).values()) == {"pass"}, exercise


@pytest.mark.parametrize("exercise", sorted(RIGHT))
def test_a_table_of_the_shipped_cases_passes_check_but_not_the_grader(exercise):
    """In a learner's kernel the table passes every check (check() keeps the public cases);
    with the grader's secret every check that computes an answer fails it."""
    import importlib

    from classroom import grading
    from classroom.checks import lesson01b

    table = _precomputed(exercise)
    assert set(statuses(exercise, **table).values()) == {"pass"}
    grading.use_secret(20261204)
    try:
        importlib.reload(lesson01b)
        got = statuses(exercise, **table)
    finally:
        grading.use_secret(None)
        importlib.reload(lesson01b)
    passed = {t for t, s in got.items() if s == "pass"}
    assert passed <= {"does not change its input"}, got  # (a table changes nothing)
