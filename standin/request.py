"""Checking a request before the model reads it: every field is honoured or refused.

A field the API does not take gets the API's `<field>: Extra inputs are not permitted`;
a beta field without its beta header gets the same; a field the API takes but the offline
course model does not emulate gets a 400 that names it. Nothing is silently ignored.
Sources: docs/api-facts.md, sections 2, 14, 15 and 16.
"""

from __future__ import annotations

from apiwire import models
from standin import betas as B
from standin import diagnostics, tooling
from standin.errors import APIError, extra, unsupported
from standin.history import BLOCK_TYPES, HistoryError, validate

CREATE = {"model", "messages", "max_tokens", "system", "tools", "tool_choice", "thinking",
          "stream", "stop_sequences", "metadata", "service_tier", "speed", "output_config",
          "cache_control", "context_management", "compaction", "thread", "container",
          "diagnostics"}
COUNT = {"model", "messages", "system", "tools", "tool_choice", "thinking", "cache_control",
         "output_config", "speed", "context_management", "compaction"}
# Taken by the API, not emulated offline: refused by name.
REFUSED = {"inference_geo", "billing_policy", "fallbacks",
           "fallback_credit_token", "mcp_servers", "temperature", "top_p", "top_k"}
NEEDS_BETA = {"context_management": (B.CONTEXT_MANAGEMENT, B.COMPACT_EDIT),
              "compaction": (B.COMPACT_ON_DEMAND,), "thread": (B.THREADS,)}
HEADERS = {"anthropic-user-profile-id": "user_profile_id",
           "anthropic-workspace-id": "workspace_id"}
EFFORTS = ("low", "medium", "high", "xhigh", "max")
TOOL_KEYS = {"type", "name", "description", "input_schema", "cache_control", "defer_loading",
             "allowed_callers"}
UNREAD = ("image", "document", "search_result")  # the course model reads text
SERVER_NAMES = ("tool_search_tool_regex", "tool_search_tool_bm25", "code_execution")


def check_headers(headers: dict) -> None:
    """Parameters the SDK sends as headers: refused by name (one workspace, no profiles)."""
    for header, name in HEADERS.items():
        if header in headers:
            raise unsupported(name)


def check(request: dict, betas: set[str], counting: bool) -> models.Model:
    """Check a create (or count_tokens) request; return the catalog row of its model."""
    for field in request:
        if field in REFUSED:
            raise unsupported(field)
        if field not in (COUNT if counting else CREATE):
            raise extra(field)
        if field in NEEDS_BETA and not betas & set(NEEDS_BETA[field]):
            raise extra(field)
    if "thread" in request:
        raise APIError(400, "thread: the offline course model keeps no conversation state. "
                       "Send the full conversation without `thread`.",
                       {"error_code": "thread_unsupported_request"})
    if not isinstance(request.get("model"), str) or not request["model"]:
        raise APIError(400, "model: Field required")
    row = models.get(request["model"])
    if row is None:
        raise APIError(404, f"model: {request['model']}")
    if not counting:
        _max_tokens(request, row)
    if not counting and request.get("diagnostics") is not None:
        diagnostics.check(request["diagnostics"])
    container(request)
    if "messages" not in request:
        raise APIError(400, "messages: Field required")
    _messages(request["messages"], betas, row, "compaction" in request)
    _system(request.get("system"))
    _tools(request.get("tools"))
    tool_changes(request)
    _options(request)
    return row


def container(request: dict) -> str | None:
    """The container id a request names: a string, or an object with an `id` (SDK 2.14
    `types/message_create_params_container_param.py`: `Union[ContainerParams, str]`). The
    object's `skills` (Agent Skills loaded in the container) are refused by name."""
    box = request.get("container")
    if box is None or isinstance(box, str):
        return box
    if not isinstance(box, dict):
        raise APIError(400, "container: Input should be a valid string or an object with "
                       "`id` and `skills`")
    for key in box:
        if key not in ("id", "skills"):
            raise extra(f"container.{key}")
    if box.get("skills"):
        raise unsupported("container.skills", "Agent Skills in a container")
    if box.get("id") is not None and not isinstance(box["id"], str):
        raise APIError(400, "container.id: Input should be a valid string")
    return box.get("id")


def _max_tokens(request: dict, row: models.Model) -> None:
    if "max_tokens" not in request:
        raise APIError(400, "max_tokens: Field required")
    mt = request["max_tokens"]
    if not isinstance(mt, int) or isinstance(mt, bool) or mt < 0:
        raise APIError(400, "max_tokens: Input should be a valid integer greater than or equal "
                       "to 0")
    if mt > row.max_output:
        raise APIError(400, f"max_tokens: {mt} > {row.max_output}, which is the maximum allowed "
                       f"number of output tokens for {row.id}")


