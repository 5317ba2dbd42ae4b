"""The meter, the budget and the client-side window: on every client `connect()` makes,
sync and async, streamed or not, through the real SDK."""

import asyncio
import json
import re

import anthropic
import pytest

import agentlib
import coursekit
from agentlib import meter, models
from agentlib.loop import run_agent
from agentlib.messages import user
from coursekit import profile, workloads

MODEL = models.OFFLINE_MODEL
ASK = {"model": MODEL, "max_tokens": 256, "messages": [user("Hello")]}


@pytest.fixture(autouse=True)
def fresh_process_meter(monkeypatch):
    """Each test starts with an empty process meter and no budget unless it sets one."""
    monkeypatch.delenv("AGENTLIB_BUDGET_USD", raising=False)
    monkeypatch.delenv("AGENTLIB_PROFILE", raising=False)
    monkeypatch.setattr(meter, "_PROCESS", None)


def by_hand(usage: dict, model: str = MODEL) -> float:
    p = models.prices(model)
    written = usage["cache_creation_input_tokens"]
    return (usage["input_tokens"] * p.input + written * p.cache_write_5m
            + usage["cache_read_input_tokens"] * p.cache_read
            + usage["output_tokens"] * p.output) / 1e6


def test_every_response_is_metered_and_priced_with_the_catalog():
    client = agentlib.connect(offline=True)
    r = client.messages.create(**ASK)
    u = client.usage.usage
    assert (u.calls, u.input_tokens, u.output_tokens) == (1, r.usage.input_tokens,
                                                          r.usage.output_tokens)
    assert u.usd == pytest.approx(by_hand(r.usage.model_dump()))
    client.messages.count_tokens(model=MODEL, messages=[user("Hello")])  # free, not a call
    assert client.usage.usage.calls == 1
    other = agentlib.connect(offline=True)
    other.messages.create(**ASK)
    assert meter.process().usage.calls == 2 and client.usage.usage.calls == 1
    assert "2 calls" in repr(meter.process()) and "no budget" in repr(client.usage)


def test_cache_reads_and_writes_are_priced_apart():
    client = agentlib.connect(offline=True)
    run = run_agent(client, workloads.audit(6), cache=True)
    u = client.usage.usage
    assert u.cache_read == sum(s.cache_read for s in run.steps) > 0
    assert u.cache_write_5m == sum(s.cache_write for s in run.steps) > 0
    p = models.prices(MODEL)
    fresh = run.total_input_tokens - u.cache_read - u.cache_write_5m
    assert u.usd == pytest.approx((fresh * p.input + u.cache_read * p.cache_read
                                   + u.cache_write_5m * p.cache_write_5m
                                   + run.total_output_tokens * p.output) / 1e6)


def test_streams_are_metered_once_read_sync_and_async():
    client = agentlib.connect(offline=True)
    with client.messages.stream(**ASK) as stream:
        final = stream.get_final_message()
    assert client.usage.usage.calls == 1
    assert client.usage.usage.output_tokens == final.usage.output_tokens
    assert client.usage.usage.input_tokens == final.usage.input_tokens

    async def both():
        aclient = agentlib.connect_async(offline=True)
        await aclient.messages.create(**ASK)
        async with aclient.messages.stream(**ASK) as s:
            await s.get_final_message()
        return aclient.usage.usage

    u = asyncio.run(both())
    assert u.calls == 2 and u.output_tokens == 2 * final.usage.output_tokens


def test_server_compaction_is_billed_too():
    usage = {"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0,
             "iterations": [{"type": "compaction", "input_tokens": 1000, "output_tokens": 50},
                            {"type": "message", "input_tokens": 100, "output_tokens": 10}]}
    p = models.prices(MODEL)
    assert meter.price(MODEL, usage).usd == pytest.approx(
        (1100 * p.input + 60 * p.output) / 1e6)
    unknown = meter.price("claude-not-in-the-catalog", usage)
    assert unknown.unpriced == {"claude-not-in-the-catalog"}  # priced as the default, said


