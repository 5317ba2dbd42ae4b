"""Checks for lesson 9's exercises: ex9.definition_share, ex9.choose_deferred, ex9.search_tools.

Each check runs the learner's function on the ops platform's real catalog
(`coursekit.workloads.ops`, 61 definitions, and subsets of it) and judges the output by
exact counts (`agentlib.tokens.count`), by the API's own rules (the offline stand-in's
`count_tokens`, which answers 400 as the API does) and by a whole agent run on the
offline model. Known wrong answers fail on purpose: estimating with characters / 4,
deferring the search tool itself (the 400), deferring the tools that must stay loaded,
changing the input, and returning tool names as text instead of `tool_reference` blocks
(tests/test_lesson09_checks.py proves each).
"""

from __future__ import annotations

import copy
from functools import lru_cache

from agentlib import tokens
from classroom.grading import drawn, register

# No library function of agentlib does these three, so nothing is declared as own work
# (`own_work`): the learner may use all of agentlib, `tokens.count` first.

REGEX = {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}


@lru_cache(maxsize=1)
def _catalog() -> tuple[dict, ...]:
    from coursekit import workloads

    return tuple(workloads.ops().tools)


def _tool_sets() -> list[list[dict]]:
    tools = [copy.deepcopy(t) for t in _catalog()]
    return [tools[:1], tools[:4], tools[:17], tools,
            *(r.sample(tools, r.randrange(2, len(tools))) for r in drawn(91, 2))]


def _defs(tools) -> int:
    return tokens.count([], tools=tools)


# ---------------------------------------------------------------- ex9.definition_share

@register("ex9.definition_share", "the definitions' tokens over the request's, counted exactly",
          hint="tokens.count([], tools=tools) is what the definitions cost; divide it by the "
               "request's input_tokens (no characters / 4 estimate)",
          needs=("definition_share",))
def _share_exact(ns: dict) -> None:
    for tools in _tool_sets():
        d = _defs(tools)
        extra = [d + r.randrange(1, 50_000) for r in drawn(92, 2)]
        for request in (d + 350, d * 2, d + 4_000, *extra):
            got = ns["definition_share"](copy.deepcopy(tools), request)
            want = d / request
            assert isinstance(got, float | int), (
                f"definition_share should return a number, got {type(got).__name__}")
            assert abs(got - want) < 1e-9, (
                f"definition_share({len(tools)} tools, {request:,}) returned {got!r}; the "
                f"definitions count {d:,} tokens, so the share is {want:.4f}")


@register("ex9.definition_share", "no tools: a share of 0", hint="tokens.count([], tools=[]) "
          "is 0; return 0.0, not an error", needs=("definition_share",))
def _share_none(ns: dict) -> None:
    got = ns["definition_share"]([], 500)
    assert got == 0, f"definition_share([], 500) returned {got!r}; with no tools it is 0"


@register("ex9.definition_share", "does not change its input",
          hint="count with tokens.count; never change the tools you were given",
          needs=("definition_share",))
def _share_pure(ns: dict) -> None:
    for tools in _tool_sets():
        data = copy.deepcopy(tools)
        ns["definition_share"](data, 20_000)
        assert data == tools, "definition_share changed the tools it was given"


# ---------------------------------------------------------------- ex9.choose_deferred

DEFER_HINT = ("for each tool: a server tool (it has a 'type') and a tool named in keep_loaded "
              "stay as they are; every other one becomes {**tool, 'defer_loading': True}")


def _defer_cases():
    tools = [copy.deepcopy(t) for t in _catalog()]
    names = [t["name"] for t in tools]
    yield [*tools, dict(REGEX)], set(names[:4])
    yield [dict(REGEX), *tools[:10]], {names[0]}
    yield [*tools[:6], dict(REGEX)], set(names[:6])
    for r in drawn(93, 2):
        some = r.sample(tools, r.randrange(3, len(tools)))
        some.insert(r.randrange(len(some) + 1), dict(REGEX))
        yield some, {t["name"] for t in r.sample(some, r.randrange(0, 6)) if "type" not in t}


def _call_defer(ns, tools, keep):
    out = ns["choose_deferred"](copy.deepcopy(tools), set(keep))
    assert isinstance(out, list), f"choose_deferred should return a list, got {type(out).__name__}"
    return out


@register("ex9.choose_deferred", "defers every client tool but the ones kept loaded",
          hint=DEFER_HINT, needs=("choose_deferred",))
def _defer_which(ns: dict) -> None:
    for tools, keep in _defer_cases():
        out = _call_defer(ns, tools, keep)
        assert [t.get("name") for t in out] == [t["name"] for t in tools], (
            "choose_deferred should return every tool, in the same order")
        for got, want in zip(out, tools, strict=True):
            name = want["name"]
            if "type" in want:
                continue
            if name in keep:
                assert not got.get("defer_loading"), (
                    f"{name} is in keep_loaded but was deferred: the tools every task needs "
                    "stay loaded")
            else:
                assert got.get("defer_loading") is True, (
                    f"{name} is not in keep_loaded, so it should carry defer_loading: True")
            rest = {k: v for k, v in got.items() if k != "defer_loading"}
            assert rest == {k: v for k, v in want.items() if k != "defer_loading"}, (
                f"{name}: only defer_loading may change; its other fields should stay")


