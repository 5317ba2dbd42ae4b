"""Summarizing compaction, client-side and server-side (lesson 05)."""

import anthropic
import pytest

import agentlib
from agentlib import workloads
from agentlib.context.compact import (
    FREE_FORM_PROMPT,
    STRUCTURED_PROMPT,
    SUMMARY_MARK,
    Compactor,
    transcript,
)
from agentlib.loop import run_agent
from agentlib.messages import copy_history, starts_with_tool_result, validate

COMPACT_BETA = {"betas": ["compact-2026-01-12"]}


def small():
    return agentlib.connect(offline=True, context_window=8000)


def test_compaction_finishes_where_append_only_overflows():
    c = small()
    w = workloads.audit(12)
    assert run_agent(c, w, max_tokens=512).stopped.startswith("error: prompt is too long")
    compactor = Compactor(c, trigger=5000, keep=4)
    run = run_agent(c, w, max_tokens=512, context=[compactor])
    assert run.score.success and run.peak_input_tokens < 8000
    assert len(compactor.compactions) >= 2  # repeated compactions fold the earlier summary
    first = compactor.compactions[0]
    assert first.tokens_after < first.tokens_before and first.summary_input_tokens > 0
    summaries = [m for m in run.history if m["content"][0].get("text", "").startswith(SUMMARY_MARK)]
    assert len(summaries) == 1 and run.history[0] is summaries[0]


def test_structured_summary_keeps_the_constraint_free_form_loses_it():
    c = small()
    w = workloads.constraints()
    structured = run_agent(c, w, max_tokens=512,
                           context=[Compactor(c, trigger=600, keep=4)])
    loose = run_agent(c, w, max_tokens=512, context=[
        Compactor(c, trigger=600, keep=4, prompt=FREE_FORM_PROMPT)])
    assert structured.score.constraint_kept and structured.score.success
    assert loose.score.constraint_kept is False


def test_the_cut_never_splits_a_pair():
    c = agentlib.connect(offline=True)
    history = run_agent(c, workloads.audit(6), max_steps=6).history
    # keep=1 would cut just before the last tool_result: the cut must move back
    assert starts_with_tool_result(history[-1])
    compactor = Compactor(c, trigger=10, margin=0, keep=1)
    out = compactor(history)
    validate(out)
    assert out[-1] == history[-1] and out[-2] == history[-2]  # the pair stayed together
    assert out[0]["content"][0]["text"].startswith(SUMMARY_MARK)


def test_a_failing_summarizer_loses_nothing_and_retries():
    c = small()
    broken = agentlib.connect(offline=True, faults={1: 500}, max_retries=0)
    history = run_agent(agentlib.connect(offline=True), workloads.audit(6), max_steps=6).history
    snapshot = copy_history(history)
    compactor = Compactor(broken, trigger=10, margin=0, keep=2)
    out = compactor(history)
    assert out is history and history == snapshot and compactor.failures == 1
    assert "failed" in compactor.event
    out = compactor(history)  # next step: the summarizer answers
    assert out is not history and len(compactor.compactions) == 1
    run = run_agent(c, workloads.audit(12), max_tokens=512, context=[
        Compactor(agentlib.connect(offline=True, faults={1: 500}, max_retries=0),
                  trigger=5000, keep=4)])
    assert run.score.success


def test_transcript_is_plain_text():
    history = run_agent(agentlib.connect(offline=True), workloads.audit(4), max_steps=3).history
    text = transcript(history)
    assert text.startswith("USER: Audit the service configs")
    assert "TOOL CALL list_files {}" in text and "TOOL RESULT (list_files):" in text


def test_summaries_follow_the_prompt():
    c = agentlib.connect(offline=True)
    history = run_agent(c, workloads.constraints(), max_steps=8).history
    msg = [{"role": "user", "content": transcript(history)}]
    structured = c.messages.create(model="course-model-1", max_tokens=2048, system=STRUCTURED_PROMPT,
                                   messages=msg).content[0].text
    loose = c.messages.create(model="course-model-1", max_tokens=2048, system=FREE_FORM_PROMPT,
                              messages=msg).content[0].text
    for section in ("## Goal", "## Progress", "## Key facts", "## Decisions", "## Next steps"):
        assert section in structured
    assert "at most $1,400" in structured and "$1,400" not in loose
    assert "1,400" not in loose and "32 GB" not in loose


def server_edit(**kw):
    return {**COMPACT_BETA, "context_management": {"edits": [
        {"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}, **kw}]}}


def test_server_side_compaction_on_a_large_audit():
    c = agentlib.connect(offline=True)
    w = workloads.audit(100)
    run = run_agent(c, w, max_steps=300, extra=server_edit())
    plain = run_agent(c, w, max_steps=300)
    assert run.score.success and plain.score.success
    assert run.peak_input_tokens <= 50_000 < plain.peak_input_tokens
    blocks = [b for m in run.history if m["role"] == "assistant" for b in m["content"]
              if b["type"] == "compaction"]
    assert blocks and all(b["content"] for b in blocks)


def test_server_side_compaction_details():
    c = agentlib.connect(offline=True)
    w = workloads.audit(100)
    history = run_agent(c, w, max_steps=90).history
    r = c.beta.messages.create(model="course-model-1", max_tokens=1024, tools=w.tools, messages=history,
                               **server_edit(pause_after_compaction=True))
    assert r.stop_reason == "compaction" and [b.type for b in r.content] == ["compaction"]
    assert [i.type for i in r.usage.iterations] == ["compaction"]
    r = c.beta.messages.create(model="course-model-1", max_tokens=1024, tools=w.tools, messages=history,
                               **server_edit())
    assert r.content[0].type == "compaction" and r.content[0].content.startswith("<summary>\n## Goal")
    assert [i.type for i in r.usage.iterations] == ["compaction", "message"]
    assert r.usage.input_tokens == r.usage.iterations[1].input_tokens
    # pass the whole content back: the next request sees only what follows the block
    reply = {"role": "assistant", "content": [b.to_dict() for b in r.content]}
    nxt = history + [reply, w.toolbox.run_all(reply)]
    r2 = c.beta.messages.create(model="course-model-1", max_tokens=1024, tools=w.tools, messages=nxt,
                                **server_edit())
    assert r2.usage.input_tokens < 10_000 and r2.content[0].type != "compaction"
    with pytest.raises(anthropic.BadRequestError, match="at least 50000"):
        c.beta.messages.create(model="course-model-1", max_tokens=1024, tools=w.tools, messages=history,
                               **{**COMPACT_BETA, "context_management": {"edits": [
                                   {"type": "compact_20260112",
                                    "trigger": {"type": "input_tokens", "value": 10_000}}]}})
