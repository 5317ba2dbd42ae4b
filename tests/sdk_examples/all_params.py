"""The SDK's own requests with every parameter, for messages, beta messages and count_tokens.

Copied from the anthropic Python SDK 2.14.0 (the version constraints.txt pins), its source
distribution's Stainless-generated tests: tests/api_resources/test_messages.py and
tests/api_resources/beta/test_messages.py, class TestMessages, the tests named below (MIT
license, Copyright 2023 Anthropic, PBC). Each entry is one test's call, its keyword
arguments unchanged (`stream=True` ones are the streaming overload).
tests/test_sdk_examples.py replays them against the stand-in over HTTP.
"""

CALLS = {
    # test_messages.py::test_method_create_with_all_params_overload_1
    "test_method_create_with_all_params_overload_1": (
        "messages.create",
        {
            "max_tokens": 1024,
            "messages": [{"content": "Hello, world", "role": "user"}],
            "model": "claude-opus-5-5",
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
            "container": {
                "id": "id",
                "skills": [{"skill_id": "pdf", "type": "anthropic", "version": "latest"}],
            },
            "diagnostics": {"previous_message_id": "previous_message_id"},
            "inference_geo": "inference_geo",
            "metadata": {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"},
            "output_config": {
                "effort": "low",
                "format": {"schema": {"foo": "bar"}, "type": "json_schema"},
            },
            "service_tier": "auto",
            "speed": "standard",
            "stop_sequences": ["string"],
            "stream": False,
            "system": [
                {
                    "text": "Today's date is 2024-06-01.",
                    "type": "text",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "citations": [
                        {
                            "cited_text": "The grass is green. The sky is blue.",
                            "document_index": 0,
                            "document_title": "x",
                            "end_char_index": 0,
                            "start_char_index": 0,
                            "type": "char_location",
                        }
                    ],
                }
            ],
            "thinking": {"type": "adaptive", "display": "summarized"},
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "tools": [
                {
                    "input_schema": {
                        "type": "object",
                        "properties": {"location": "bar", "unit": "bar"},
                        "required": ["location"],
                    },
                    "name": "name",
                    "allowed_callers": ["direct"],
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "defer_loading": True,
                    "description": "Get the current weather in a given location",
                    "eager_input_streaming": True,
                    "input_examples": [{"foo": "bar"}],
                    "strict": True,
                    "type": "custom",
                }
            ],
            "user_profile_id": "anthropic-user-profile-id",
            "workspace_id": "wrkspc_011CZkZaBF1tNoB5wlCeusgy",
        },
    ),
    # test_messages.py::test_method_create_with_all_params_overload_2
    "test_method_create_with_all_params_overload_2": (
        "messages.create",
        {
            "max_tokens": 1024,
            "messages": [{"content": "Hello, world", "role": "user"}],
            "model": "claude-opus-5-5",
            "stream": True,
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
            "container": {
                "id": "id",
                "skills": [{"skill_id": "pdf", "type": "anthropic", "version": "latest"}],
            },
            "diagnostics": {"previous_message_id": "previous_message_id"},
            "inference_geo": "inference_geo",
            "metadata": {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"},
            "output_config": {
                "effort": "low",
                "format": {"schema": {"foo": "bar"}, "type": "json_schema"},
            },
            "service_tier": "auto",
            "speed": "standard",
            "stop_sequences": ["string"],
            "system": [
                {
                    "text": "Today's date is 2024-06-01.",
                    "type": "text",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "citations": [
                        {
                            "cited_text": "The grass is green. The sky is blue.",
                            "document_index": 0,
                            "document_title": "x",
                            "end_char_index": 0,
                            "start_char_index": 0,
                            "type": "char_location",
                        }
                    ],
                }
            ],
            "thinking": {"type": "adaptive", "display": "summarized"},
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "tools": [
                {
                    "input_schema": {
                        "type": "object",
                        "properties": {"location": "bar", "unit": "bar"},
                        "required": ["location"],
                    },
                    "name": "name",
                    "allowed_callers": ["direct"],
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "defer_loading": True,
                    "description": "Get the current weather in a given location",
                    "eager_input_streaming": True,
                    "input_examples": [{"foo": "bar"}],
                    "strict": True,
                    "type": "custom",
                }
            ],
            "user_profile_id": "anthropic-user-profile-id",
            "workspace_id": "wrkspc_011CZkZaBF1tNoB5wlCeusgy",
        },
    ),
    # test_messages.py::test_method_count_tokens_with_all_params
    "test_method_count_tokens_with_all_params": (
        "messages.count_tokens",
        {
            "messages": [{"content": "Hello, world", "role": "user"}],
            "model": "claude-opus-5-5",
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
            "output_config": {
                "effort": "low",
                "format": {"schema": {"foo": "bar"}, "type": "json_schema"},
            },
            "speed": "standard",
            "system": [
                {
                    "text": "Today's date is 2024-06-01.",
                    "type": "text",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "citations": [
                        {
                            "cited_text": "The grass is green. The sky is blue.",
                            "document_index": 0,
                            "document_title": "x",
                            "end_char_index": 0,
                            "start_char_index": 0,
                            "type": "char_location",
                        }
                    ],
                }
            ],
            "thinking": {"type": "adaptive", "display": "summarized"},
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "tools": [
                {
                    "input_schema": {
                        "type": "object",
                        "properties": {"location": "bar", "unit": "bar"},
                        "required": ["location"],
                    },
                    "name": "name",
                    "allowed_callers": ["direct"],
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "defer_loading": True,
                    "description": "Get the current weather in a given location",
                    "eager_input_streaming": True,
                    "input_examples": [{"foo": "bar"}],
                    "strict": True,
                    "type": "custom",
                }
            ],
            "user_profile_id": "anthropic-user-profile-id",
            "workspace_id": "wrkspc_011CZkZaBF1tNoB5wlCeusgy",
        },
    ),
    # beta/test_messages.py::test_method_create_with_all_params_overload_1
    "beta.test_method_create_with_all_params_overload_1": (
        "beta.messages.create",
        {
            "max_tokens": 1024,
            "messages": [{"content": "Hello, world", "role": "user"}],
            "model": "claude-opus-5-5",
            "billing_policy": {"type": "billing_policy", "bill_to": "self"},
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
            "compaction": {"type": "summarize", "instructions": "instructions"},
            "container": {
                "id": "id",
                "skills": [{"skill_id": "pdf", "type": "anthropic", "version": "latest"}],
            },
            "context_management": {
                "edits": [
                    {
                        "type": "clear_tool_uses_20250919",
                        "clear_at_least": {"type": "input_tokens", "value": 0},
                        "clear_tool_inputs": True,
                        "exclude_tools": ["string"],
                        "keep": {"type": "tool_uses", "value": 0},
                        "trigger": {"type": "input_tokens", "value": 1},
                    }
                ]
            },
            "diagnostics": {"previous_message_id": "previous_message_id"},
            "fallback_credit_token": "x",
            "fallbacks": "default",
            "inference_geo": "inference_geo",
            "mcp_servers": [
                {
                    "name": "name",
                    "type": "url",
                    "url": "url",
                    "authorization_token": "authorization_token",
                    "tool_configuration": {"allowed_tools": ["string"], "enabled": True},
                }
            ],
            "metadata": {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"},
            "output_config": {
                "effort": "low",
                "format": {"schema": {"foo": "bar"}, "type": "json_schema"},
                "task_budget": {"total": 1024, "type": "tokens", "remaining": 0},
            },
            "service_tier": "auto",
            "speed": "standard",
            "stop_sequences": ["string"],
            "stream": False,
            "system": [
                {
                    "text": "Today's date is 2024-06-01.",
                    "type": "text",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "citations": [
                        {
                            "cited_text": "The grass is green. The sky is blue.",
                            "document_index": 0,
                            "document_title": "x",
                            "end_char_index": 0,
                            "start_char_index": 0,
                            "type": "char_location",
                        }
                    ],
                }
            ],
            "thinking": {
                "type": "adaptive",
                "block_binding": {"prefix_mismatch_behavior": "error"},
                "display": "summarized",
            },
            "thread": {"type": "create"},
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "tools": [
                {
                    "input_schema": {
                        "type": "object",
                        "properties": {"location": "bar", "unit": "bar"},
                        "required": ["location"],
                    },
                    "name": "name",
                    "allowed_callers": ["direct"],
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "defer_loading": True,
                    "description": "Get the current weather in a given location",
                    "eager_input_streaming": True,
                    "input_examples": [{"foo": "bar"}],
                    "strict": True,
                    "type": "custom",
                }
            ],
            "betas": ["computer-use-2024-10-22"],
            "user_profile_id": "anthropic-user-profile-id",
            "workspace_id": "wrkspc_011CZkZaBF1tNoB5wlCeusgy",
            "extra_query": {"beta": "true"},
        },
    ),
    # beta/test_messages.py::test_method_create_with_all_params_overload_2
    "beta.test_method_create_with_all_params_overload_2": (
        "beta.messages.create",
        {
            "max_tokens": 1024,
            "messages": [{"content": "Hello, world", "role": "user"}],
            "model": "claude-opus-5-5",
            "stream": True,
            "billing_policy": {"type": "billing_policy", "bill_to": "self"},
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
            "compaction": {"type": "summarize", "instructions": "instructions"},
            "container": {
                "id": "id",
                "skills": [{"skill_id": "pdf", "type": "anthropic", "version": "latest"}],
            },
            "context_management": {
                "edits": [
                    {
                        "type": "clear_tool_uses_20250919",
                        "clear_at_least": {"type": "input_tokens", "value": 0},
                        "clear_tool_inputs": True,
                        "exclude_tools": ["string"],
                        "keep": {"type": "tool_uses", "value": 0},
                        "trigger": {"type": "input_tokens", "value": 1},
                    }
                ]
            },
            "diagnostics": {"previous_message_id": "previous_message_id"},
            "fallback_credit_token": "x",
            "fallbacks": "default",
            "inference_geo": "inference_geo",
            "mcp_servers": [
                {
                    "name": "name",
                    "type": "url",
                    "url": "url",
                    "authorization_token": "authorization_token",
                    "tool_configuration": {"allowed_tools": ["string"], "enabled": True},
                }
            ],
            "metadata": {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"},
            "output_config": {
                "effort": "low",
                "format": {"schema": {"foo": "bar"}, "type": "json_schema"},
                "task_budget": {"total": 1024, "type": "tokens", "remaining": 0},
            },
            "service_tier": "auto",
            "speed": "standard",
            "stop_sequences": ["string"],
            "system": [
                {
                    "text": "Today's date is 2024-06-01.",
                    "type": "text",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "citations": [
                        {
                            "cited_text": "The grass is green. The sky is blue.",
                            "document_index": 0,
                            "document_title": "x",
                            "end_char_index": 0,
                            "start_char_index": 0,
                            "type": "char_location",
                        }
                    ],
                }
            ],
            "thinking": {
                "type": "adaptive",
                "block_binding": {"prefix_mismatch_behavior": "error"},
                "display": "summarized",
            },
            "thread": {"type": "create"},
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "tools": [
                {
                    "input_schema": {
                        "type": "object",
                        "properties": {"location": "bar", "unit": "bar"},
                        "required": ["location"],
                    },
                    "name": "name",
                    "allowed_callers": ["direct"],
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "defer_loading": True,
                    "description": "Get the current weather in a given location",
                    "eager_input_streaming": True,
                    "input_examples": [{"foo": "bar"}],
                    "strict": True,
                    "type": "custom",
                }
            ],
            "betas": ["computer-use-2024-10-22"],
            "user_profile_id": "anthropic-user-profile-id",
            "workspace_id": "wrkspc_011CZkZaBF1tNoB5wlCeusgy",
            "extra_query": {"beta": "true"},
        },
    ),
    # beta/test_messages.py::test_method_count_tokens_with_all_params
    "beta.test_method_count_tokens_with_all_params": (
        "beta.messages.count_tokens",
        {
            "messages": [{"content": "Hello, world", "role": "user"}],
            "model": "claude-opus-5-5",
            "billing_policy": {"type": "billing_policy", "bill_to": "self"},
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
            "compaction": {"type": "summarize", "instructions": "instructions"},
            "context_management": {
                "edits": [
                    {
                        "type": "clear_tool_uses_20250919",
                        "clear_at_least": {"type": "input_tokens", "value": 0},
                        "clear_tool_inputs": True,
                        "exclude_tools": ["string"],
                        "keep": {"type": "tool_uses", "value": 0},
                        "trigger": {"type": "input_tokens", "value": 1},
                    }
                ]
            },
            "mcp_servers": [
                {
                    "name": "name",
                    "type": "url",
                    "url": "url",
                    "authorization_token": "authorization_token",
                    "tool_configuration": {"allowed_tools": ["string"], "enabled": True},
                }
            ],
            "output_config": {
                "effort": "low",
                "format": {"schema": {"foo": "bar"}, "type": "json_schema"},
                "task_budget": {"total": 1024, "type": "tokens", "remaining": 0},
            },
            "speed": "fast",
            "system": [
                {
                    "text": "Today's date is 2024-06-01.",
                    "type": "text",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "citations": [
                        {
                            "cited_text": "The grass is green. The sky is blue.",
                            "document_index": 0,
                            "document_title": "x",
                            "end_char_index": 0,
                            "start_char_index": 0,
                            "type": "char_location",
                        }
                    ],
                }
            ],
            "thinking": {
                "type": "adaptive",
                "block_binding": {"prefix_mismatch_behavior": "error"},
                "display": "summarized",
            },
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "tools": [
                {
                    "input_schema": {
                        "type": "object",
                        "properties": {"location": "bar", "unit": "bar"},
                        "required": ["location"],
                    },
                    "name": "name",
                    "allowed_callers": ["direct"],
                    "cache_control": {"type": "ephemeral", "ttl": "5m"},
                    "defer_loading": True,
                    "description": "Get the current weather in a given location",
                    "eager_input_streaming": True,
                    "input_examples": [{"foo": "bar"}],
                    "strict": True,
                    "type": "custom",
                }
            ],
            "betas": ["string"],
            "workspace_id": "wrkspc_011CZkZaBF1tNoB5wlCeusgy",
            "extra_query": {"beta": "true"},
        },
    ),
}
