"""Cache diagnostics through the real SDK (docs/api-facts.md 5.11 to 5.15): the request's
`diagnostics` object, the response's `cache_miss_reason` for each documented divergence, the
bounds of what the stand-in keeps, and the prompt cache's message entries bound to
`thinking` and `tool_choice`."""

import anthropic
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

from agentlib.messages import tool_result, user
from standin import diagnostics

SYSTEM = "You read incident logs carefully and note each finding. " * 100  # ~1,100 tokens
GREP = {"name": "grep", "description": "Search a file.",
        "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}},
                         "required": ["pattern"]}}
AUTO = {"type": "ephemeral"}


def turn(c, messages, previous, **kw):
    """One request of a conversation with diagnostics and automatic caching."""
    params = {"system": SYSTEM, "cache_control": AUTO, "thinking": {"type": "disabled"}, **kw}
    return ask(c, messages, diagnostics={"previous_message_id": previous}, **params)


def conversation(c, steps=3, **kw):
    """(messages, responses) of a few steps of the log task, each step naming the last."""
    messages, responses, previous = [user(TASK)], [], None
    for i in range(steps):
        r = turn(c, messages, previous, **kw)
        responses.append(r)
        messages += [as_param(r), {"role": "user", "content": [tool_result(
            b.id, f"09:{i:02d} deploy checked: ok. " * 30) for b in r.content
            if b.type == "tool_use"] or [{"type": "text", "text": "Go on."}]}]
        previous = r.id
    return messages, responses


def reason(r):
    d = r.diagnostics
    return None if d is None else d.cache_miss_reason


def test_a_conversation_that_only_appends_has_no_divergence():
    messages, responses = conversation(connect())
    assert [r.diagnostics for r in responses] == [None, None, None]
    assert responses[-1].usage.cache_read_input_tokens > 0


def test_the_request_field_is_checked_and_needs_no_beta():
    c = connect()
    for bad, words in [("msg_1", "diagnostics: Input should be a valid dictionary"),
                       ({"previous_message_id": 7},
                        "diagnostics.previous_message_id: Input should be a valid string"),
                       ({"previous": None}, "diagnostics.previous: Extra inputs are not permitted")]:
        assert message(refused(lambda bad=bad: ask(c, diagnostics=bad))) == words
    # the old beta header is accepted as before; without it the field works too
    r = ask(c, beta=True, betas=["cache-diagnosis-2026-04-07"],
            diagnostics={"previous_message_id": None})
    assert r.diagnostics is None
    assert ask(c).diagnostics is None and "diagnostics" not in ask(c).to_dict()  # not asked


def test_an_unknown_or_unrecorded_id_is_previous_message_not_found():
    c = connect()
    assert reason(turn(c, [user(TASK)], "msg_never_sent")).type == "previous_message_not_found"
    plain = ask(c, system=SYSTEM)  # no diagnostics object: no fingerprint kept
    got = reason(turn(c, [user(TASK)], plain.id))
    assert got.type == "previous_message_not_found"
    assert not hasattr(got, "cache_missed_input_tokens") or got.to_dict() == {
        "type": "previous_message_not_found"}


def test_a_timestamp_in_the_system_prompt_is_system_changed():
    c = connect()
    first = turn(c, [user(TASK)], None, system=SYSTEM + "Now: 09:00:00")
    second = turn(c, [user(TASK)], first.id, system=SYSTEM + "Now: 09:00:07")
    got = reason(second)
    assert got.type == "system_changed"
    assert second.usage.cache_read_input_tokens == 0 and second.usage.cache_creation_input_tokens
    shared = connect().messages.count_tokens(model=MODEL, tools=[LOG_TOOL],
                                             messages=[user("x")]).input_tokens
    total = first.usage.input_tokens + first.usage.cache_creation_input_tokens
    assert 0 < got.cache_missed_input_tokens < total  # the tools before the system are shared
    assert got.cache_missed_input_tokens > total - shared


@pytest.mark.parametrize("change, expected", [
    ({"tools": [GREP, LOG_TOOL]}, "tools_changed"),  # a tool added
    ({"model": "claude-opus-4-8"}, "model_changed"),
    ({"tools": [GREP, LOG_TOOL], "system": SYSTEM + "!"}, "tools_changed"),  # the earliest
    ({"thinking": {"type": "adaptive"}}, "unavailable"),
    ({"tool_choice": {"type": "none"}}, "unavailable"),
])
def test_each_part_that_changed_is_reported(change, expected):
    c = connect()
    messages, responses = conversation(c, 2)
    r = turn(c, messages, responses[-1].id, **change)
    assert reason(r).type == expected
    if expected.endswith("_changed"):
        assert reason(r).cache_missed_input_tokens > 0


