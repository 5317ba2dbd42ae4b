"""On-demand compaction (agentlib/context/ondemand.py, lesson 5b): the client decides when,
the API writes the summary; what comes back is a history the API accepts, and a failed
compaction request loses nothing (docs/api-facts.md 7.2)."""

from __future__ import annotations

import anthropic

import agentlib
from agentlib.context.ondemand import ON_DEMAND_BETA, OnDemandCompactor
from agentlib.loop import run_agent
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
