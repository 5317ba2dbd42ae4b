"""Changing instructions and tools without an edit (docs/api-facts.md 2.13, 2.14): a
`role: "system"` message appended mid-conversation, and the tool changes of the beta
`mid-conversation-tool-changes-2026-07-01`; the catalog rows they and thinking's binding
follow; `thinking.block_binding` (beta `thinking-binding-controls-2026-08-01`). Through the
real SDK, in process and over HTTP."""

import json

import pytest
from apitools import LOG_TOOL, SONNET, TASK, connect, message, no_network, refused  # noqa: F401

from agentlib import models
from agentlib.loop import DEFAULT_SYSTEM, run_agent
from agentlib.messages import (
    HistoryError,
    append_system,
    system_message,
    tool_addition,
    tool_removal,
    user,
    validate,
)
from coursekit import workloads
from standin.server import instructions

TOOL_CHANGES = ["mid-conversation-tool-changes-2026-07-01"]
CONTROLS = ["thinking-binding-controls-2026-08-01"]
SYSTEM = [{"type": "text", "text": DEFAULT_SYSTEM}]  # as the run sent it
REMINDER = "Reminder: the user wants the answer as a list."


# ---------------------------------------------------------------- the catalog

def test_binding_follows_the_prefix_check_pages_models():
    """The prefix-checks page's `supportedModels` (docs/api-facts.md 4): the 5.1 and 5.2
    Fable and Mythos models and the three 5.5 models; none before Fable 5.1."""
    binding = {m.id for m in models.CATALOG.values() if m.binds_thinking}
    assert binding == {"claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1",
                       "claude-mythos-5-1", "claude-opus-5-5", "claude-sonnet-5-5",
                       "claude-haiku-5-5"}


def test_system_messages_on_the_models_the_page_lists():
    taking = {m.id for m in models.CATALOG.values()
              if m.system_messages and m.status != "retired"}
    assert taking == {"claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1",
                      "claude-mythos-5-1", "claude-fable-5", "claude-mythos-5",
                      "claude-opus-5-5", "claude-opus-5", "claude-opus-4-8",
                      "claude-sonnet-5-5", "claude-haiku-5-5", models.OFFLINE_MODEL}
    assert not models.get("claude-sonnet-5").system_messages  # "not available on Sonnet 5"


# ---------------------------------------------------------------- in process

@pytest.fixture(scope="module")
def sonnet_run():
    """Five requests of an audit on Sonnet 5.5's rules, with the prompt cache: its history
    ends with tool results, each reply opening with a bound thinking block."""
    w = workloads.audit(6)
    c = connect(model=SONNET)
    run = run_agent(c, w, model=SONNET, max_steps=5, max_tokens=512, cache=True)
    return c, w, run


def create(c, w, messages, model=SONNET, **kw):
    """A request as the run sends them (its system, tools and thinking), automatic caching."""
    kw = {"system": SYSTEM, "thinking": models.quiet_thinking(model), **kw}
    return c.messages.create(model=model, max_tokens=512, tools=w.tools, messages=messages,
                             cache_control={"type": "ephemeral"}, **kw)


def test_an_appended_system_message_keeps_the_cache_and_the_thinking(sonnet_run):
    c, w, run = sonnet_run
    history = run.history
    first = create(c, w, history)  # writes the whole prefix
    assert first.usage.cache_creation_input_tokens > 0
    appended = append_system(history, REMINDER)
    assert appended[:-1] == history and appended[-1] == system_message(REMINDER)
    again = create(c, w, appended)  # every thinking block still valid, the prefix read
    assert again.stop_reason == "tool_use"
    assert again.usage.cache_read_input_tokens >= first.usage.cache_creation_input_tokens + \
        first.usage.cache_read_input_tokens  # all of it (and the turn's framing, not cached
    assert again.usage.cache_creation_input_tokens + again.usage.input_tokens < 40  # before)
    e = refused(lambda: create(c, w, history, system=DEFAULT_SYSTEM + " " + REMINDER))
    assert "The block is bound to a different conversation." in message(e)


