"""Lesson 9's checks pass correct answers and fail the known wrong ones.

Each exercise is graded against namespaces holding a correct implementation and
implementations that are wrong in one known way; the check aimed at that mistake must
fail (and, where the answer is otherwise right, the other checks must still pass).
"""

import re

from checktools import statuses

from agentlib import tokens
from classroom.checks import lesson09  # noqa: F401  (registers the checks)

SHARE_EXACT = "the definitions' tokens over the request's, counted exactly"
SHARE_NONE = "no tools: a share of 0"
D_WHICH = "defers every client tool but the ones kept loaded"
D_API = "the API accepts the tools: the search tool is never deferred"
D_PURE = "does not change its input"
S_SHAPE = "returns at most `top` tool_reference blocks, each naming a client tool in `tools`"
S_FINDS = "finds a tool from the words of its name"
S_RUN = "the agent answers the incident with it as its only way to find tools"


def failed(exercise: str, **namespace) -> set[str]:
    return {title for title, status in statuses(exercise, **namespace).items()
            if status != "pass"}


# ---------------------------------------------------------------- correct answers

def definition_share(tools, input_tokens):
    return tokens.count([], tools=tools) / input_tokens if tools else 0.0


def choose_deferred(tools, keep_loaded):
    return [t if "type" in t or t["name"] in keep_loaded else {**t, "defer_loading": True}
            for t in tools]


def search_tools(query, tools, top=3):
    words = set(re.findall(r"[a-z0-9]+", query.lower()))

    def score(t):
        text = set(re.findall(r"[a-z0-9]+", (t["name"].replace("_", " ") + " " +
                                             t.get("description", "")).lower()))
        return (len(words & set(t["name"].split("_"))), len(words & text))
    ranked = sorted((t for t in tools if "type" not in t), key=score, reverse=True)
    return [{"type": "tool_reference", "tool_name": t["name"]} for t in ranked[:top]
            if score(t) > (0, 0)]


def test_correct_answers_pass():
    assert failed("ex9.definition_share", definition_share=definition_share) == set()
    assert failed("ex9.choose_deferred", choose_deferred=choose_deferred) == set()
    assert failed("ex9.search_tools", search_tools=search_tools) == set()


# ---------------------------------------------------------------- wrong answers

def test_a_characters_estimate_fails_the_exact_share():
    def estimate(tools, input_tokens):
        return tokens.estimate([], tools=tools) / input_tokens if tools else 0.0
    assert failed("ex9.definition_share", definition_share=estimate) == {SHARE_EXACT}


def test_dividing_by_nothing_fails_the_empty_case():
    def crashes(tools, input_tokens):
        return tokens.count([], tools=tools) / input_tokens if tools else None
    assert SHARE_NONE in failed("ex9.definition_share", definition_share=crashes)


def test_deferring_the_search_tool_gets_the_400():
    def everything(tools, keep_loaded):
        return [t if t.get("name") in keep_loaded else {**t, "defer_loading": True}
                for t in tools]
    assert failed("ex9.choose_deferred", choose_deferred=everything) == {D_API}


def test_deferring_the_kept_tools_fails():
    def all_clients(tools, keep_loaded):
        return [t if "type" in t else {**t, "defer_loading": True} for t in tools]
    assert D_WHICH in failed("ex9.choose_deferred", choose_deferred=all_clients)


def test_setting_the_key_in_place_fails_purity():
    def in_place(tools, keep_loaded):
        for t in tools:
            if "type" not in t and t["name"] not in keep_loaded:
                t["defer_loading"] = True
        return tools
    assert failed("ex9.choose_deferred", choose_deferred=in_place) == {D_PURE}


def test_names_as_text_fail_the_shape_and_the_run():
    def names(query, tools, top=3):
        return [b["tool_name"] for b in search_tools(query, tools, top)]
    assert {S_SHAPE, S_RUN} <= failed("ex9.search_tools", search_tools=names)


def test_a_reference_to_no_tool_fails_the_shape():
    def invented(query, tools, top=3):
        return search_tools(query, tools, top - 1) + [
            {"type": "tool_reference", "tool_name": query.replace(" ", "_") + "_v2"}]
    assert S_SHAPE in failed("ex9.search_tools", search_tools=invented)


def test_a_search_that_ignores_the_query_fails_to_find():
    def first(query, tools, top=3):
        return [{"type": "tool_reference", "tool_name": t["name"]}
                for t in tools if "type" not in t][:top]
    assert {S_FINDS, S_RUN} <= failed("ex9.search_tools", search_tools=first)
