"""What a clear or a compaction does to tools loaded by a `tool_reference` (docs/api-facts.md
20.20-20.22): a deferred definition is loaded where its reference stands, so whatever removes
the reference from what the model sees unloads the tool, and the model must search again
before it calls it; `exclude_tools` keeps a search's results, and its tools with them."""

import dataclasses
import re

from apitools import no_network  # noqa: F401

import coursekit
from agentlib import models
from agentlib.loop import DEFAULT_SYSTEM, run_agent
from agentlib.messages import blocks, user
from coursekit import workloads
from coursekit.opsworkload import CHANGE_TURN
from standin import tooling

BETA = "context-management-2025-06-27"
SEARCH = {"name": "search_tools", "description": "Search the tool catalog with a few words.",
          "input_schema": {"type": "object", "properties": {"query": {"type": "string"}},
                           "required": ["query"]}}


def with_client_search(workload):
    """The workload with every tool deferred and a client search returning references."""
    definitions = workload.tools

    def search(args):
        words = set(re.findall(r"[a-z]+", args["query"].lower()))
        def score(d):
            return len(words & set(re.findall(r"[a-z]+", (d["name"].replace("_", " ") + " " +
                                                          d["description"]).lower())))
        ranked = sorted(definitions, key=score, reverse=True)[:3]
        return [{"type": "tool_reference", "tool_name": d["name"]} for d in ranked]
    workload.toolbox.add_definition(SEARCH, search)
    return workload


def clearing(exclude=None):
    edit = {"type": "clear_tool_uses_20250919", "keep": {"type": "tool_uses", "value": 3},
            "trigger": {"type": "input_tokens", "value": 2_500}}
    if exclude:
        edit["exclude_tools"] = exclude
    return {"betas": [BETA], "context_management": {"edits": [edit]}}


def test_visible_tools_are_the_ones_referenced_in_what_the_model_sees():
    deferred = {**SEARCH, "name": "get_weather", "defer_loading": True}
    refs = [user("Hi"), {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "search_tools", "input": {"query": "w"}}]},
        user({"type": "tool_result", "tool_use_id": "toolu_1",
              "content": [{"type": "tool_reference", "tool_name": "get_weather"}]})]
    catalog = tooling.Catalog([SEARCH, deferred], refs)
    names = [t["name"] for t in catalog.visible(refs)]
    assert names == ["search_tools", "get_weather"]
    cleared = refs[:2] + [user({"type": "tool_result", "tool_use_id": "toolu_1",
                                "content": "[cleared]"})]
    assert [t["name"] for t in catalog.visible(cleared)] == ["search_tools"]
    assert [t["name"] for t in catalog.visible(cleared, {"get_weather"})] == \
        ["search_tools", "get_weather"]  # loaded by this reply's own search


def test_a_cleared_search_result_unloads_its_tools_and_the_agent_searches_again():
    runs = {}
    for label, extra in (("cleared", clearing()), ("kept", clearing(["search_tools"]))):
        w = with_client_search(workloads.ops(variant="invoices", n_invoices=8, defer=True))
        runs[label] = run_agent(coursekit.connect(), w, extra=extra, max_steps=40)
    for label, run in runs.items():
        assert run.score.success, (label, run.stopped, run.score)
        assert any("server: clear_tool_uses" in e for s in run.steps for e in s.events)
    # exclude_tools keeps the search's results: one search loads both tools for good
    assert len(runs["kept"].tool_calls("search_tools")) == 1
    # without it the clear empties the search's result: its tools are gone from the model's
    # context, and it searches again each time it needs one of them
    assert len(runs["cleared"].tool_calls("search_tools")) > 2
    assert runs["cleared"].calls > runs["kept"].calls


def test_a_compaction_unloads_the_tools_loaded_before_it():
    for model in (models.OFFLINE_MODEL, "claude-sonnet-5-5"):
        client = coursekit.connect(model=model)
        change = workloads.ops(variant="change", defer="regex")
        first = run_agent(client, dataclasses.replace(change, turns=[]), model=model,
                          max_steps=20)
        before = [b["input"]["query"] for m in first.history for b in blocks(m)
                  if b["type"] == "server_tool_use"]
        reply = client.beta.messages.create(
            model=model, max_tokens=4096, system=DEFAULT_SYSTEM, tools=change.tools,
            messages=first.history, compaction={"type": "summarize"},
            thinking=models.quiet_thinking(model), betas=["compact-2026-09-04"])
        block = reply.content[0].to_dict()
        assert block["type"] == "compaction"
        history = [{"role": "assistant", "content": [block]},
                   user(CHANGE_TURN.format(incident=change.truth["incident"]))]
        second = run_agent(client, change, model=model, history=history, max_steps=20,
                           extra={"betas": ["compact-2026-09-04"]})
        assert second.score.success, (model, second.stopped, second.score)
        after = [b["input"]["query"] for m in second.history[2:] for b in blocks(m)
                 if b["type"] == "server_tool_use"]
        # every tool it had loaded before the block was searched for again before its call
        assert set(before) <= set(after), (model, before, after)
        loaded = {r["tool_name"] for m in second.history[2:] for b in blocks(m)
                  if b["type"] == "tool_search_tool_result"
                  for r in b["content"]["tool_references"]}
        assert {name for name, _ in second.tool_calls()} <= loaded


def test_a_compaction_block_in_the_history_unloads_what_came_before_it():
    """The threshold edit's way: the client sends its whole history, the server drops what
    precedes the newest compaction block, the references before it with the rest."""
    client = coursekit.connect()
    change = workloads.ops(variant="change", defer="regex")
    first = run_agent(client, dataclasses.replace(change, turns=[]), max_steps=20)
    summary = {"type": "compaction", "content": f"<summary>{change.task}</summary>"}
    history = first.history + [user(CHANGE_TURN.format(incident=change.truth["incident"])),
                               {"role": "assistant", "content": [summary]}, user("Go on.")]
    reply = client.beta.messages.create(model=models.OFFLINE_MODEL, max_tokens=2048,
                                        tools=change.tools, messages=history,
                                        betas=["compact-2026-01-12"])
    kinds = [b.type for b in reply.content]
    assert kinds[1:3] == ["server_tool_use", "tool_search_tool_result"], kinds  # searched first
    assert reply.content[-1].name == "get_incident"
