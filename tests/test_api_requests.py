"""Every parameter is honoured or refused, never silently ignored; betas are required and
checked (docs/api-facts.md sections 2.11, 2.12, 15 and 16).

The sweeps read the parameter lists from the installed SDK's signatures, so a parameter a
new SDK adds fails the test until the stand-in honours or refuses it.
"""

import inspect
import typing

import anthropic
import pytest
from anthropic.types import anthropic_beta_param
from apitools import LOG_TOOL, MODEL, TASK, ask, connect, message, no_network, refused  # noqa: F401

from agentlib.messages import assistant, tool_result, tool_use, user
from standin import betas

CLIENT_SIDE = {"extra_headers", "extra_query", "extra_body", "timeout"}
LONG_SYSTEM = "You read incident logs carefully. " * 200
COMPACT_NOW = ["compact-2026-09-04"]


def sdk_params(method) -> set[str]:
    return set(inspect.signature(method).parameters) - CLIENT_SIDE


def has_thinking(r) -> bool:
    return r.content[0].type == "thinking"


# name -> (extra kwargs, check of the reply); None as the check: refused with a 400 naming it
CREATE = {
    "max_tokens": ({"max_tokens": 5}, lambda r: r.stop_reason == "max_tokens"),
    "messages": ({"messages": [user("Hello.")]}, lambda r: r.stop_reason == "end_turn"),
    "model": ({"model": "claude-opus-4-8"}, lambda r: r.model == "claude-opus-4-8"),
    "cache_control": ({"cache_control": {"type": "ephemeral"}, "system": LONG_SYSTEM},
                      lambda r: r.usage.cache_creation_input_tokens > 1024),
    "container": ({"container": "container_1"}, lambda r: r.container.id == "container_1"),
    "diagnostics": ({"diagnostics": {"previous_message_id": "msg_1"}},
                    lambda r: r.diagnostics.cache_miss_reason.type == "previous_message_not_found"),
    "inference_geo": ({"inference_geo": "us"}, None),
    "metadata": ({"metadata": {"user_id": "learner-7"}}, lambda r: r.stop_reason == "tool_use"),
    "output_config": ({"output_config": {"effort": "low"}, "thinking": {"type": "adaptive"}},
                      lambda r: not has_thinking(r)),
    "service_tier": ({"service_tier": "standard_only"},
                     lambda r: r.usage.service_tier == "standard"),
    "speed": ({"speed": "fast"}, None),
    "stop_sequences": ({"stop_sequences": ["incident"]},
                       lambda r: r.stop_reason == "stop_sequence" and r.stop_sequence == "incident"
                       and r.content[0].text == "I'll read "),
    "stream": ({"stream": True}, lambda r: isinstance(r, anthropic.Stream)),
    "system": ({"system": TASK, "messages": [user("Go ahead.")]},
               lambda r: r.content[-1].type == "tool_use"),
    "thinking": ({"thinking": {"type": "adaptive"}}, has_thinking),
    "tool_choice": ({"tool_choice": {"type": "none"}},
                    lambda r: [b.type for b in r.content] == ["text"]),
    "tools": ({"tools": [LOG_TOOL]}, lambda r: r.content[-1].name == "read_file"),
    "user_profile_id": ({"user_profile_id": "up_1"}, None),
    "workspace_id": ({"workspace_id": "wrkspc_1"}, None),
}
BETA_CREATE = {
    **CREATE,
    "betas": ({"betas": ["context-management-2025-06-27"]}, lambda r: r.stop_reason),
    "billing_policy": ({"billing_policy": {"type": "billing_policy",
                                           "bill_to": "user_profile"}}, None),
    "compaction": ({"compaction": {"type": "summarize"}, "betas": COMPACT_NOW},
                   lambda r: r.stop_reason == "compaction" and r.content[0].signature),
    "context_management": ({"context_management": {"edits": [
        {"type": "clear_tool_uses_20250919"}]}, "betas": ["context-management-2025-06-27"]},
        lambda r: r.context_management.applied_edits == []),
    "fallback_credit_token": ({"fallback_credit_token": "fct_1"}, None),
    "fallbacks": ({"fallbacks": [{"model": "claude-opus-4-8"}]}, None),
    "mcp_servers": ({"mcp_servers": [{"type": "url", "url": "https://example.invalid",
                                      "name": "x"}]}, None),
    "thread": ({"thread": {"type": "create"}}, None),
}
COUNT = {
    "messages": ({}, lambda r: r.input_tokens > 0),
    "model": ({"model": "claude-haiku-4-5"}, lambda r: r.input_tokens > 0),
    "cache_control": ({"cache_control": {"type": "ephemeral"}}, lambda r: r.input_tokens > 0),
    "output_config": ({"output_config": {"effort": "high"}}, lambda r: r.input_tokens > 0),
    "output_format": ({"output_format": dict}, None),  # becomes output_config.format
    "speed": ({"speed": "standard"}, lambda r: r.input_tokens > 0),
    "system": ({"system": LONG_SYSTEM}, lambda r: r.input_tokens > 1000),
    "thinking": ({"thinking": {"type": "adaptive"}}, lambda r: r.input_tokens > 0),
    "tool_choice": ({"tool_choice": {"type": "auto"}}, lambda r: r.input_tokens > 0),
    "tools": ({"tools": [LOG_TOOL]}, lambda r: r.input_tokens > 0),
    "user_profile_id": ({"user_profile_id": "up_1"}, None),
    "workspace_id": ({"workspace_id": "wrkspc_1"}, None),
}
BETA_COUNT = {
    **COUNT,
    "output_format": ({"output_config": {"format": {"type": "json_schema", "schema": {}}}},
                      None),
    "betas": ({"betas": ["context-management-2025-06-27"]}, lambda r: r.input_tokens > 0),
    "billing_policy": ({"billing_policy": {"type": "billing_policy"}}, None),
    "compaction": ({"compaction": {"type": "summarize"}, "betas": COMPACT_NOW},
                   lambda r: r.input_tokens > 0),  # accepted and ignored, as documented
    "context_management": ({"context_management": {"edits": []},
                            "betas": ["context-management-2025-06-27"]},
                           lambda r: r.context_management.original_input_tokens > 0),
    "mcp_servers": ({"mcp_servers": [{"type": "url", "url": "https://x.invalid",
                                      "name": "x"}]}, None),
}