def _messages(messages, betas: set[str], row: models.Model, compacting: bool) -> None:
    compaction = betas & {B.COMPACT_EDIT, B.COMPACT_ON_DEMAND}
    for i, m in enumerate(messages if isinstance(messages, list) else []):
        if isinstance(m, dict) and m.get("role") == "system":
            _system_message(i, m, betas, row)
        for j, b in enumerate(m.get("content") if isinstance(m, dict) and
                              isinstance(m.get("content"), list) else []):
            inner = b.get("content") if isinstance(b, dict) else None
            nested = enumerate(inner) if isinstance(inner, list) else ()
            for k, c in [(None, b), *nested] if nested else ((None, b),):
                if isinstance(c, dict) and c.get("type") in UNREAD:
                    where = f"messages.{i}.content.{j}" + (f".content.{k}" if k is not None else "")
                    raise unsupported(where, f"a `{c['type']}` block")
            if isinstance(b, dict) and b.get("type") == "server_tool_use" and \
                    b.get("name") not in SERVER_NAMES:
                raise unsupported(f"messages.{i}.content.{j}", f"a `server_tool_use` block "
                                  f"of `{b.get('name')}`")
            if isinstance(b, dict) and b.get("type") in tooling.SERVER_BLOCKS and \
                    m.get("role") != "assistant":
                raise APIError(400, f"messages.{i}.content.{j}: `{b['type']}` blocks can only "
                               "be in `assistant` messages")
            if isinstance(b, dict) and b.get("type") == "compaction" and not compaction:
                expected = ", ".join(f"'{t}'" for t in sorted(BLOCK_TYPES - {"compaction"}))
                raise APIError(400, f"messages.{i}.content.{j}: Input tag 'compaction' found "
                               "using 'type' does not match any of the expected tags: "
                               f"{expected}")
    try:
        validate(_lowered(messages))
    except HistoryError as e:
        raise APIError(400, e.api_message) from None
    last = messages[-1]
    resumes = isinstance(last["content"], list) and last["content"] and \
        all(b.get("type") == "compaction" for b in last["content"])
    if last["role"] == "assistant" and not row.prefill and not resumes and not compacting:
        raise APIError(400, "This model does not support assistant message prefill. The "
                       "conversation must end with a user message.")


def system_refused(row: models.Model) -> str:
    """The API's words for a `role: "system"` message on a model that takes none: the older
    text on the 4.5 models, the newer one after them (docs/api-facts.md 2.13)."""
    if row.tokenizer == "old" and "adaptive" not in row.thinking_types:
        return ('messages: Unexpected role "system". The Messages API accepts a top-level '
                '`system` parameter, not "system" as an input message role.')
    return "role 'system' is not supported on this model"


def _system_message(i: int, m: dict, betas: set[str], row: models.Model) -> None:
    """A mid-conversation system message: on the models that take one, with only `role` and
    `content`; its tool changes need their beta and name each a tool of `tools` (checked
    in `tool_changes`). Where it may stand: `history.validate`."""
    if not row.system_messages:
        raise APIError(400, system_refused(row))
    for key in m:
        if key not in ("role", "content"):
            raise extra(f"messages.{i}.{key}")  # clear_at, output_config: betas not emulated
    for j, b in enumerate(m.get("content") if isinstance(m.get("content"), list) else []):
        kind = b.get("type") if isinstance(b, dict) else None
        if kind in ("tool_addition", "tool_removal") and B.TOOL_CHANGES not in betas:
            raise APIError(400, f"messages.{i}.content.{j}: Input tag '{kind}' found using "
                           "'type' does not match any of the expected tags: 'text'")


def tool_changes(request: dict) -> None:
    """Each `tool_addition` / `tool_removal` names, by `tool_reference`, a tool of `tools`
    (a 400 with `tool_reference_unresolved` otherwise); not right after a paused turn."""
    names = {t.get("name") for t in request.get("tools") or [] if isinstance(t, dict)}
    messages = request["messages"]
    for i, m in enumerate(messages):
        if m["role"] != "system" or not isinstance(m["content"], list):
            continue
        for j, b in enumerate(m["content"]):
            if b["type"] not in ("tool_addition", "tool_removal"):
                continue
            where, ref = f"messages.{i}.content.{j}", b["tool"]
            if ref.get("type") != "tool_reference":
                raise unsupported(f"{where}.tool", f"a `{ref.get('type')}` tool change (the "
                                  "offline model takes `tool_reference`, by name)")
            for key in set(b) - {"type", "tool", "cache_control"}:
                raise extra(f"{where}.{key}")
            if not isinstance(ref.get("name"), str):
                raise APIError(400, f"{where}.tool.name: Field required")
            if ref["name"] not in names:
                raise APIError(400, f"{where}: Tool reference '{ref['name']}' has no "
                               "corresponding tool definition",
                               {"error_code": "tool_reference_unresolved"})
            k = i - 1
            while messages[k]["role"] == "system":
                k -= 1
            if messages[k]["role"] == "assistant":  # course wording: the docs give no text
                raise APIError(400, f"{where}: `{b['type']}` is not accepted right after a "
                               "paused `assistant` turn; resume the turn first, then send the "
                               "tool change in the next `system` message")