def test_the_budget_refuses_before_sending_and_says_how_to_raise_it(monkeypatch):
    monkeypatch.setenv("AGENTLIB_BUDGET_USD", "0.03")
    client = agentlib.connect(offline=True)
    run = run_agent(client, workloads.audit(3), max_tokens=256)
    assert run.stopped == "answered"  # a small run fits in three cents
    sent = client.course_model.calls
    with pytest.raises(meter.BudgetExceeded) as caught:
        run_agent(client, workloads.audit(12), max_tokens=256)
    e = caught.value
    assert client.course_model.calls - sent == e.run.calls - 1  # the refused one never left
    message = str(e)
    assert "AGENTLIB_BUDGET_USD" in message and "set_budget" in message
    assert f"${e.spent:.4f}" in message and e.spent <= 0.03 < e.spent + e.worst
    assert e.run.steps[-1].error.startswith("not sent: budget reached")
    assert e.run.stopped.startswith("budget:") and e.run.history[0] == user(
        workloads.audit(12).task)
    meter.set_budget(None)  # raising the cap lets the kernel go on
    assert run_agent(client, workloads.audit(3), max_tokens=256).stopped == "answered"


def test_the_budget_error_is_not_retried_and_is_catchable_outside_run_agent(monkeypatch):
    monkeypatch.setenv("AGENTLIB_BUDGET_USD", "0")
    client = agentlib.connect(offline=True, max_retries=6)
    with pytest.raises(meter.BudgetExceeded):
        client.messages.create(**ASK)
    assert client.course_model.calls == 0
    with pytest.raises(ValueError, match="AGENTLIB_BUDGET_USD"):
        monkeypatch.setenv("AGENTLIB_BUDGET_USD", "five")
        meter.default_budget()


def test_the_first_claude_client_sets_a_five_dollar_cap(monkeypatch):
    """No AGENTLIB_BUDGET_USD and no set_budget(): the first client for Claude (or for its
    double, the unscripted stand-in) caps the process at $5; the scripted stand-in does not."""
    monkeypatch.delenv("AGENTLIB_BUDGET_USD", raising=False)
    monkeypatch.setattr(meter, "_PROCESS", None)
    monkeypatch.setattr(meter, "_SET", False)
    agentlib.connect(offline=True)
    assert meter.default_budget() is None and meter.process().budget is None
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
    monkeypatch.delenv("AGENTLIB_OFFLINE", raising=False)
    client = agentlib.connect()  # no request is sent
    assert not hasattr(client, "course_model") and meter.process().budget == 5.0
    meter.set_budget(None)  # a cap said by hand stays said
    agentlib.connect()
    assert meter.process().budget is None


def test_an_explicit_budget_wins(monkeypatch):
    monkeypatch.setenv("AGENTLIB_BUDGET_USD", "0.5")
    monkeypatch.setattr(meter, "_PROCESS", None)
    monkeypatch.setattr(meter, "_SET", False)
    agentlib.connect(offline=True, standin={"unscripted": True, "seed": 1})
    assert meter.process().budget == 0.5


def test_the_usage_log_gets_one_line_per_response(tmp_path, monkeypatch):
    log = tmp_path / "usage.jsonl"
    monkeypatch.setenv("AGENTLIB_USAGE_LOG", str(log))
    client = agentlib.connect(offline=True)
    client.messages.create(**ASK)
    client.messages.create(**ASK)
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 2 and sum(x["usd"] for x in lines) == pytest.approx(
        client.usage.usage.usd)


# ---------------------------------------------------------------- the client's window

def test_the_scripted_stand_in_keeps_enforcing_the_window_itself():
    small = coursekit.connect(offline=True, context_window=8_000)
    run = run_agent(small, workloads.audit(12), max_tokens=128)
    error = run.steps[-1].error
    found = re.fullmatch(r"400 BadRequestError: prompt is too long: (\d+) tokens > 8000 maximum",
                         error or "")
    assert found, error
    assert int(found.group(1)) > 8_000  # the server's own count, not the client's
    assert "enforced by the course's client" not in error
    assert all(s.input_tokens <= 8_000 for s in run.steps[:-1])


def test_the_client_enforces_a_window_for_the_live_double():
    small = coursekit.connect(offline=True, unscripted=True, seed=0, context_window=3_000)
    run = run_agent(small, workloads.audit(12), max_tokens=1024)
    error = run.steps[-1].error
    assert error.startswith("400 BadRequestError: prompt is too long: ")
    assert "> 3000 maximum" in error and "enforced by the course's client" in error
    assert all(s.input_tokens <= 3_000 for s in run.steps)
    sent = small.course_model.calls  # the refused request was counted, never created
    with pytest.raises(anthropic.BadRequestError) as caught:
        small.messages.create(model=models.model_name(small), max_tokens=64,
                              messages=run.steps[-1].sent, tools=run.tools, system=run.system)
    assert caught.value.body["error"]["type"] == "invalid_request_error"
    assert caught.value.status_code == 400 and small.course_model.calls == sent + 1