def _case(table: dict, name: str):
    kwargs, check = table[name]
    field = "output_config.format" if name == "output_format" else name
    return kwargs, check, field


def test_the_sweeps_cover_every_sdk_parameter():
    c = connect()
    assert sdk_params(c.messages.create) == set(CREATE)
    assert sdk_params(c.beta.messages.create) == set(BETA_CREATE)
    assert sdk_params(c.messages.count_tokens) == set(COUNT)
    assert sdk_params(c.beta.messages.count_tokens) == set(BETA_COUNT) - {"output_format"}


def _cases(plain: dict, beta: dict) -> list:
    return [pytest.param(n, False, id=f"messages-{n}") for n in sorted(plain)] + \
        [pytest.param(n, True, id=f"beta-{n}") for n in sorted(beta)]


@pytest.mark.parametrize("name, beta", _cases(CREATE, BETA_CREATE))
def test_create_parameter_is_honoured_or_refused(name, beta):
    table = BETA_CREATE if beta else CREATE
    kwargs, check, field = _case(table, name)
    c = connect()
    base = {"model": MODEL, "max_tokens": 512, "tools": [LOG_TOOL], "messages": [user(TASK)]}
    method = c.beta.messages.create if beta else c.messages.create
    if check is None:
        e = refused(lambda: method(**{**base, **kwargs}))
        assert message(e).startswith(f"{field}: "), message(e)
        assert c.course_model.calls == 1
    else:
        assert check(method(**{**base, **kwargs})), name


@pytest.mark.parametrize("name, beta", _cases(COUNT, BETA_COUNT))
def test_count_tokens_parameter_is_honoured_or_refused(name, beta):
    table = BETA_COUNT if beta else COUNT
    kwargs, check, field = _case(table, name)
    c = connect()
    method = c.beta.messages.count_tokens if beta else c.messages.count_tokens
    call = lambda: method(**{"model": MODEL, "messages": [user(TASK)], **kwargs})  # noqa: E731
    if check is None:
        assert message(refused(call)).startswith(f"{field}: ")
    else:
        assert check(call()), name


