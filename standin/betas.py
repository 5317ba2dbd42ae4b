"""The `anthropic-beta` header: which beta features a request turned on.

The API refuses a value it does not know, and a beta body field sent without its beta
(`context_management: Extra inputs are not permitted`). The offline course model also
refuses, by name, the betas it knows but does not emulate, so nothing is silently
ignored. Sources: docs/api-facts.md, sections 2.11, 2.12 and 15.
"""

from __future__ import annotations

from standin.errors import APIError, unsupported

CONTEXT_MANAGEMENT = "context-management-2025-06-27"
COMPACT_EDIT = "compact-2026-01-12"
COMPACT_ON_DEMAND = "compact-2026-09-04"
THREADS = "message-threads-2026-08-12"
TOOL_CHANGES = "mid-conversation-tool-changes-2026-07-01"
BINDING = "thinking-binding-controls-2026-08-01"

# What the offline course model does with a beta it knows.
EMULATED = {
    CONTEXT_MANAGEMENT: "clear_tool_uses_20250919 and clear_thinking_20251015 edits",
    COMPACT_EDIT: "the compact_20260112 edit and compaction blocks",
    COMPACT_ON_DEMAND: "top-level `compaction` and compaction blocks",
    THREADS: "`thread` is answered with thread_unsupported_request (the SDK falls back)",
    TOOL_CHANGES: "`tool_addition` and `tool_removal` blocks in `role: \"system\"` messages",
    BINDING: "`thinking.block_binding` and the response's `input_transformations`",
    "model-context-window-exceeded-2025-08-26": "no-op: every model already behaves so",
    "prompt-caching-2024-07-31": "no-op: prompt caching is generally available",
    "token-counting-2024-11-01": "no-op: count_tokens is generally available",
    "extended-cache-ttl-2025-04-11": "no-op: `ttl` is in the generally available types",
    "cache-diagnosis-2026-04-07": "no-op: `diagnostics` no longer needs it (api-facts 5.11)",
}

# Every value SDK 2.14 names (`types/anthropic_beta_param.py`); tests keep them in step.
KNOWN = frozenset("""
computer-use-2024-10-22 computer-use-2025-01-24 output-128k-2025-02-19 mcp-client-2025-04-04
mcp-client-2025-11-20 dev-full-thinking-2025-05-14 interleaved-thinking-2025-05-14
code-execution-2025-05-22 context-1m-2025-08-07 context-management-2025-06-27
model-context-window-exceeded-2025-08-26 fast-mode-2026-02-01 output-300k-2026-03-24
user-profiles-2026-03-24 user-profiles-2026-08-18 user-profiles-2026-09-04
advisor-tool-2026-03-01 managed-agents-2026-04-01 dreaming-2026-04-21
thinking-token-count-2026-05-13 server-side-fallback-2026-06-01
server-side-fallback-2026-07-01 fallback-credit-2026-06-01 fallback-credit-2026-07-01
agent-memory-2026-07-22 mid-conversation-tool-changes-2026-07-01 compact-2026-01-12
computer-use-2025-11-24 mcp-tunnels-2026-06-22 structured-outputs-2025-11-13
task-budgets-2026-03-13 thinking-display-updates-2026-08-18
mid-conversation-output-config-2026-07-01 thinking-binding-controls-2026-08-01
mid-conversation-system-clear-at-2026-08-21 compact-2026-09-04 inline-tools-2026-09-15
mcp-client-2026-09-15 ce-plugins-2026-09-01 spend-limit-reads-2026-09-26
telemetry-destinations-2026-08-11 webhooks-2026-10-07 admin-user-sign-out-2026-10-08
message-threads-2026-08-12 analytics-usage-cost-2026-08-24
experimental-claude-tag-2026-10-21 message-batches-2024-09-24 prompt-caching-2024-07-31
pdfs-2024-09-25 token-counting-2024-11-01 token-efficient-tools-2025-02-19
files-api-2025-04-14 extended-cache-ttl-2025-04-11 skills-2025-10-02
cache-diagnosis-2026-04-07 ce-user-management-2026-07-13
ce-claude-code-managed-settings-2026-10-06 efs-2026-10-01
google-managed-data-controls-2026-09-01 user-profiles-billing-2026-10-01
""".split())


def parse(header: str) -> set[str]:
    """The beta values of a request, checked: unknown ones get the API's 400; known ones
    the offline model does not emulate get a 400 that names them."""
    values = [v.strip() for v in (header or "").split(",") if v.strip()]
    unknown = [v for v in values if v not in KNOWN]
    if unknown:
        raise APIError(400, f"Unexpected value(s) `{', '.join(unknown)}` for the "
                       "`anthropic-beta` header. Please consult our documentation at "
                       "docs.claude.com or try again without the header.")
    for v in values:
        if v not in EMULATED:
            raise unsupported("anthropic-beta", f"the beta `{v}`")
    return set(values)
