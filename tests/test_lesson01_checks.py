"""Lesson 01's checks pass the right answers and fail the known wrong ones.

Each wrong implementation is a mistake a learner makes; the test names the check that
must catch it (and that every other check of the exercise still runs without crashing).
"""

import math

import pytest
from checktools import statuses

from classroom.grading import run_checks

# ---------------------------------------------------------------- ex1.agent_loop


def _loop(client, workload, *, model, system, max_tokens=1024, max_steps=30,
          mistake=None):
    history = [{"role": "user", "content": workload.task}]
    input_tokens = []
    for _ in range(max_steps):
        sent = history[-1:] if mistake == "last_only" else history
        response = client.messages.create(model=model, max_tokens=max_tokens, system=system,
                                          tools=workload.tools, messages=sent)
        input_tokens.append(response.usage.output_tokens if mistake == "output"
                            else response.usage.input_tokens)
        reply = {"role": "assistant", "content": [b.to_dict() for b in response.content]}
        if mistake != "no_reply":
            history.append(reply)
        if response.stop_reason != "tool_use" and mistake != "never_stops":
            break
        if response.stop_reason == "tool_use":
            history.append(workload.toolbox.run_all(reply))
        else:
            history.append({"role": "user", "content": "Go on."})
    return history, input_tokens


def _with(mistake):
    def agent_loop(client, workload, **kw):
        return _loop(client, workload, mistake=mistake, **kw)
    return agent_loop


def test_agent_loop_right_answer_passes():
    assert set(statuses("ex1.agent_loop", agent_loop=_with(None)).values()) == {"pass"}


def test_agent_loop_with_sdk_blocks_in_history_passes():
    def agent_loop(client, workload, *, model, system, max_tokens=1024, max_steps=30):
        history, input_tokens = [{"role": "user", "content": workload.task}], []
        for _ in range(max_steps):
            response = client.messages.create(model=model, max_tokens=max_tokens,
                                              system=system, tools=workload.tools,
                                              messages=history)
            input_tokens.append(response.usage.input_tokens)
            history.append({"role": "assistant", "content": response.content})
            if response.stop_reason != "tool_use":
                break
            history.append(workload.toolbox.run_all(history[-1]))
        return history, input_tokens

    assert set(statuses("ex1.agent_loop", agent_loop=agent_loop).values()) == {"pass"}


@pytest.mark.parametrize("mistake, title", [
    ("last_only", "re-sends the whole history on every request"),
    ("no_reply", "re-sends the whole history on every request"),
    ("output", "re-sends the whole history on every request"),
    ("never_stops", "stops when the model stops asking for tools, with the answer"),
])
def test_agent_loop_known_mistakes_fail(mistake, title):
    got = statuses("ex1.agent_loop", agent_loop=_with(mistake))
    assert got[title] == "fail", got


def test_agent_loop_that_ignores_max_steps_fails_exactly_the_stop_check():
    def agent_loop(client, workload, *, model, system, max_tokens=1024, max_steps=30):
        return _loop(client, workload, model=model, system=system, max_tokens=max_tokens,
                     max_steps=30)  # max_steps ignored

    got = statuses("ex1.agent_loop", agent_loop=agent_loop)
    assert {t for t, s in got.items() if s != "pass"} == {
        "stops when the model stops asking for tools, with the answer"}


def test_agent_loop_api_rejection_is_a_fail_with_the_api_message():
    results = run_checks("ex1.agent_loop", {"agent_loop": _with("no_reply")})
    detail = next(r.detail for r in results if r.status == "fail")
    assert "the API rejected a request with 400" in detail
    assert "tool_use_id" in detail


def test_agent_loop_wrong_return_shape_fails():
    def agent_loop(client, workload, **kw):
        return _loop(client, workload, **kw)[1]  # only the token list

    got = statuses("ex1.agent_loop", agent_loop=agent_loop)
    assert set(got.values()) == {"fail"}


# ---------------------------------------------------------------- ex1.estimate_tokens


def test_estimate_right_answer_passes():
    def estimate_tokens(text):
        return math.ceil(len(text) / 4)

    assert set(statuses("ex1.estimate_tokens", estimate_tokens=estimate_tokens).values()) \
        == {"pass"}