def test_a_request_that_fits_gets_max_tokens_lowered_to_the_room_left():
    big = coursekit.connect(offline=True, unscripted=True, seed=0)
    model = models.model_name(big)
    n = big.messages.count_tokens(model=model, messages=[user("Hello")]).input_tokens
    tight = coursekit.connect(offline=True, unscripted=True, seed=0, context_window=n + 3)
    r = tight.messages.create(model=model, max_tokens=500, messages=[user("Hello")])
    assert r.stop_reason == "max_tokens" and r.usage.output_tokens <= 3
    streamed = tight.messages.stream(model=model, max_tokens=500, messages=[user("Hello")])
    with streamed as s:
        assert s.get_final_message().usage.output_tokens <= 3


def test_the_window_is_checked_for_async_clients_too():
    async def go():
        c = coursekit.connect(asynchronous=True, offline=True, unscripted=True, seed=0, context_window=5)
        await c.messages.create(model=models.model_name(), max_tokens=8,
                                messages=[user("Hello there, a few words")])

    with pytest.raises(anthropic.BadRequestError, match="enforced by the course's client"):
        asyncio.run(go())


def test_a_bad_window_is_named():
    with pytest.raises(ValueError, match="context_window"):
        coursekit.connect(offline=True, unscripted=True, context_window=-1)


# ---------------------------------------------------------------- profiles

FITTED_SWEEPS = {"ops_sizes"}


def test_the_offline_profile_holds_todays_sizes_and_live_is_smaller(monkeypatch):
    offline = profile.sizes("offline")
    assert (offline.audit, offline.window, offline.needle) == (12, 8_000, 400)
    assert offline.overflow_max_tokens == (2048, 128)
    for key, (off, on) in profile.TABLE.items():
        if isinstance(off, tuple):
            # a sweep is one point live, or two where the lesson fits a line through it
            # (lesson 9's break-even); never more points, never larger ones
            assert len(on) <= (2 if key in FITTED_SWEEPS else 1), key
            assert len(on) < len(off) and max(on) <= max(off), key
        else:
            assert on <= off, key
    with pytest.raises(AttributeError, match="TABLE"):
        offline.nonsense  # noqa: B018
    monkeypatch.setenv("AGENTLIB_PROFILE", "online")
    with pytest.raises(ValueError, match="AGENTLIB_PROFILE"):
        profile.name()


def test_the_profile_follows_the_key_unless_offline_is_forced(monkeypatch):
    monkeypatch.delenv("AGENTLIB_PROFILE", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-a-real-key")
    monkeypatch.setenv("AGENTLIB_OFFLINE", "1")
    assert profile.name() == "offline"
    monkeypatch.delenv("AGENTLIB_OFFLINE")
    assert profile.name() == "live"
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    assert profile.name() == "offline"


def test_estimates_price_calls_and_tokens_with_the_catalog(capsys, monkeypatch):
    e = profile.estimate(10, 100_000, 5_000, model="claude-sonnet-5-5")
    p = models.prices("claude-sonnet-5-5")
    assert (e.input_tokens, e.output_tokens) == (130_000, 6_500)  # the newer tokenizer
    assert e.usd == pytest.approx((130_000 * p.input + 6_500 * p.output) / 1e6)
    raw = profile.estimate(10, 100_000, model="claude-haiku-4-5", counted_offline=False)
    assert raw.input_tokens == 100_000 and "$" in str(raw)
    both = profile.audit_run(6, model="claude-sonnet-5-5") + e
    assert both.calls == 9 + 10
    profile.announce("x", e)
    assert capsys.readouterr().out == ""  # offline: nothing printed
    monkeypatch.setenv("AGENTLIB_PROFILE", "live")
    profile.announce("the sweep", e)
    assert capsys.readouterr().out.startswith("[the sweep] about 10 calls")


def test_scripted_tells_the_saved_outputs_model_from_the_others():
    assert profile.scripted(agentlib.connect(offline=True))
    assert not profile.scripted(coursekit.connect(offline=True, unscripted=True))