@register("ex9.choose_deferred", "the API accepts the tools: the search tool is never deferred",
          hint="a tool with a 'type' (the tool search tool) must stay loaded: the API answers "
               "400 when the search tool itself is deferred", needs=("choose_deferred",))
def _defer_api(ns: dict) -> None:
    import anthropic

    from agentlib import connect

    client = connect(offline=True)
    for tools, keep in _defer_cases():
        out = _call_defer(ns, tools, keep)
        try:
            client.messages.count_tokens(model="course-model-1", tools=out,
                                         messages=[{"role": "user", "content": "Hi"}])
        except anthropic.BadRequestError as e:
            raise AssertionError("the API refused the tools choose_deferred returned: "
                                 f"{e.body['error']['message']}") from None


@register("ex9.choose_deferred", "does not change its input",
          hint="build new dicts ({**tool, 'defer_loading': True}) instead of setting a key on "
               "the ones you were given", needs=("choose_deferred",))
def _defer_pure(ns: dict) -> None:
    for tools, keep in _defer_cases():
        data = copy.deepcopy(tools)
        ns["choose_deferred"](data, set(keep))
        assert data == tools, "choose_deferred changed the list or the tools it was given"


# ---------------------------------------------------------------- ex9.search_tools

SEARCH_HINT = ("return [{'type': 'tool_reference', 'tool_name': name}, ...] for the best "
               "matches, never a plain name or a text")


def _call_search(ns, query, tools, top=3):
    out = ns["search_tools"](query, copy.deepcopy(tools), top)
    assert isinstance(out, list), (f"search_tools({query!r}, ...) should return a list of "
                                   f"blocks, got {type(out).__name__}")
    return out


@register("ex9.search_tools", "returns at most `top` tool_reference blocks, each naming a "
          "client tool in `tools`", hint=SEARCH_HINT, needs=("search_tools",))
def _search_shape(ns: dict) -> None:
    tools = [*_catalog(), REGEX]
    names = {t["name"] for t in tools if "type" not in t}
    words = sorted({w for t in tools if "type" not in t for w in t["name"].split("_")})
    extra = [(" ".join(r.sample(words, r.randrange(1, 4))), r.randrange(1, 6)) for r in drawn(94, 3)]
    for query, top in (("incident", 3), ("invoice line items", 2), ("dns record", 5),
                       ("zzzz nothing matches", 3), *extra):
        out = _call_search(ns, query, tools, top)
        assert len(out) <= top, f"search_tools({query!r}, top={top}) returned {len(out)} blocks"
        for b in out:
            assert isinstance(b, dict) and b.get("type") == "tool_reference" and \
                set(b) == {"type", "tool_name"}, (
                f"search_tools({query!r}) returned {b!r}; each item should be "
                "{'type': 'tool_reference', 'tool_name': ...}")
            assert b["tool_name"] in names, (
                f"search_tools({query!r}) referenced {b['tool_name']!r}, which is not a client "
                "tool in `tools` (the API answers 400 for a reference with no definition)")


@register("ex9.search_tools", "finds a tool from the words of its name",
          hint="score each tool by the query's words found in its name and description; "
               "split the name on '_' so 'get_oncall' matches 'get oncall'",
          needs=("search_tools",))
def _search_finds(ns: dict) -> None:
    tools = list(_catalog())
    orders = drawn(95)
    for t in tools:
        words = t["name"].split("_")
        for r in orders:  # at grading time, the words in an order drawn then
            r.shuffle(words)
        query = " ".join(words)
        out = _call_search(ns, query, tools, 3)
        found = [b.get("tool_name") for b in out if isinstance(b, dict)]
        assert t["name"] in found, (f"search_tools({query!r}, top=3) returned {found}; "
                                    f"{t['name']} should be among them")


@register("ex9.search_tools", "the agent answers the incident with it as its only way to "
          "find tools", hint="the agent calls search_tools(query) with a few words; the "
          "references you return load those tools", needs=("search_tools",))
def _search_run(ns: dict) -> None:
    from agentlib import connect
    from agentlib.loop import run_agent
    from coursekit import workloads

    ns["search_tools"]("get incident", list(_catalog()), 3)  # a stub raises here, not in the run
    w = workloads.ops(defer=True)
    definitions = [copy.deepcopy(t) for t in w.tools]
    w.toolbox.add_definition(
        {"name": "search_tools", "description": "Search the tool catalog with a few words.",
         "input_schema": {"type": "object", "properties": {"query": {"type": "string"}},
                          "required": ["query"]}},
        lambda args: ns["search_tools"](args["query"], copy.deepcopy(definitions), 3))
    run = run_agent(connect(offline=True), w, max_steps=20)
    assert run.score.success, (f"the agent did not answer right: {run.stopped}; "
                               f"{run.score.detail}; its searches: "
                               f"{[a['query'] for _, a in run.tool_calls('search_tools')]}")