def test_reordered_tools_and_a_moved_breakpoint():
    c = connect()
    tools = [LOG_TOOL, GREP]
    first = turn(c, [user(TASK)], None, tools=tools)
    assert reason(turn(c, [user(TASK)], first.id, tools=tools[::-1])).type == "tools_changed"
    marked = [{**LOG_TOOL, "cache_control": AUTO}, GREP]  # where a breakpoint sits is no change
    assert turn(c, [user(TASK)], first.id, tools=marked).diagnostics is None


def test_an_edit_to_an_old_message_is_messages_changed_with_what_it_missed():
    c = connect()
    messages, responses = conversation(c, 3)
    edited = [messages[0], {**messages[1], "content": messages[1]["content"][:-1] +
                            [{**messages[1]["content"][-1], "input": {"path": "other.log"}}]},
              *messages[2:]]
    r = turn(c, edited, responses[-1].id)
    got = reason(r)
    assert got.type == "messages_changed"
    before = responses[-1].usage
    total = before.input_tokens + before.cache_read_input_tokens + \
        before.cache_creation_input_tokens
    frame = c.messages.count_tokens(model=MODEL, system=SYSTEM, tools=[LOG_TOOL],
                                    messages=messages[:1]).input_tokens
    assert got.cache_missed_input_tokens == pytest.approx(total - frame, abs=8)
    # a removed message (a truncation) is a change too
    assert reason(turn(c, messages[:1] + messages[3:], responses[-1].id)).type == \
        "messages_changed"


def test_diagnostics_arrive_on_message_start_when_streamed():
    c = connect()
    first = turn(c, [user(TASK)], None)
    with c.messages.stream(model=MODEL, max_tokens=512, tools=[LOG_TOOL], messages=[user(TASK)],
                           system=SYSTEM + "?", cache_control=AUTO,
                           diagnostics={"previous_message_id": first.id}) as stream:
        events = list(stream)
        final = stream.get_final_message()
    start = next(e for e in events if e.type == "message_start")
    assert start.message.diagnostics.cache_miss_reason.type == "system_changed"
    assert final.diagnostics.cache_miss_reason.type == "system_changed"


def test_a_change_beyond_the_horizon_is_unavailable_and_memory_is_bounded(monkeypatch):
    monkeypatch.setattr(diagnostics, "HORIZON", 4)
    monkeypatch.setattr(diagnostics, "KEPT", 3)
    c = connect()
    messages, responses = conversation(c, 4)  # the last request sent 7: 3 before the newest 4
    old = [{**messages[0], "content": [{"type": "text", "text": TASK + " Quickly."}]},
           *messages[1:]]
    assert reason(turn(c, old, responses[-1].id)).type == "unavailable"
    recent = messages[:6] + [{"role": "user", "content": "Go on, please."}]  # its last one
    assert reason(turn(c, recent, responses[-1].id)).type == "messages_changed"
    kept = c.course_model.diagnostics.kept
    assert len(kept) == 3 and all(len(f.tail) <= 16 * 4 for f in kept.values())
    assert reason(turn(c, [user(TASK)], responses[0].id)).type == "previous_message_not_found"


def test_thinking_and_tool_choice_invalidate_the_messages_not_the_system():
    """The docs' table: a change of thinking or tool_choice leaves tools and system cached
    and makes the messages write again."""
    c = connect()
    marked = [{"type": "text", "text": SYSTEM, "cache_control": AUTO}]  # over 1,024
    messages, _ = conversation(c, 2, system=marked)
    same = turn(c, messages, None, system=marked)
    assert same.usage.cache_read_input_tokens > 1100 and same.usage.input_tokens == 4
    for change in ({"thinking": {"type": "adaptive"}},
                   {"tool_choice": {"type": "auto"}}):
        r = turn(c, messages, None, system=marked, **change)
        system_part = c.messages.count_tokens(model=MODEL, system=marked, tools=[LOG_TOOL],
                                              messages=[user("x")]).input_tokens
        assert 0 < r.usage.cache_read_input_tokens <= system_part  # only tools and system
        assert r.usage.cache_creation_input_tokens > 0


def test_on_sonnet_the_same_diagnostics():
    c = connect(model=SONNET)
    first = ask(c, model=SONNET, system=SYSTEM, cache_control=AUTO,
                diagnostics={"previous_message_id": None})
    second = ask(c, model=SONNET, system=SYSTEM + "Now: 09:01", cache_control=AUTO,
                 diagnostics={"previous_message_id": first.id})
    assert reason(second).type == "system_changed"
    with pytest.raises(anthropic.BadRequestError):
        ask(c, model=SONNET, diagnostics={"previous_message_id": None, "extra": 1})