def _lowered(messages):
    """The history with the server tools' blocks in a form the shared rules read: a search
    or code execution result stands as a server block, a `tool_reference` as text (their
    own checks are in `tooling`)."""
    if not isinstance(messages, list):
        return messages
    out = []
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else None
        if not isinstance(content, list) or not any(
                isinstance(b, dict) and (b.get("type") in tooling.SERVER_BLOCKS or
                                         b.get("type") == "tool_result" and
                                         isinstance(b.get("content"), list))
                for b in content):
            out.append(m)  # nothing to lower: the message itself
            continue
        blocks = []
        for b in content:
            if isinstance(b, dict) and b.get("type") in tooling.SERVER_BLOCKS:
                b = {"type": "server_tool_use"}
            elif isinstance(b, dict) and b.get("type") == "tool_result" and \
                    isinstance(b.get("content"), list):
                b = {**b, "content": [{"type": "text", "text": c.get("tool_name") or "?"}
                                      if isinstance(c, dict) and c.get("type") == "tool_reference"
                                      else c for c in b["content"]]}
            blocks.append(b)
        out.append({**m, "content": blocks})
    return out


def _system(system) -> None:
    ok = system is None or isinstance(system, str) or (
        isinstance(system, list) and all(isinstance(b, dict) and b.get("type") == "text"
                                         and isinstance(b.get("text"), str) for b in system))
    if not ok:
        raise APIError(400, "system: Input should be a valid string or a list of text blocks")


def _tools(tools) -> None:
    if tools is None:
        return
    if not isinstance(tools, list):
        raise APIError(400, "tools: Input should be a valid list")
    for i, t in enumerate(tools):
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            raise APIError(400, f"tools.{i}.name: Field required")
        kind = t.get("type", "custom")
        if kind == "memory_20250818" or kind in tooling.SEARCH_TYPES or kind in tooling.CODE_TYPES:
            continue
        if kind != "custom":
            raise unsupported(f"tools.{i}.type", f"the tool type `{kind}`")
        if not isinstance(t.get("input_schema"), dict):
            raise APIError(400, f"tools.{i}.input_schema: Field required")
        for key in t:
            if key not in TOOL_KEYS:
                raise unsupported(f"tools.{i}.{key}")
    tooling.check(tools)


def _options(request: dict) -> None:
    """tool_choice, stop_sequences, metadata, service_tier, speed, output_config, stream."""
    choice = request.get("tool_choice")
    if choice is not None:
        if not isinstance(choice, dict) or choice.get("type") not in ("auto", "any", "tool",
                                                                       "none"):
            raise APIError(400, "tool_choice.type: Input should be 'auto', 'any', 'tool' or "
                           "'none'")
        if choice["type"] == "tool" and not any(
                t.get("name") == choice.get("name") for t in request.get("tools") or []):
            raise APIError(400, f"tool_choice.name: no tool named {choice.get('name')!r} in "
                           "`tools`")
    stops = request.get("stop_sequences")
    if stops is not None and not (isinstance(stops, list) and all(
            isinstance(s, str) and s for s in stops)):
        raise APIError(400, "stop_sequences: Input should be a list of non-empty strings")
    metadata = request.get("metadata")
    if metadata is not None and (not isinstance(metadata, dict) or set(metadata) - {"user_id"}):
        raise APIError(400, "metadata: only `user_id` is allowed")
    if request.get("service_tier", "auto") not in ("auto", "standard_only"):
        raise APIError(400, "service_tier: Input should be 'auto' or 'standard_only'")
    if request.get("speed", "standard") == "fast":
        raise unsupported("speed", "`fast`")
    if request.get("speed", "standard") != "standard":
        raise APIError(400, "speed: Input should be 'standard' or 'fast'")
    if not isinstance(request.get("stream", False), bool):
        raise APIError(400, "stream: Input should be a valid boolean")
    config = request.get("output_config")
    if config is None:
        return
    if not isinstance(config, dict):
        raise APIError(400, "output_config: Input should be a valid dictionary")
    for key in config:
        if key == "format":
            raise unsupported("output_config.format", "structured output")
        if key != "effort":
            raise extra(f"output_config.{key}")
    if config.get("effort", "high") not in EFFORTS:
        raise APIError(400, "output_config.effort: Input should be 'low', 'medium', 'high', "
                       "'xhigh' or 'max'")


def forced_tool(request: dict) -> None:
    """tool_choice `any`/`tool` forces a call; the course model chooses its own tools."""
    if (request.get("tool_choice") or {}).get("type") in ("any", "tool"):
        raise unsupported("tool_choice", "forcing a tool (`any` or `tool`)")
