"""Server-side context editing, as the API's beta `context_management` parameter does it.

Written the way a server would: it edits what the model sees and leaves the client's
history alone, and it shares no code with the client-side strategies it is compared with
in the lessons (`agentlib.context`).

`clear_thinking_20251015` drops thinking blocks from all but the newest assistant turns
(it must come first when edits are combined). `clear_tool_uses_20250919` empties old tool
results once the prompt is over the trigger (100,000 input tokens by default), keeping the
newest 3 tool uses; its placeholder text is the stand-in's own (the API does not document
its wording). `compact_20260112` is read here and done by `compaction`. Each edit type
needs its beta. Sources: docs/api-facts.md, sections 6 and 7.
"""

from __future__ import annotations

from apiwire.models import Model
from standin import betas as B
from standin import compaction, tokens
from standin.errors import APIError, extra

CLEAR = "clear_tool_uses_20250919"
CLEAR_THINKING = "clear_thinking_20251015"
COMPACT = "compact_20260112"
BETA_OF = {CLEAR: B.CONTEXT_MANAGEMENT, CLEAR_THINKING: B.CONTEXT_MANAGEMENT,
           COMPACT: B.COMPACT_EDIT}
FIELDS = {CLEAR: {"type", "trigger", "keep", "clear_at_least", "exclude_tools",
                  "clear_tool_inputs"},
          CLEAR_THINKING: {"type", "keep"},
          COMPACT: {"type", "trigger", "instructions", "pause_after_compaction"}}
CLEAR_TRIGGER, CLEAR_KEEP = 100_000, 3
CLEARED = "[tool result cleared by the server's context management]"


def _value(edit: dict, field: str, kinds: tuple[str, ...], default, where: str):
    spec = edit.get(field)
    if spec is None:
        return default
    if not isinstance(spec, dict) or spec.get("type") not in kinds or \
            not isinstance(spec.get("value"), int) or spec["value"] < 0:
        raise APIError(400, f"{where}.{field}: expected an object with `type` "
                       f"({' or '.join(kinds)}) and a non-negative integer `value`")
    return spec


def parse(config, betas: set[str]) -> list[tuple[str, dict, str]]:
    """The edits of `context_management`, checked: [(type, edit, where)]."""
    if config is None:
        return []
    if not isinstance(config, dict) or not isinstance(config.get("edits"), list):
        raise APIError(400, "context_management.edits: Field required")
    allowed = [t for t, beta in BETA_OF.items() if beta in betas]
    out = []
    for n, edit in enumerate(config["edits"]):
        where = f"context_management.edits.{n}"
        kind = edit.get("type") if isinstance(edit, dict) else edit
        if kind not in allowed:
            raise APIError(400, f"{where}: Input tag '{kind}' found using 'type' does not match "
                           f"any of the expected tags: {', '.join(repr(t) for t in allowed)}")
        for key in set(edit) - FIELDS[kind]:
            raise extra(f"{where}.{key}")
        if kind == CLEAR_THINKING and n > 0:  # course wording: the docs give no text
            raise APIError(400, f"{where}: `{CLEAR_THINKING}` must be the first edit when "
                           "edits are combined")
        out.append((kind, edit, where))
    return out


def compact_edit(edits) -> dict | None:
    """The checked compaction edit of a request, or None."""
    for kind, edit, where in edits:
        if kind == COMPACT:
            return compaction.edit_config(edit, where)
    return None


def apply(edits, messages: list[dict], system, tools, row: Model, hidden: int = 0
          ) -> tuple[list, list]:
    """Apply the clearing edits to what the model sees: (messages, applied_edits).
    `hidden` is the tool-use system prompt the server adds, part of the prompt a trigger
    counts."""
    applied = []
    for kind, edit, where in edits:
        if kind == CLEAR_THINKING:
            messages, report = clear_thinking(messages, _keep_turns(edit, where, row))
            if report:
                applied.append({"type": CLEAR_THINKING, **report})
        elif kind == CLEAR:
            messages, report = _clear_uses(edit, where, messages, system, tools, hidden)
            if report:
                applied.append({"type": CLEAR, **report})
    return messages, applied


