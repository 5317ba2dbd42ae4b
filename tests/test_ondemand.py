"""On-demand compaction (agentlib/context/ondemand.py, lesson 5b): the client decides when,
the API writes the summary; what comes back is a history the API accepts, the block first
and the kept turns unchanged with their thinking, and a failed compaction request loses
nothing (docs/api-facts.md 7.2)."""

from __future__ import annotations

import anthropic
import pytest

import agentlib
from agentlib.context.ondemand import ON_DEMAND_BETA, OnDemandCompactor
from agentlib.loop import DEFAULT_SYSTEM, drop_stale_thinking, run_agent
from agentlib.messages import blocks, validate
from coursekit import workloads


def history(n_files=8):
    """A finished audit's history, long enough to compact."""
    w = workloads.audit(n_files)
    run = run_agent(agentlib.connect(), w, max_steps=40)
    return w, run.history


def test_below_the_trigger_nothing_changes_and_nothing_is_sent():
    w, h = history()
    sent = []
    client = agentlib.connect()
    client.beta.messages.create = lambda **kw: sent.append(kw)  # would record a request
    on_demand = OnDemandCompactor(client, trigger=10_000_000, keep=4)
    assert on_demand(h) is h and sent == [] and on_demand.compactions == []


def test_over_the_trigger_the_old_part_becomes_one_signed_block():
    w, h = history()
    client = agentlib.connect()
    on_demand = OnDemandCompactor(client, trigger=2_000, keep=4, tools=w.tools)
    out = on_demand(h)
    assert len(on_demand.compactions) == 1 and len(out) < len(h)
    first = blocks(out[0])[0]
    assert out[0]["role"] == "assistant" and first["type"] == "compaction"
    assert first["content"] and first.get("signature")
    assert out[1:] == h[len(h) - len(out) + 1:]  # the kept part, verbatim
    validate(out)
    reply = client.beta.messages.create(model=agentlib.models.DEFAULT_MODEL, max_tokens=256,
                                        tools=w.tools, messages=[*out, {"role": "user",
                                                                        "content": "Go on."}],
                                        betas=[ON_DEMAND_BETA])
    whole = client.messages.count_tokens(model=agentlib.models.DEFAULT_MODEL, tools=w.tools,
                                         messages=[*h, {"role": "user", "content": "Go on."}])
    assert reply.usage.input_tokens < whole.input_tokens


def test_a_failed_compaction_request_keeps_the_history():
    w, h = history()
    client = agentlib.connect()

    def refuse(**kw):
        raise anthropic.APIConnectionError(request=None)
    client.beta.messages.create = refuse
    on_demand = OnDemandCompactor(client, trigger=2_000, keep=4)
    assert on_demand(h) is h and on_demand.failures == 1
    assert "history kept" in on_demand.event


# ---------------------------------------------------------------- as the docs give it

SONNET = "claude-sonnet-5-5"  # binds its thinking to the conversation before it
SYSTEM = DEFAULT_SYSTEM  # as run_agent sends it without a cache


def sonnet_history(n_files=6, steps=8):
    """The first requests of an audit on Sonnet 5.5's rules: each reply's notes in a bound
    thinking block (`between_tools`), the history ending with tool results."""
    w = workloads.audit(n_files)
    c = agentlib.connect(model=SONNET)
    run = run_agent(c, w, model=SONNET, max_steps=steps, max_tokens=512)
    return c, w, run.history


def thinking_in(messages):
    return sum(b.get("type") == "thinking" for m in messages for b in blocks(m))


def ask_next(c, w, messages, **kw):
    kw = {"system": SYSTEM, "thinking": agentlib.models.quiet_thinking(SONNET), **kw}
    return c.beta.messages.create(model=SONNET, max_tokens=512, tools=w.tools,
                                  messages=messages, betas=[ON_DEMAND_BETA], **kw)


