"""Server-side context editing, as the API's beta `context_management` parameter does it.

`clear_tool_uses_20250919` empties old tool results in what the model sees; the client's
own history is untouched. Defaults are the documented ones: trigger at 100,000 input
tokens, keep the last 3 tool uses. The placeholder text is the course's own choice (the
API does not document its wording).

`compact_20260112` summarizes what the model sees once it is over the trigger (150,000
tokens by default, 50,000 at least) and answers with a `compaction` block first; on later
requests everything before the newest compaction block is dropped.
"""

from __future__ import annotations

from .. import tokens
from ..context.clear import DEFAULT_KEEP, DEFAULT_TRIGGER, clear_tool_results
from .errors import APIError

CLEAR = "clear_tool_uses_20250919"
COMPACT = "compact_20260112"
COMPACT_TRIGGER, COMPACT_MIN = 150_000, 50_000


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
                         {"type": "input_tokens", "value": DEFAULT_TRIGGER}, where)
        keep = _value(edit, "keep", ("tool_uses",), {"type": "tool_uses",
                                                    "value": DEFAULT_KEEP}, where)["value"]
        least = _value(edit, "clear_at_least", ("input_tokens",), None, where)
        if trigger["type"] == "input_tokens":  # the trigger counts the whole prompt
            seen = tokens.count(messages, system=system, tools=tools)
            if seen <= trigger["value"]:
                continue
            trigger = None
        out = clear_tool_results(
            messages, keep, trigger=trigger, exclude_tools=edit.get("exclude_tools") or (),
            clear_at_least=least["value"] if least else None,
            clear_inputs=edit.get("clear_tool_inputs") or False)
        if out.cleared_tool_uses:
            messages = list(out)
            applied.append({"type": CLEAR, "cleared_tool_uses": out.cleared_tool_uses,
                            "cleared_input_tokens": out.cleared_input_tokens})
    return messages, applied
