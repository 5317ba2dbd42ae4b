"""Summarizing compaction, client-side and server-side (lesson 05)."""

import anthropic
import pytest

import agentlib
import coursekit
from agentlib.context.compact import (
    FREE_FORM_PROMPT,
    PARAPHRASE_PROMPT,
    STRUCTURED_PROMPT,
    SUMMARY_MARK,
    Compactor,
    transcript,
    user_words,
)
from agentlib.loop import run_agent
from agentlib.messages import assistant, copy_history, starts_with_tool_result, user, validate
from coursekit import workloads

COMPACT_BETA = {"betas": ["compact-2026-01-12"]}


def small():
    return coursekit.connect(offline=True, context_window=8000)


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
                           context=[Compactor(c, trigger=1000, keep=4)])
    loose = run_agent(c, w, max_tokens=512, context=[
        Compactor(c, trigger=1000, keep=4, prompt=FREE_FORM_PROMPT)])
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
    broken = coursekit.connect(offline=True, faults={1: 500}, max_retries=0)
    history = run_agent(agentlib.connect(offline=True), workloads.audit(6), max_steps=6).history
    snapshot = copy_history(history)
    compactor = Compactor(broken, trigger=10, margin=0, keep=2)
    out = compactor(history)
    assert out is history and history == snapshot and compactor.failures == 1
    assert "failed" in compactor.event
    out = compactor(history)  # next step: the summarizer answers
    assert out is not history and len(compactor.compactions) == 1
    run = run_agent(c, workloads.audit(12), max_tokens=512, context=[
        Compactor(coursekit.connect(offline=True, faults={1: 500}, max_retries=0),
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


# ---------------------------------------------------------------- triggers, pins, paraphrase


def test_a_message_count_trigger_is_the_courses_own_kind():
    from agentlib.context import trigger as triggers

    assert triggers.parse({"type": "messages", "value": 20}) == ("messages", 20)
    assert "messages" not in triggers.API_KINDS and "messages" in triggers.KINDS
    history = [user("a"), user("b"), user("c")]
    assert triggers.reached({"type": "messages", "value": 2}, history)
    assert not triggers.reached({"type": "messages", "value": 3}, history)
    for bad in ({"type": "messages", "value": -1}, {"type": "turns", "value": 3},
                {"type": "messages", "value": True}):
        with pytest.raises(ValueError):
            triggers.parse(bad)


def test_compactor_with_a_message_trigger_counts_messages_not_tokens():
    c = small()
    compactor = Compactor(c, trigger={"type": "messages", "value": 10}, keep=4)
    assert compactor.margin == 0 and "'messages'" in repr(compactor)
    run = run_agent(c, workloads.constraints(), max_tokens=512, context=[compactor])
    assert compactor.compactions and run.stopped == "answered"
    assert all(s.messages_sent <= 10 + 1 for s in run.steps)  # folded once past 10
    with pytest.raises(ValueError, match="margin counts tokens"):
        Compactor(c, trigger={"type": "messages", "value": 10}, margin=100)
    with pytest.raises(ValueError, match="counts input tokens"):
        Compactor(c, trigger={"type": "tool_uses", "value": 10})


def test_pin_user_keeps_the_users_words_verbatim_after_the_summary():
    history = [user("Audit the configs."), assistant("I'll list them."),
               user("One rule: the budget is at most $1,400."), assistant("Understood."),
               user(f"{SUMMARY_MARK}\nan old summary"), assistant("Noted."),
               user("Which one?"), assistant("Let me check.")]
    assert user_words(history) == ["Audit the configs.",
                                   "One rule: the budget is at most $1,400.", "Which one?"]
    c = agentlib.connect(offline=True)
    out = Compactor(c, trigger=1, margin=0, keep=2, pin_user=True)(history)
    validate(out)
    assert out[0]["content"][0]["text"].startswith(SUMMARY_MARK)
    assert [m["content"][0]["text"] for m in out[1:3]] == user_words(history[:6])
    assert out[3:] == history[6:]
    plain = Compactor(c, trigger=1, margin=0, keep=2)(history)
    assert len(plain) == 3 and "pin_user=True" not in repr(Compactor(c, 1))


def test_a_paraphrasing_summary_keeps_the_number_but_not_the_limit():
    c = small()
    w = workloads.constraints()
    runs = {}
    for label, prompt, pin in (("verbatim", STRUCTURED_PROMPT, False),
                               ("paraphrase", PARAPHRASE_PROMPT, False),
                               ("paraphrase + pin", PARAPHRASE_PROMPT, True)):
        compactor = Compactor(c, trigger=1000, keep=4, prompt=prompt, pin_user=pin)
        runs[label] = (run_agent(c, w, max_tokens=512, context=[compactor]), compactor)
    assert runs["verbatim"][0].score.success and runs["paraphrase + pin"][0].score.success
    loose, _ = runs["paraphrase"]
    assert loose.score.constraint_kept is False
    summary = next(s.sent[0]["content"][0]["text"] for s in loose.steps if s.events)
    assert "$1,400" in summary and "at most" not in summary and "around $1,400" in summary


def test_the_summarizer_restates_only_when_asked_and_never_against_verbatim():
    from standin import summarizer

    turns = [("USER", "Plan a trip."), ("USER", "Hard limits: the budget is at most $900.")]
    restated = summarizer.summarize(turns, PARAPHRASE_PROMPT)
    assert "around $900" in restated and "at most" not in restated
    verbatim = summarizer.summarize(turns, STRUCTURED_PROMPT)
    assert '"Hard limits: the budget is at most $900."' in verbatim
    both = PARAPHRASE_PROMPT + " Quote every limit verbatim."
    assert "at most $900" in summarizer.summarize(turns, both)