def test_on_a_model_that_binds_nothing_an_edit_writes_the_cache_again():
    w = workloads.audit(6)
    c = connect()
    run = run_agent(c, w, max_steps=5, max_tokens=512)
    create(c, w, run.history, model=models.OFFLINE_MODEL)
    edited = c.messages.create(model=models.OFFLINE_MODEL, max_tokens=512, tools=w.tools,
                               system=DEFAULT_SYSTEM + " " + REMINDER, messages=run.history,
                               cache_control={"type": "ephemeral"})
    assert edited.usage.cache_read_input_tokens == 0  # the system prompt opens the prefix
    appended = create(c, w, append_system(run.history, REMINDER), model=models.OFFLINE_MODEL)
    assert appended.usage.cache_read_input_tokens > 0


@pytest.mark.parametrize("model, text", [
    ("claude-sonnet-5", "role 'system' is not supported on this model"),
    ("claude-haiku-4-5", 'messages: Unexpected role "system". The Messages API accepts a '
     'top-level `system` parameter, not "system" as an input message role.'),
])
def test_a_model_that_takes_none_refuses_it_in_the_apis_words(model, text):
    history = append_system([user(TASK)], REMINDER)
    e = refused(lambda: connect().messages.create(
        model=model, max_tokens=512, tools=[LOG_TOOL], messages=history,
        thinking=models.quiet_thinking(model)))
    assert message(e) == text
    with pytest.raises(HistoryError) as info:  # the client's pre-flight check agrees
        validate(history, model=model)
    assert info.value.api_message == text


@pytest.mark.parametrize("history, text", [
    ([system_message(REMINDER), user(TASK)],
     "messages.0: role 'system' cannot be the first message"),
    ([user(TASK), {"role": "assistant", "content": "Reading."}, system_message(REMINDER)],
     "messages.2: role 'system' must follow a 'user' message"),
    ([user(TASK), system_message(REMINDER), system_message("And be brief."), user("Go on.")],
     "messages.2: role 'system' must precede an 'assistant' message or end the array"),
], ids=["first", "after-assistant", "before-user"])
def test_where_a_system_message_may_stand(history, text):
    e = refused(lambda: connect().messages.create(
        model=SONNET, max_tokens=512, tools=[LOG_TOOL], messages=history))
    assert message(e).startswith(text)
    with pytest.raises(HistoryError) as info:
        validate(history)
    assert info.value.api_message == message(e)


def test_append_system_refuses_a_place_the_api_refuses():
    with pytest.raises(HistoryError, match="must follow a 'user' message"):
        append_system([user(TASK), {"role": "assistant", "content": "Done."}], REMINDER)


def test_the_model_reads_a_system_message_as_it_reads_the_system_prompt():
    """A task list appended as a system message: the course model starts from it, as from
    the same text in the system prompt, instead of listing the files."""
    w = workloads.audit(3)
    plan = ("Plan: check 4 files in order, in services/ with .conf: _defaults, auth, billing, "
            "cart\nNoted [1/4] services/_defaults.conf: shared defaults (values in the file)")
    assert instructions("You audit.", append_system([user(w.task)], plan)) == \
        "You audit.\n\n" + plan
    c = connect()
    for system, messages in ((DEFAULT_SYSTEM, append_system([user(w.task)], plan)),
                             (DEFAULT_SYSTEM + "\n" + plan, [user(w.task)])):
        reply = c.messages.create(model=models.OFFLINE_MODEL, max_tokens=512, system=system,
                                  tools=w.tools, messages=messages)
        assert [b.input for b in reply.content if b.type == "tool_use"] == \
            [{"path": "services/auth.conf"}]
    bare = c.messages.create(model=models.OFFLINE_MODEL, max_tokens=512, system=DEFAULT_SYSTEM,
                             tools=w.tools, messages=[user(w.task)])
    assert [b.name for b in bare.content if b.type == "tool_use"] == ["list_files"]


def test_a_turn_scoped_system_message_needs_a_beta_the_stand_in_refuses():
    e = refused(lambda: connect().messages.create(
        model=SONNET, max_tokens=512, tools=[LOG_TOOL],
        messages=[user(TASK), {**system_message(REMINDER), "clear_at": "next_user_message"}]))
    assert message(e) == "messages.1.clear_at: Extra inputs are not permitted"  # the docs' text


# ---------------------------------------------------------------- tool changes

def test_a_tool_change_needs_its_beta(sonnet_run):
    c, w, run = sonnet_run
    withdrawn = append_system(run.history, tool_removal("read_file"))
    e = refused(lambda: create(c, w, withdrawn))
    assert message(e).endswith("Input tag 'tool_removal' found using 'type' does not match "
                               "any of the expected tags: 'text'")