@pytest.mark.parametrize("body, text", [
    ({"temperature": 0.2}, "temperature: this parameter is not supported by the offline"),
    ({"frobnicate": 1}, "frobnicate: Extra inputs are not permitted"),
    ({"messages": [user(TASK), {"role": "system", "content": "Be brief.",
                                "clear_at": "next_user_message"}]},
     "messages.1.clear_at: Extra inputs are not permitted"),
    ({"tools": [{"type": "web_search_20250305", "name": "web_search"}]},
     "tools.0.type: the tool type `web_search_20250305` is not supported"),
    ({"tools": [{**LOG_TOOL, "strict": True}]}, "tools.0.strict: this parameter is not"),
    ({"output_config": {"task_budget": {"type": "tokens", "total": 1000}}},
     "output_config.task_budget: Extra inputs are not permitted"),
    ({"messages": [user({"type": "image", "source": {"type": "url", "url": "x.png"}})]},
     "messages.0.content.0: a `image` block is not supported by the offline course model"),
    ({"messages": [user(TASK), assistant(tool_use("toolu_1", "read_file", {"path": "a"})),
                   user(tool_result("toolu_1", [{"type": "document", "source": {}}]))]},
     "messages.2.content.0.content.0: a `document` block is not supported"),
], ids=["sampling", "unknown", "turn-scoped-system", "server-tool", "tool-field", "task-budget",
        "image", "document-in-result"])
def test_fields_outside_the_sdk_signature_are_refused_by_name(body, text):
    c = connect()
    e = refused(lambda: ask(c, extra_body=body))
    assert message(e).startswith(text)


def test_an_unknown_beta_gets_the_api_text():
    e = refused(lambda: ask(connect(), beta=True, betas=["no-such-beta-2099-01-01"]))
    assert message(e) == ("Unexpected value(s) `no-such-beta-2099-01-01` for the `anthropic-beta` "
                          "header. Please consult our documentation at docs.claude.com or try "
                          "again without the header.")


def test_a_known_beta_that_is_not_emulated_is_refused_by_name():
    e = refused(lambda: ask(connect(), beta=True, betas=["fast-mode-2026-02-01"]))
    assert message(e).startswith("anthropic-beta: the beta `fast-mode-2026-02-01` is not "
                                 "supported by the offline course model.")


def test_the_stand_in_knows_every_beta_the_sdk_names():
    sdk = typing.get_args(typing.get_args(anthropic_beta_param.AnthropicBetaParam)[1])
    assert set(sdk) == betas.KNOWN
    assert set(betas.EMULATED) <= betas.KNOWN


@pytest.mark.parametrize("field, value", [
    ("context_management", {"edits": [{"type": "clear_tool_uses_20250919"}]}),
    ("compaction", {"type": "summarize"}),
    ("thread", {"type": "create"}),
])
def test_a_beta_field_without_its_beta_is_an_extra_input(field, value):
    e = refused(lambda: ask(connect(), extra_body={field: value}))
    assert message(e) == f"{field}: Extra inputs are not permitted"


@pytest.mark.parametrize("kwargs, text", [
    ({"betas": ["context-management-2025-06-27"], "context_management": {"edits": [
        {"type": "clear_tool_uses_20250919", "keep_last": 3}]}},
     "context_management.edits.0.keep_last: Extra inputs are not permitted"),
    ({"betas": COMPACT_NOW, "compaction": {"type": "summarize", "trigger": 1000}},
     "compaction.trigger: Extra inputs are not permitted"),
], ids=["edit-field", "compaction-field"])
def test_unknown_fields_inside_beta_parameters_are_extra_inputs(kwargs, text):
    assert message(refused(lambda: ask(connect(), beta=True, **kwargs))) == text


def test_each_edit_needs_its_own_beta():
    compact = {"type": "compact_20260112"}
    e = refused(lambda: ask(connect(), beta=True, betas=["context-management-2025-06-27"],
                            context_management={"edits": [compact]}))
    assert message(e) == ("context_management.edits.0: Input tag 'compact_20260112' found using "
                          "'type' does not match any of the expected tags: "
                          "'clear_tool_uses_20250919', 'clear_thinking_20251015'")


def test_a_compaction_block_needs_a_compaction_beta():
    history = [user(TASK), assistant({"type": "compaction", "content": "Summary."}),
               user("Go on.")]
    e = refused(lambda: ask(connect(), history))
    assert message(e).startswith("messages.1.content.0: Input tag 'compaction' found using "
                                 "'type' does not match any of the expected tags:")
    assert ask(connect(), history, beta=True, betas=COMPACT_NOW).stop_reason


def test_the_model_calls_only_the_tools_it_is_given():
    r = ask(connect(), tools=[])
    assert [b.type for b in r.content] == ["text"] and r.stop_reason == "end_turn"
