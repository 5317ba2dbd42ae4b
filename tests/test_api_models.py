"""Models and windows: the catalog, the API's 404, output limits, the window rules by model,
prefill, and the unknown-task reply (docs/api-facts.md sections 2, 3, 4 and 14)."""

import typing

import anthropic
import pytest
from anthropic.types import model_param
from apitools import LOG_TOOL, MODEL, SONNET, TASK, ask, connect, message, no_network, refused  # noqa: F401

from agentlib import models, tokens
from agentlib.messages import assistant, user
from standin.agent import NO_TASK

SDK_MODELS = typing.get_args(typing.get_args(model_param.ModelParam)[0])


def test_the_catalog_covers_every_model_the_sdk_names():
    assert set(SDK_MODELS) <= set(models.CATALOG)
    assert models.DEFAULT_MODEL == "claude-sonnet-5-5"
    sonnet = models.get(models.DEFAULT_MODEL)
    assert (sonnet.status, sonnet.window, sonnet.max_output) == ("current", 1_000_000, 128_000)
    assert (sonnet.prices.input, sonnet.prices.output, sonnet.prices.cache_read) == (2, 10, 0.10)
    assert sonnet.thinking == "adaptive" and models.get("claude-sonnet-4-6").status == "legacy"
    course = models.get(models.OFFLINE_MODEL)
    assert course.status == "course" and course.thinking == "off"


@pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", ["claude-3-7-sonnet-latest", "claude-mythos-preview"],
                         ids=["unknown", "retired"])
def test_an_unknown_or_retired_model_is_the_api_404(name):
    c = connect()
    for call in (lambda: ask(c, model=name),
                 lambda: c.messages.count_tokens(model=name, messages=[user("hi")])):
        e = refused(call, 404)
        assert isinstance(e, anthropic.NotFoundError)
        assert e.body["error"] == {"type": "not_found_error", "message": f"model: {name}"}


@pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", [m for m in SDK_MODELS if m != "claude-mythos-preview"])
def test_every_served_model_answers(name):
    r = ask(connect(), model=name, thinking=models.quiet_thinking(name))
    assert r.model == name and r.stop_reason == "tool_use"


def test_max_tokens_above_the_model_output_limit():
    """(`timeout=` keeps the SDK from insisting on streaming for a large max_tokens.)"""
    e = refused(lambda: ask(connect(), model="claude-haiku-4-5", max_tokens=64_001, timeout=60))
    assert message(e) == ("max_tokens: 64001 > 64000, which is the maximum allowed number of "
                          "output tokens for claude-haiku-4-5")


def test_max_tokens_zero_prewarms_the_cache():
    c = connect()
    system = [{"type": "text", "text": "You read logs. " * 400,
               "cache_control": {"type": "ephemeral"}}]
    warm = ask(c, max_tokens=0, system=system)
    assert warm.content == [] and warm.usage.output_tokens == 0
    assert warm.usage.cache_creation_input_tokens > 1024
    assert ask(c, system=system).usage.cache_read_input_tokens == \
        warm.usage.cache_creation_input_tokens


def test_each_model_has_its_own_window():
    big = [user("word " * 210_000)]
    n = tokens.input_tokens(big, tools=[LOG_TOOL], model=MODEL)  # with the API's tool prompt
    assert tokens.input_tokens(big, tools=[LOG_TOOL], model=SONNET) == n  # the same size
    c = connect()
    e = refused(lambda: ask(c, big, model=MODEL))
    assert message(e) == f"prompt is too long: {n} tokens > 200000 maximum"
    e = refused(lambda: ask(c, big, model="claude-haiku-4-5"))
    assert message(e).endswith("> 200000 maximum")
    assert ask(c, big, model=SONNET).usage.input_tokens == n  # 1M window
    e = refused(lambda: ask(connect(context_window=5_000), big, model=SONNET))
    assert message(e).endswith("> 5000 maximum")  # connect(context_window=) replaces it


def test_a_reply_is_cut_at_the_window_not_refused():
    c = connect()
    first = ask(c, max_tokens=100)
    n = first.usage.input_tokens
    cut = ask(connect(context_window=n + 5), max_tokens=100)
    assert cut.stop_reason == "model_context_window_exceeded"
    assert cut.usage.input_tokens == n and cut.usage.output_tokens <= 5
    capped = ask(c, max_tokens=5)  # a smaller max_tokens than the room: max_tokens
    assert capped.stop_reason == "max_tokens" and capped.usage.output_tokens <= 5