@pytest.mark.parametrize("wrong, title", [
    (lambda t: len(t) // 4, "rounds up: 5 characters are 2 tokens"),
    (lambda t: round(len(t) / 4), "rounds up: 5 characters are 2 tokens"),
    (lambda t: len(t) // 4 + 1, "exact multiples of 4 do not round up; empty is 0"),
    (lambda t: math.ceil(len(t.encode("utf-8")) / 4), "counts characters, not UTF-8 bytes"),
    (lambda t: len(t) / 4, "rounds up: 5 characters are 2 tokens"),
    (lambda t: -(-len(t) // 4) if t.isascii() else len(t),
     "counts characters, not UTF-8 bytes"),
])
def test_estimate_known_mistakes_fail(wrong, title):
    got = statuses("ex1.estimate_tokens", estimate_tokens=wrong)
    assert got[title] == "fail", got


def test_estimate_as_a_numpy_int_passes():
    import numpy as np

    assert set(statuses("ex1.estimate_tokens",
                        estimate_tokens=lambda t: np.int64(math.ceil(len(t) / 4))).values()) \
        == {"pass"}


# ---------------------------------------------------------------- ex1.session_cost


def _right_cost(input_tokens, output_tokens, *, input_price=3.0, output_price=15.0):
    return (sum(input_tokens) * input_price + sum(output_tokens) * output_price) / 1e6


def test_cost_right_answer_passes():
    assert set(statuses("ex1.session_cost", session_cost=_right_cost).values()) == {"pass"}


def test_cost_as_a_decimal_passes():
    from decimal import Decimal

    def session_cost(input_tokens, output_tokens, *, input_price=3.0, output_price=15.0):
        return (Decimal(sum(input_tokens)) * Decimal(str(input_price))
                + Decimal(sum(output_tokens)) * Decimal(str(output_price))) / Decimal(1_000_000)

    assert set(statuses("ex1.session_cost", session_cost=session_cost).values()) == {"pass"}


@pytest.mark.parametrize("wrong, title", [
    (lambda i, o, *, input_price=3.0, output_price=15.0:
     ((i[-1] if i else 0) * input_price + sum(o) * output_price) / 1e6,
     "bills every request for everything it sent"),
    (lambda i, o, *, input_price=3.0, output_price=15.0:
     (sum(i) * input_price + sum(o) * output_price) / 1e3,
     "prices are per million tokens"),
    (lambda i, o, *, input_price=3.0, output_price=15.0: sum(i) * input_price / 1e6,
     "output tokens are billed at the output price"),
    (lambda i, o, *, input_price=3.0, output_price=15.0:
     (sum(i) + sum(o)) * input_price / 1e6,
     "output tokens are billed at the output price"),
    (lambda i, o, *, input_price=3.0, output_price=15.0: (sum(i) * 3.0 + sum(o) * 15.0) / 1e6,
     "uses the prices it is given; an empty session costs 0"),
])
def test_cost_known_mistakes_fail(wrong, title):
    got = statuses("ex1.session_cost", session_cost=wrong)
    assert got[title] == "fail", got


# ---------------------------------------------------------------- ex1.first_overflow


def _right_overflow(input_tokens, window, max_tokens=0):
    for i, n in enumerate(input_tokens):
        if n + max_tokens > window:
            return i
    return None


def test_overflow_right_answer_passes():
    assert set(statuses("ex1.first_overflow", first_overflow=_right_overflow).values()) \
        == {"pass"}


def test_overflow_as_a_numpy_int_passes():
    import numpy as np

    def first_overflow(input_tokens, window, max_tokens=0):
        found = _right_overflow(input_tokens, window, max_tokens)
        return None if found is None else np.int64(found)

    assert set(statuses("ex1.first_overflow", first_overflow=first_overflow).values()) \
        == {"pass"}


def _ge(input_tokens, window, max_tokens=0):
    return next((i for i, n in enumerate(input_tokens) if n + max_tokens >= window), None)


def _minus_one(input_tokens, window, max_tokens=0):
    got = _right_overflow(input_tokens, window, max_tokens)
    return -1 if got is None else got


def _value(input_tokens, window, max_tokens=0):
    return next((n for n in input_tokens if n + max_tokens > window), None)


def _no_reserve(input_tokens, window, max_tokens=0):
    return _right_overflow(input_tokens, window)


def _last(input_tokens, window, max_tokens=0):
    over = [i for i, n in enumerate(input_tokens) if n + max_tokens > window]
    return over[-1] if over else None


def _false(input_tokens, window, max_tokens=0):
    got = _right_overflow(input_tokens, window, max_tokens)
    return False if got is None else got


@pytest.mark.parametrize("wrong, title", [
    (_ge, "a request exactly as long as the window still fits"),
    (_minus_one, "returns None when every step fits (not -1, not False)"),
    (_false, "returns None when every step fits (not -1, not False)"),
    (_value, "finds the index of the first step that does not fit"),
    (_no_reserve, "reserves room for max_tokens"),
    (_no_reserve, "predicts where the lesson's audit(12) run fails"),
    (_last, "finds the index of the first step that does not fit"),
])
def test_overflow_known_mistakes_fail(wrong, title):
    got = statuses("ex1.first_overflow", first_overflow=wrong)
    assert got[title] == "fail", got


def test_the_lesson_run_the_overflow_check_uses_is_refused_under_any_secret(monkeypatch):
    """Under the grader's secret the audit is drawn, and about one draw in thirteen fits the
    8,000-token window: the check then takes the next draw, never a run that was not refused
    (CI saw the solution lose a point to it)."""
    from classroom import grading
    from classroom.checks import lesson01

    for secret in range(40):
        monkeypatch.setattr(grading, "_SECRET", secret)
        lesson01._lesson_runs.cache_clear()
        per_step, refused = lesson01._lesson_runs()
        assert any(n + 128 > 8000 for n in per_step[:refused + 1]), (secret, refused)
    monkeypatch.setattr(grading, "_SECRET", None)
    lesson01._lesson_runs.cache_clear()