def summarize(c, w, old, **kw):
    kw = {"system": SYSTEM, "model": SONNET, **kw}
    reply = c.beta.messages.create(max_tokens=4096, tools=w.tools, messages=old,
                                   compaction={"type": "summarize"}, betas=[ON_DEMAND_BETA], **kw)
    assert reply.stop_reason == "compaction"
    return {"role": "assistant", "content": [b.to_dict() for b in reply.content]}


def test_the_block_first_then_the_kept_turns_with_their_thinking():
    """The docs' recipe: the kept turns sent exactly as they are, thinking included, after
    the block as a message of its own; the API accepts the swap."""
    c, w, h = sonnet_history()
    on_demand = OnDemandCompactor(c, trigger=1_000, keep=4, system=SYSTEM, tools=w.tools,
                                  model=SONNET)
    out = on_demand(h)
    assert out[0]["content"][0]["type"] == "compaction" and len(out[0]["content"]) == 1
    assert out[1:] == h[-4:] and out[1] is h[-4]  # the kept part, the same objects
    assert thinking_in(out[1:]) == thinking_in(h[-4:]) > 0
    assert drop_stale_thinking(h, out) is out  # run_agent drops nothing
    assert ask_next(c, w, out).stop_reason  # accepted: every kept block is still valid
    whole = run_agent(agentlib.connect(model=SONNET), workloads.audit(12), model=SONNET,
                      context=[OnDemandCompactor(agentlib.connect(model=SONNET), trigger=2_500,
                                                 keep=4, system=DEFAULT_SYSTEM,
                                                 tools=workloads.audit(12).tools)],
                      extra={"betas": [ON_DEMAND_BETA]}, max_steps=60, max_tokens=512)
    assert whole.stopped == "answered" and whole.score.success
    assert not any(s.error for s in whole.steps)


def test_a_summary_written_on_the_client_breaks_the_kept_thinking():
    c, w, h = sonnet_history()
    mine = [{"role": "user", "content": "[Summary of earlier turns] I audited two files."},
            *h[-4:]]
    e = pytest.raises(anthropic.BadRequestError, ask_next, c, w, mine)
    assert "bound to a different conversation" in e.value.body["error"]["message"]


@pytest.mark.parametrize("broken", ["system changed", "summarized by course-model-1",
                                    "a system message between", "same role"])
def test_the_conditions_for_kept_thinking(broken):
    """Each condition of the docs broken once: the compaction goes through ("nothing fails
    when you compact"), the next request with the kept thinking is refused
    (docs/api-facts.md 7.2.5); kept as the docs say, it is accepted."""
    c, w, h = sonnet_history()
    old, kept = h[:-4], h[-4:]  # the cut between tool results and the next reply
    assert old[-1]["role"] == "user" and kept[0]["role"] == "assistant"
    if broken == "system changed":
        after = [summarize(c, w, old, system=DEFAULT_SYSTEM + " Be brief."), *kept]
    elif broken == "summarized by course-model-1":
        after = [summarize(c, w, old, model=agentlib.models.OFFLINE_MODEL), *kept]
    elif broken == "a system message between":  # the block opening a user message
        block = summarize(c, w, old)
        after = [{**block, "role": "user"}, {"role": "system", "content": "Be brief."}, *kept]
    else:  # the first kept message has the last summarized one's role: the API merges them
        after = [summarize(c, w, [*old, {"role": "assistant", "content": "Noted."}]), *kept]
    e = pytest.raises(anthropic.BadRequestError, ask_next, c, w, after)
    assert "bound to a different conversation" in e.value.body["error"]["message"]
    assert ask_next(c, w, [summarize(c, w, old), *kept]).stop_reason


def test_the_summary_is_written_from_the_whole_context_thinking_included():
    """On Sonnet 5.5 the notes are in thinking blocks shown empty: the server's summary
    (on demand and at a threshold) holds them, as the docs say the summarizer reads the
    whole conversation, earlier thinking included."""
    c, w, h = sonnet_history(steps=6)
    assert not any("Noted [" in (b.get("text") or "") for m in h for b in blocks(m))
    block = summarize(c, w, h)["content"][0]
    assert "Noted [1/" in block["content"] and "Noted [2/" in block["content"]
