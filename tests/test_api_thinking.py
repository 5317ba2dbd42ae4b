"""Thinking through the real SDK: which types each model takes (with the API's texts),
signed blocks that must come back unmodified, thinking as context, and the
`clear_thinking_20251015` edit (docs/api-facts.md sections 6.4 and 9)."""

import pytest
from apitools import (  # noqa: F401
    LOG_TOOL,
    MODEL,
    SONNET,
    TASK,
    as_param,
    ask,
    connect,
    message,
    no_network,
    refused,
)

from agentlib import tokens
from agentlib.messages import tool_result, user

ENABLED = {"type": "enabled", "budget_tokens": 1024}
CONTEXT_BETA = ["context-management-2025-06-27"]


def loop_once(c, model=MODEL, **kw):
    """The task, the model's first reply (a tool call), and the history answering it."""
    first = ask(c, model=model, max_tokens=2048, **kw)
    use = next(b for b in first.content if b.type == "tool_use")
    history = [user(TASK), as_param(first), user(tool_result(use.id, "all quiet"))]
    return first, history


def test_a_model_that_thinks_by_default_returns_signed_omitted_thinking():
    r = ask(connect(), model=SONNET)
    assert [b.type for b in r.content][:1] == ["thinking"]
    block = r.content[0]
    assert block.thinking == "" and block.signature  # Sonnet 5.5 omits the text by default
    assert 0 < r.usage.output_tokens_details.thinking_tokens < r.usage.output_tokens
    plain = ask(connect())  # the course model thinks only when asked
    assert [b.type for b in plain.content] == ["text", "tool_use"]


def test_summarized_thinking_counts_toward_the_output():
    r = ask(connect(), thinking={"type": "enabled", "budget_tokens": 1024}, max_tokens=2048)
    thought = r.content[0]
    assert thought.type == "thinking" and thought.thinking.startswith("I can see 1 message")
    n = tokens.count({"type": "thinking", "thinking": thought.thinking})
    assert r.usage.output_tokens_details.thinking_tokens == n
    rest = tokens.count([b.to_dict() for b in r.content[1:]])
    assert r.usage.output_tokens == n + rest


@pytest.mark.parametrize("model, thinking, text", [
    (SONNET, ENABLED, '"thinking.type.enabled" is not supported for this model. Use '
     '"thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'),
    (SONNET, {"type": "disabled"}, '"thinking.type.disabled" is not supported for this model. '
     'Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'),
    ("claude-haiku-4-5", {"type": "adaptive"}, "adaptive thinking is not supported on this model"),
    (MODEL, {"type": "enabled", "budget_tokens": 1000},
     "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"),
    (MODEL, {"type": "enabled", "budget_tokens": 4096},
     "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
     "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
     "#max-tokens-and-context-window-size"),
    (MODEL, {"type": "sometimes"}, "thinking: Input tag 'sometimes' found using 'type' does "
     "not match any of the expected tags: 'adaptive', 'between_tools', 'disabled', 'enabled'"),
], ids=["enabled-on-sonnet-5-5", "disabled-on-sonnet-5-5", "adaptive-on-haiku-4-5",
        "budget-too-small", "budget-over-max_tokens", "unknown-type"])
def test_thinking_types_each_model_refuses(model, thinking, text):
    e = refused(lambda: ask(connect(), model=model, thinking=thinking, max_tokens=2048))
    assert message(e) == text


def test_forced_tool_use_with_thinking():
    c = connect()
    forced = {"type": "tool", "name": "read_file"}
    e = refused(lambda: ask(c, thinking=ENABLED, max_tokens=2048, tool_choice=forced))
    assert message(e) == "Thinking may not be enabled when tool_choice forces tool use"
    e = refused(lambda: ask(c, model=SONNET, tool_choice={"type": "any"}))
    assert message(e).startswith("tool_choice: forced tool use (`any` or `tool`) is not "
                                 "supported with thinking on this model.")


def test_thinking_blocks_come_back_unmodified():
    c = connect()
    first, history = loop_once(c, model=SONNET)
    assert ask(c, history, model=SONNET).stop_reason  # sent back as received: accepted
    changed = [user(TASK), {**as_param(first), "content": [
        {**first.content[0].to_dict(), "thinking": "I decided otherwise."},
        *[b.to_dict() for b in first.content[1:]]]}, history[2]]
    e = refused(lambda: ask(c, changed, model=SONNET))
    assert message(e) == ("messages.1.content.0: `thinking` or `redacted_thinking` blocks in "
                          "the latest assistant message cannot be modified. These blocks must "
                          "remain as they were in the original response.")
    forged = [user(TASK), {**as_param(first), "content": [
        {"type": "thinking", "thinking": "", "signature": "c2lnbmF0dXJl"},
        *[b.to_dict() for b in first.content[1:]]]}, history[2]]
    e = refused(lambda: ask(c, forged, model=SONNET))
    assert message(e) == "messages.1.content.0: Invalid `signature` in `thinking` block"


