"""Server-side context editing, as the API's beta `context_management` parameter does it.

Written the way a server would: it edits what the model sees and leaves the client's
history alone, and it shares no code with the client-side strategies it is compared with
in the lessons (`agentlib.context`).

`clear_tool_uses_20250919` empties old tool results once the prompt is over the trigger
(100,000 input tokens by default), keeping the newest 3 tool uses. The placeholder text
is the stand-in's own: the API does not document its wording.

`compact_20260112` summarizes what the model sees once it is over the trigger (150,000
tokens by default, 50,000 at least) and answers with a `compaction` block first; on later
requests everything before the newest compaction block is dropped.
"""

from __future__ import annotations

from .. import tokens
from .errors import APIError

CLEAR = "clear_tool_uses_20250919"
COMPACT = "compact_20260112"
CLEAR_TRIGGER, CLEAR_KEEP = 100_000, 3
COMPACT_TRIGGER, COMPACT_MIN = 150_000, 50_000
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


def after_compaction(messages: list[dict]) -> list[dict]:
    """What the model sees of a history holding a compaction block: from that block on."""
    for i in range(len(messages) - 1, -1, -1):
        content = messages[i].get("content")
        if messages[i].get("role") != "assistant" or not isinstance(content, list):
            continue
        for j in range(len(content) - 1, -1, -1):
            if isinstance(content[j], dict) and content[j].get("type") == "compaction":
                return [{**messages[i], "content": content[j:]}] + messages[i + 1:]
    return messages


def compaction_edit(config) -> dict | None:
    """The validated compact edit of a request, with its defaults, or None."""
    for n, edit in enumerate((config or {}).get("edits") or []):
        if isinstance(edit, dict) and edit.get("type") == COMPACT:
            where = f"context_management.edits.{n}"
            trigger = _value(edit, "trigger", ("input_tokens",),
                             {"type": "input_tokens", "value": COMPACT_TRIGGER}, where)
            if trigger["value"] < COMPACT_MIN:
                raise APIError(400, f"{where}.trigger.value: must be at least {COMPACT_MIN} "
                               f"input tokens, got {trigger['value']}")
            instructions = edit.get("instructions")
            if instructions is not None and not isinstance(instructions, str):
                raise APIError(400, f"{where}.instructions: Input should be a valid string")
            return {"trigger": trigger["value"], "instructions": instructions,
                    "pause": bool(edit.get("pause_after_compaction", False))}
    return None


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


def apply(config, messages: list[dict], system, tools) -> tuple[list[dict], list[dict]]:
    """Apply the clearing edits of `context_management` to what the model sees."""
    if config is None:
        return messages, []
    if not isinstance(config, dict) or not isinstance(config.get("edits"), list):
        raise APIError(400, "context_management.edits: Field required")
    applied = []
    for n, edit in enumerate(config["edits"]):
        where = f"context_management.edits.{n}"
        if isinstance(edit, dict) and edit.get("type") == COMPACT:
            continue  # done by the server after clearing: see compaction_edit
        if not isinstance(edit, dict) or edit.get("type") != CLEAR:
            kind = edit.get("type") if isinstance(edit, dict) else edit
            raise APIError(400, f"{where}.type: unknown edit type {kind!r} (the offline course "
                           f"model knows {CLEAR!r} and {COMPACT!r})")
        trigger = _value(edit, "trigger", ("input_tokens", "tool_uses"),
                         {"type": "input_tokens", "value": CLEAR_TRIGGER}, where)
        keep = _value(edit, "keep", ("tool_uses",), {"type": "tool_uses",
                                                    "value": CLEAR_KEEP}, where)["value"]
        least = _value(edit, "clear_at_least", ("input_tokens",),
                       {"type": "input_tokens", "value": 0}, where)["value"]
        if trigger["type"] == "input_tokens":  # the trigger counts the whole prompt
            over = tokens.count(messages, system=system, tools=tools) > trigger["value"]
        else:
            over = sum(b.get("type") == "tool_use" for m in messages
                       if isinstance(m["content"], list) for b in m["content"]) > trigger["value"]
        if not over:
            continue
        messages, cleared, freed = clear_tool_uses(
            messages, keep, set(edit.get("exclude_tools") or ()),
            edit.get("clear_tool_inputs") or False, least)
        if cleared:
            applied.append({"type": CLEAR, "cleared_tool_uses": cleared,
                            "cleared_input_tokens": freed})
    return messages, applied
