"""Tool search and deferred loading through the SDK (docs/api-facts.md, section 20)."""

import anthropic
import pytest
from apitools import MODEL, message, no_network, refused  # noqa: F401

from agentlib import connect, tokens
from agentlib.loop import run_agent
from agentlib.messages import user
from coursekit import workloads

REGEX = {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}
TOOL = {"name": "get_weather", "description": "Get the weather at a place.",
        "input_schema": {"type": "object", "properties": {"place": {"type": "string"}}}}


def ops_request(defer):
    w = workloads.ops(defer=defer)
    return w, {"model": MODEL, "max_tokens": 1024, "tools": w.tools,
               "messages": [user(w.task)]}


def test_deferred_definitions_are_not_counted_until_referenced():
    c = connect()
    _, naive = ops_request(None)
    w, deferred = ops_request("regex")
    full = c.messages.count_tokens(**{k: v for k, v in naive.items() if k != "max_tokens"})
    small = c.messages.count_tokens(**{k: v for k, v in deferred.items() if k != "max_tokens"})
    assert small.input_tokens < full.input_tokens / 10
    r = c.messages.create(**deferred)
    assert r.usage.input_tokens == small.input_tokens  # count_tokens agrees
    kinds = [b.type for b in r.content]
    assert kinds[:3] == ["text", "server_tool_use", "tool_search_tool_result"] and \
        kinds[-1] == "tool_use" and r.stop_reason == "tool_use"
    refs = [t.tool_name for t in r.content[2].content.tool_references]
    assert "get_incident" in refs and 1 <= len(refs) <= 5
    assert r.usage.server_tool_use.tool_search_requests == 1
    history = [user(w.task), {"role": "assistant", "content": [b.to_dict() for b in r.content]},
               user({"type": "tool_result", "tool_use_id": r.content[-1].id, "content": "{}"})]
    after = c.messages.count_tokens(model=MODEL, tools=w.tools, messages=history)
    loaded = sum(tokens.count([], tools=[t]) for t in naive["tools"] if t["name"] in refs)
    assert after.input_tokens > small.input_tokens + loaded * 0.8  # referenced: counted now


def test_bm25_and_streaming_give_the_same_blocks():
    c = connect()
    _, req = ops_request("bm25")
    r = c.messages.create(**req)
    assert r.content[1].name == "tool_search_tool_bm25"
    with c.messages.stream(**req) as s:
        final = s.get_final_message()
    def shape(m):  # ids derive from the request's bytes, which `stream` changes
        return [{k: v for k, v in b.to_dict().items() if k not in ("id", "tool_use_id")}
                for b in m.content]
    assert shape(final) == shape(r)


def test_client_tool_reference_expands():
    c = connect()
    deferred = {**TOOL, "defer_loading": True}
    finder = {"name": "search_tools", "description": "Find tools.",
              "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}}
    base = [user("Hi"), {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "search_tools", "input": {"query": "w"}}]}]
    refs = base + [user({"type": "tool_result", "tool_use_id": "toolu_1",
                         "content": [{"type": "tool_reference", "tool_name": "get_weather"}]})]
    empty = base + [user({"type": "tool_result", "tool_use_id": "toolu_1", "content": "none"})]
    n_ref = c.messages.count_tokens(model=MODEL, tools=[finder, deferred], messages=refs)
    n_none = c.messages.count_tokens(model=MODEL, tools=[finder, deferred], messages=empty)
    assert n_ref.input_tokens > n_none.input_tokens + 20


@pytest.mark.parametrize("tools, messages, text", [
    ([{**TOOL, "defer_loading": True}], None,
     "All tools have defer_loading set. At least one tool must be non-deferred."),
    ([{**REGEX, "defer_loading": True}, {**TOOL, "defer_loading": True}], None,
     "tools.0.defer_loading: the tool search tool itself cannot be deferred"),
    ([REGEX, {**TOOL, "defer_loading": "yes"}], None,
     "tools.1.defer_loading: Input should be a valid boolean"),
    ([REGEX, {**TOOL, "allowed_callers": ["robot"]}], None, "tools.1.allowed_callers.0: Input"),
    ([REGEX, TOOL], [user("Hi"), {"role": "assistant", "content": [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_regex",
         "input": {"query": "x"}},
        {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1", "content": {
            "type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": "nope"}]}}]},
        user("Go on.")], "Tool reference 'nope' has no corresponding tool definition"),
], ids=["all-deferred", "search-deferred", "wrong-type", "bad-caller", "unknown-reference"])
def test_the_apis_400s(tools, messages, text):
    e = refused(lambda: connect().messages.create(model=MODEL, max_tokens=100, tools=tools,
                                                  messages=messages or [user("Hi")]))
    assert message(e).startswith(text)


def test_tool_runner_with_deferred_tools():
    from anthropic import beta_tool

    c = connect()
    w = workloads.ops()
    calls = []

    def make(name):
        @beta_tool(name=name, defer_loading=True)
        def fn(incident_id: str = "", service: str = "", team: str = "", before: str = "",
               at: str = "", limit: int = 5) -> str:
            """An ops tool."""
            calls.append(name)
            args = {k: v for k, v in dict(incident_id=incident_id, service=service, team=team,
                                          before=before, at=at, limit=limit).items() if v}
            return w.toolbox.run({"type": "tool_use", "id": "x", "name": name,
                                  "input": args})["content"]
        return fn
    tools = [make(n) for n in w.truth["tools_needed"]]
    runner = c.beta.messages.tool_runner(model=MODEL, max_tokens=1024, tools=tools,
                                         messages=[user(w.task)])
    with pytest.raises(anthropic.BadRequestError) as e:  # every tool deferred, no search
        list(runner)
    assert "All tools have defer_loading set" in str(e.value)
    runner = c.beta.messages.tool_runner(
        model=MODEL, max_tokens=1024, tools=[*tools, REGEX], messages=[user(w.task)])
    last = list(runner)[-1]
    assert w.score(last.content[-1].text).success and calls == w.truth["tools_needed"]


@pytest.mark.parametrize("defer", [None, "regex", "bm25"])
def test_run_agent_on_the_ops_workload(defer):
    w = workloads.ops(defer=defer)
    run = run_agent(connect(), w, max_steps=20)
    assert run.score.success, run
    if defer:
        assert run.peak_input_tokens < 8000
    else:
        assert run.peak_input_tokens > 15000


def test_the_needed_tools_change_mid_task():
    w = workloads.ops(variant="change", defer="regex")
    run = run_agent(connect(), w, max_steps=20)
    assert run.score.success, run
    assert [c[0] for c in run.tool_calls()][-2:] == w.truth["tools_needed_later"]