def _keep_turns(edit: dict, where: str, row: Model) -> int | None:
    """How many recent assistant turns keep their thinking; None keeps all."""
    keep = edit.get("keep")
    if keep is None:
        return None if row.keeps_thinking else 1
    if keep == "all" or (isinstance(keep, dict) and keep.get("type") == "all"):
        return None
    if isinstance(keep, dict) and keep.get("type") == "thinking_turns" and \
            isinstance(keep.get("value"), int) and keep["value"] > 0:
        return keep["value"]
    raise APIError(400, f"{where}.keep: expected \"all\", {{\"type\": \"all\"}} or "
                   "{\"type\": \"thinking_turns\", \"value\": N} with N > 0")


def clear_thinking(messages: list[dict], keep: int | None) -> tuple[list, dict | None]:
    """Drop thinking blocks from all but the newest `keep` assistant messages."""
    if keep is None:
        return messages, None
    turns = [i for i, m in enumerate(messages) if m["role"] == "assistant"]
    old = set(turns[:max(0, len(turns) - keep)])
    out, cleared, freed = [], 0, 0
    for i, m in enumerate(messages):
        thought = [b for b in m["content"] if b.get("type") == "thinking"] \
            if i in old and isinstance(m["content"], list) else []
        if not thought:
            out.append(m)
            continue
        cleared += 1
        freed += sum(tokens.count(b) for b in thought)
        rest = [b for b in m["content"] if b.get("type") != "thinking"]
        if rest:
            out.append({**m, "content": rest})
    if not cleared:
        return messages, None
    return out, {"cleared_thinking_turns": cleared, "cleared_input_tokens": freed}


def _clear_uses(edit, where, messages, system, tools, hidden=0) -> tuple[list, dict | None]:
    trigger = _value(edit, "trigger", ("input_tokens", "tool_uses"),
                     {"type": "input_tokens", "value": CLEAR_TRIGGER}, where)
    keep = _value(edit, "keep", ("tool_uses",), {"type": "tool_uses",
                                                "value": CLEAR_KEEP}, where)["value"]
    least = _value(edit, "clear_at_least", ("input_tokens",),
                   {"type": "input_tokens", "value": 0}, where)["value"]
    if trigger["type"] == "input_tokens":  # the trigger counts the whole prompt
        over = tokens.count(messages, system=system, tools=tools) + hidden > trigger["value"]
    else:
        over = sum(b.get("type") == "tool_use" for m in messages
                   if isinstance(m["content"], list) for b in m["content"]) > trigger["value"]
    if not over:
        return messages, None
    messages, cleared, freed = clear_tool_uses(
        messages, keep, set(edit.get("exclude_tools") or ()),
        edit.get("clear_tool_inputs") or False, least)
    return messages, ({"cleared_tool_uses": cleared, "cleared_input_tokens": freed}
                      if cleared else None)


def clear_tool_uses(messages: list[dict], keep: int, exclude: set[str],
                    clear_inputs, clear_at_least: int) -> tuple[list[dict], int, int]:
    """Empty the results (and, if asked, the inputs) of all but the newest `keep` tool uses.
    Returns (messages the model sees, tool uses cleared, input tokens freed)."""
    uses = [(i, j, b) for i, m in enumerate(messages) if isinstance(m["content"], list)
            for j, b in enumerate(m["content"]) if b.get("type") == "tool_use"]
    old = {b["id"]: (i, j, b) for i, j, b in uses[:max(0, len(uses) - keep)]
           if b["name"] not in exclude}
    out = [dict(m, content=list(m["content"])) if isinstance(m["content"], list) else m
           for m in messages]
    cleared, freed = 0, 0
    for m in out:
        for j, b in enumerate(m["content"] if isinstance(m["content"], list) else []):
            if b.get("type") != "tool_result" or b["tool_use_id"] not in old \
                    or b.get("content") == CLEARED:
                continue
            m["content"][j] = {"type": "tool_result", "tool_use_id": b["tool_use_id"],
                               "content": CLEARED}
            freed += tokens.count(b) - tokens.count(m["content"][j])
            cleared += 1
            i, k, use = old[b["tool_use_id"]]
            if clear_inputs is True or (isinstance(clear_inputs, list)
                                        and use["name"] in clear_inputs):
                out[i]["content"][k] = {**use, "input": {}}
                freed += tokens.count(use) - tokens.count(out[i]["content"][k])
    if cleared == 0 or freed < clear_at_least:
        return messages, 0, 0
    return out, cleared, freed
