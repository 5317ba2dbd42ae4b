"""Bound thinking through the real SDK (lesson 4b): `between_tools` notes shown as a summary
with `thinking_summaries=True` while the signature keeps the full notes, a client-side
clearing edit invalidating the blocks after it, `drop_stale_thinking` making the history
sendable again, a changed tool list or system prompt invalidating them too, and server-side
edits leaving the blocks valid (docs/api-facts.md 9.4, 9.6, 9.7)."""

import pytest
from apitools import SONNET, as_param, connect, message, no_network, refused  # noqa: F401

from agentlib.context.clear import clear_tool_results
from agentlib.loop import DEFAULT_SYSTEM, drop_stale_thinking, run_agent
from agentlib.messages import blocks
from coursekit import workloads
from standin import thinking

SUMMARIZED = {"type": "between_tools", "display": "summarized"}
CONTEXT_BETA = ["context-management-2025-06-27"]


def audit_start(c, steps=4, **kw):
    """The audit's first `steps` requests on Sonnet 5.5: the task, replies and results."""
    work = workloads.audit(12)
    run = run_agent(c, work, max_tokens=512, model=SONNET, max_steps=steps, **kw)
    return work, run.history


def create(c, work, history, **kw):
    params = {"model": SONNET, "max_tokens": 512, "system": DEFAULT_SYSTEM,
              "tools": work.tools, "thinking": {"type": "between_tools"}, **kw}
    return (c.beta.messages if "betas" in kw else c.messages).create(messages=history, **params)


def test_summary_keeps_each_line_up_to_its_first_colon():
    notes = "Noted [2/13] services/auth.conf: auth timeout_s = 20 (not above 30)\nNext."
    assert thinking.summary(notes) == "Noted [2/13] services/auth.conf.\nNext."


@pytest.mark.parametrize("summaries", [False, True])
def test_between_tools_shows_a_summary_only_when_asked(summaries):
    c = connect(model=SONNET, thinking_summaries=summaries)
    _, history = audit_start(c, steps=3, extra={"thinking": SUMMARIZED})
    shown = [b["thinking"] for m in history for b in blocks(m) if b["type"] == "thinking"]
    noted = [s for s in shown if s.startswith("Noted [")]
    assert noted, shown
    full = all(": " in s.splitlines()[0] for s in noted)
    assert full is not summaries  # the default shows the full notes (the old behaviour)


def test_the_signature_keeps_the_full_notes_behind_a_summary():
    c = connect(model=SONNET, thinking_summaries=True)
    work, history = audit_start(c, steps=3, extra={"thinking": SUMMARIZED})
    block = next(b for m in history for b in blocks(m)
                 if b["type"] == "thinking" and b["thinking"].startswith("Noted ["))
    payload = thinking.open_signature(block["signature"])
    assert payload["shown"] == block["thinking"] == thinking.summary(payload["thinking"])
    assert ": " in payload["thinking"] and len(payload["thinking"]) > len(block["thinking"])
    assert create(c, work, history, thinking=SUMMARIZED).stop_reason  # sent back: accepted


def test_a_client_side_clearing_invalidates_the_blocks_after_it():
    c = connect(model=SONNET)
    work, history = audit_start(c)
    edited = clear_tool_results(history, keep=1)
    e = refused(lambda: create(c, work, edited))
    assert message(e).startswith("messages.3.content.0: Invalid `signature` in `thinking` "
                                 "block. The block is bound to a different conversation.")
    sendable = drop_stale_thinking(history, edited)
    kept = [i for i, m in enumerate(sendable) for b in blocks(m) if b["type"] == "thinking"]
    assert kept == [1]  # only the block before the first cleared result survives
    assert create(c, work, sendable).stop_reason == "tool_use"


def test_the_tools_and_the_system_prompt_are_part_of_a_bound_blocks_prefix():
    """The docs: "The top-level `system` prompt, `tools`, and `messages` before the block are
    its prefix" (docs/api-facts.md 9.4). The same history with a tool added, the tools
    reordered or the system prompt changed is refused; the same request is accepted."""
    c = connect(model=SONNET)
    work, history = audit_start(c)
    grep = {"name": "grep", "description": "Search the files.",
            "input_schema": {"type": "object", "properties": {}}}
    for change in ({"tools": work.tools + [grep]}, {"tools": work.tools[::-1]},
                   {"system": DEFAULT_SYSTEM + " Be brief."}):
        e = refused(lambda change=change: create(c, work, history, **change))
        assert "The block is bound to a different conversation." in message(e), change
    assert create(c, work, history).stop_reason == "tool_use"


def test_dropped_summarized_blocks_leave_only_their_summary():
    c = connect(model=SONNET, thinking_summaries=True)
    work, history = audit_start(c, extra={"thinking": SUMMARIZED})
    sendable = drop_stale_thinking(history, clear_tool_results(history, keep=1))
    texts = [b["text"] for m in sendable[2:] for b in blocks(m) if b["type"] == "text"]
    assert texts and all(thinking.summary(t) == t for t in texts)


def test_server_side_clearing_leaves_bound_blocks_valid():
    c = connect(model=SONNET, context_window=8_000)
    edit = {"type": "clear_tool_uses_20250919", "keep": {"type": "tool_uses", "value": 1},
            "trigger": {"type": "input_tokens", "value": 1_000}}
    work, history = audit_start(c)
    r = create(c, work, history, betas=CONTEXT_BETA, context_management={"edits": [edit]})
    assert [a.type for a in r.context_management.applied_edits] == ["clear_tool_uses_20250919"]
    run = run_agent(c, work, max_tokens=512, model=SONNET, max_steps=60,
                    extra={"betas": CONTEXT_BETA, "context_management": {"edits": [edit]}})
    assert run.score.success
    assert all(b["type"] != "text" for m in run.history if m["role"] == "assistant"
               for b in blocks(m) if any(x["type"] == "tool_use" for x in blocks(m)))