def test_prefill_is_refused_where_the_model_refuses_it():
    history = [user(TASK), assistant("The root cause is")]
    c = connect()
    e = refused(lambda: ask(c, history, model=SONNET))
    assert message(e) == ("This model does not support assistant message prefill. The "
                          "conversation must end with a user message.")
    assert ask(c, history, model="claude-haiku-4-5").stop_reason
    assert ask(c, history).stop_reason  # the course model accepts it (as Haiku 4.5 does)


@pytest.mark.parametrize("messages, tools", [
    ([user("What is the weather in SF?")], True), ([user("Hello!")], False)],
    ids=["with-tools", "no-tools"])
def test_an_unknown_task_gets_a_plain_reply(messages, tools):
    c = connect()
    kw = {} if tools else {"tools": []}
    r = ask(c, messages, **kw)
    assert r.stop_reason == "end_turn" and [b.type for b in r.content] == ["text"]
    text = r.content[0].text
    assert text == NO_TASK and "ANTHROPIC_API_KEY" in text
    for task in ("audit", "root cause", "laptop"):
        assert task in text


def test_prices_come_from_the_catalog():
    from coursekit import bench

    p = models.prices(models.OFFLINE_MODEL)
    assert bench.PRICES["input"] == p.input and bench.PRICES["cache_read"] == p.cache_read
    assert bench.PRICES["cache_write"] == p.cache_write_5m
    haiku = models.get("claude-haiku-5-5")
    assert models.prices(haiku.id, 100_000).input == 0.10
    assert models.prices(haiku.id, 100_001).input == 0.50  # the long-prompt band
    with pytest.raises(KeyError):
        models.prices("claude-3-opus")


@pytest.mark.parametrize("model", [MODEL, SONNET, "claude-opus-4-7", "claude-haiku-4-5"])
def test_usage_counts_the_tool_use_prompt_the_api_adds(model):
    """With `tools`, the API adds a system prompt of its own (docs/api-facts.md 8.5): the
    usage counts it, count_tokens counts it, the client's `tokens.count` cannot."""
    c = connect()
    history = [user(TASK)]
    hidden = models.tool_prompt_tokens(model, [LOG_TOOL])
    assert hidden == models.CATALOG[model].tool_prompt[0] > 0
    sent = tokens.count(history, tools=[LOG_TOOL])
    r = ask(c, history, model=model)
    assert r.usage.input_tokens == sent + hidden == \
        tokens.input_tokens(history, tools=[LOG_TOOL], model=model)
    counted = c.messages.count_tokens(model=model, messages=history, tools=[LOG_TOOL])
    assert counted.input_tokens == r.usage.input_tokens
    bare = c.messages.create(model=model, max_tokens=64, messages=history)  # no tools: none
    assert bare.usage.input_tokens == tokens.count(history)
    none = ask(c, history, model=model, tool_choice={"type": "none"})  # as auto
    assert none.usage.input_tokens == r.usage.input_tokens


def test_the_tool_prompt_depends_on_tool_choice_and_is_cached_with_the_prefix():
    assert models.tool_prompt_tokens("claude-opus-4-8", [LOG_TOOL], {"type": "any"}) == 410
    assert models.tool_prompt_tokens("claude-opus-4-8", [LOG_TOOL]) == 290
    assert models.tool_prompt_tokens("claude-opus-4-8", []) == 0
    c = connect()
    system = [{"type": "text", "text": "You read logs. " * 200,
               "cache_control": {"type": "ephemeral"}}]
    first = ask(c, system=system)
    hidden = models.tool_prompt_tokens(MODEL, [LOG_TOOL])
    prefix = hidden + tokens.count([], system=system, tools=[LOG_TOOL])
    assert first.usage.cache_creation_input_tokens == prefix  # written with the prefix
    again = ask(c, system=system)
    assert again.usage.cache_read_input_tokens == prefix
    assert again.usage.input_tokens + prefix == \
        tokens.input_tokens([user(TASK)], system=system, tools=[LOG_TOOL], model=MODEL)