@pytest.mark.parametrize("model, binds", [(SONNET, True), (MODEL, False)])
def test_sonnet_5_5_binds_thinking_to_the_conversation(model, binds):
    """Editing the history before a thinking block (here: the task) invalidates it on a
    binding model, and not on the course model."""
    c = connect()
    _, history = loop_once(c, model=model, thinking={"type": "adaptive"})
    edited = [user(TASK + " Be brief.")] + history[1:]
    if binds:
        e = refused(lambda: ask(c, edited, model=model))
        assert "The block is bound to a different conversation." in message(e)
    else:
        assert ask(c, edited, model=model, thinking={"type": "adaptive"}).stop_reason


def test_earlier_thinking_counts_as_context_where_the_model_keeps_it():
    c = connect()
    for model, kept in ((SONNET, True), ("claude-haiku-4-5", False)):
        thinking = {"type": "adaptive"} if kept else ENABLED
        first, history = loop_once(c, model=model, thinking=thinking)
        history += [as_param(ask(c, history, model=model, thinking=thinking, max_tokens=2048)),
                    user("Thanks. Anything else?")]
        counted = c.messages.count_tokens(model=model, messages=history, tools=[LOG_TOOL],
                                          thinking=thinking).input_tokens  # the same tools
        without = [{**m, "content": [b for b in m["content"] if b.get("type") != "thinking"]}
                   for m in history]
        bare = c.messages.count_tokens(model=model, messages=without, tools=[LOG_TOOL],
                                       thinking=thinking).input_tokens
        hidden = first.usage.output_tokens_details.thinking_tokens
        assert (counted - bare >= hidden) if kept else counted == bare


def test_thinking_disabled_with_thinking_in_the_final_assistant_message():
    c = connect()
    first, _ = loop_once(c, thinking=ENABLED)
    final = {"role": "assistant", "content": [first.content[0].to_dict(),
                                              {"type": "text", "text": "The root cause is"}]}
    e = refused(lambda: ask(c, [user(TASK), final], thinking={"type": "disabled"}))
    assert message(e) == ("messages.1.content.0: When thinking is disabled, an `assistant` "
                          "message in the final position cannot contain `thinking`. To use "
                          "thinking blocks, enable `thinking` in your request.")


def test_manual_thinking_needs_the_tool_loop_to_start_with_thinking():
    c = connect()
    first, history = loop_once(c, thinking=ENABLED)
    history[1] = {**history[1], "content": history[1]["content"][1:]}  # thinking dropped
    e = refused(lambda: ask(c, history, thinking=ENABLED, max_tokens=2048))
    assert message(e).startswith(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
        "`text`. When `thinking` is enabled, a final `assistant` message must start with a "
        "thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).")


def test_between_tools_returns_the_notes_between_calls_as_thinking():
    r = ask(connect(), model=SONNET, thinking={"type": "between_tools"})
    assert [b.type for b in r.content] == ["thinking", "tool_use"]
    assert r.content[0].thinking == ""  # omitted by default; the signature carries it


def test_low_effort_adaptive_thinking_may_skip_thinking():
    c = connect()
    assert ask(c, thinking={"type": "adaptive"}).content[0].type == "thinking"
    low = ask(c, thinking={"type": "adaptive"}, output_config={"effort": "low"})
    assert low.content[0].type == "text"


def test_clear_thinking_edit():
    c = connect()
    thinking = {"type": "adaptive", "display": "summarized"}
    _, history = loop_once(c, thinking=thinking)
    history += [as_param(ask(c, history, thinking=thinking)), user("Thanks. Anything else?")]
    edit = {"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 1}}
    r = ask(c, history, beta=True, betas=CONTEXT_BETA, thinking=thinking,
            context_management={"edits": [edit]})
    applied = r.context_management.applied_edits
    assert [a.type for a in applied] == ["clear_thinking_20251015"]
    assert applied[0].cleared_thinking_turns == 1 and applied[0].cleared_input_tokens > 0
    plain = ask(c, history, beta=True, betas=CONTEXT_BETA, thinking=thinking,
                context_management={"edits": []})
    assert plain.usage.input_tokens - r.usage.input_tokens == applied[0].cleared_input_tokens
    counted = c.beta.messages.count_tokens(model=MODEL, messages=history, betas=CONTEXT_BETA,
                                           tools=[], thinking=thinking,
                                           context_management={"edits": [edit]})
    assert counted.context_management.original_input_tokens - counted.input_tokens == \
        applied[0].cleared_input_tokens
    clear = {"type": "clear_tool_uses_20250919"}
    e = refused(lambda: ask(c, history, beta=True, betas=CONTEXT_BETA, thinking=thinking,
                            context_management={"edits": [clear, edit]}))
    assert message(e) == ("context_management.edits.1: `clear_thinking_20251015` must be the "
                          "first edit when edits are combined")