def test_a_removed_tool_is_withdrawn_and_the_prefix_kept(sonnet_run):
    c, w, run = sonnet_run
    first = create(c, w, run.history)
    withdrawn = append_system(run.history, tool_removal("read_file"),
                              "Reading files is disabled from now on.")
    reply = c.beta.messages.create(model=SONNET, max_tokens=512, system=SYSTEM, tools=w.tools,
                                   messages=withdrawn, betas=TOOL_CHANGES,
                                   thinking=models.quiet_thinking(SONNET),
                                   cache_control={"type": "ephemeral"})
    assert "read_file" not in [b.name for b in reply.content if b.type == "tool_use"]
    assert reply.usage.cache_read_input_tokens >= first.usage.cache_read_input_tokens > 0
    back = [*withdrawn, {"role": "assistant", "content": [b.to_dict() for b in reply.content]}]
    if reply.stop_reason == "end_turn":  # offer it again after the next user turn
        again = append_system([*back, user("Go on.")], tool_addition("read_file"))
        assert c.beta.messages.create(model=SONNET, max_tokens=512, system=SYSTEM,
                                      tools=w.tools, messages=again,
                                      betas=TOOL_CHANGES).stop_reason


def test_a_deferred_tool_is_offered_by_an_addition_and_counts_from_there():
    w = workloads.audit(3)
    grep = {"name": "grep", "description": "Search the files for a pattern.", "defer_loading":
            True, "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}}}}
    tools = [*w.tools, grep]
    c = connect()
    history = [user(w.task)]
    before = c.beta.messages.count_tokens(model=SONNET, tools=tools, messages=history,
                                          betas=TOOL_CHANGES).input_tokens
    offered = append_system(history, tool_addition("grep"))
    after = c.beta.messages.count_tokens(model=SONNET, tools=tools, messages=offered,
                                         betas=TOOL_CHANGES).input_tokens
    assert after - before > len(json.dumps(grep)) // 8  # the definition counts from there on
    e = refused(lambda: c.beta.messages.create(
        model=SONNET, max_tokens=512, tools=w.tools, messages=offered, betas=TOOL_CHANGES))
    assert message(e).endswith("Tool reference 'grep' has no corresponding tool definition")
    assert e.body["error"]["details"] == {"error_code": "tool_reference_unresolved"}


def test_a_deferred_tool_nothing_names_yet_is_not_part_of_the_prefix(sonnet_run):
    """The docs: adding a tool with `defer_loading: true` that nothing has referenced yet
    keeps later thinking valid; adding one up front does not."""
    c, w, run = sonnet_run
    later = {"name": "grep", "description": "Search.", "input_schema": {"type": "object"}}
    reply = c.messages.create(model=SONNET, max_tokens=512, system=SYSTEM,
                              tools=[*w.tools, {**later, "defer_loading": True}],
                              messages=run.history)
    assert reply.stop_reason
    e = refused(lambda: c.messages.create(model=SONNET, max_tokens=512, system=SYSTEM,
                                          tools=[*w.tools, later], messages=run.history))
    assert "bound to a different conversation" in message(e)


# ---------------------------------------------------------------- block_binding

def test_drop_block_drops_the_stale_blocks_and_says_which(sonnet_run):
    c, w, run = sonnet_run
    edited = dict(model=SONNET, max_tokens=512, system=DEFAULT_SYSTEM + " " + REMINDER,
                  tools=w.tools, messages=run.history)
    e = refused(lambda: c.beta.messages.create(**edited, betas=CONTROLS))
    assert message(e).endswith('set `thinking.block_binding.prefix_mismatch_behavior` to '
                               '"drop_block".')  # the header is there: no sentence about it
    e = refused(lambda: c.messages.create(**edited, thinking={
        "type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}))
    assert message(e).endswith("block_binding: Extra inputs are not permitted")
    reply = c.beta.messages.create(**edited, betas=CONTROLS, thinking={
        "type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}})
    assert [t.to_dict() for t in reply.input_transformations] == [
        {"type": "thinking_dropped", "path": f"messages.{i}.content.0",
         "reason": "prefix_binding_mismatch"}
        for i, m in enumerate(run.history) if m["role"] == "assistant"]
    fine = c.beta.messages.create(model=SONNET, max_tokens=512, system=SYSTEM, tools=w.tools,
                                  messages=append_system(run.history, REMINDER), betas=CONTROLS)
    assert fine.input_transformations == []
