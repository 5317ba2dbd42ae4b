"""When a strategy acts: its `trigger`, in the form the API's context edits use.

A trigger is None (act every time), a number of input tokens, or the API's own form
{"type": "input_tokens" | "tool_uses", "value": N}. The course adds one kind of its own,
{"type": "messages", "value": N}: past N messages, however big or small they are, as some
frameworks count (the API's edits do not take it). The history is past a trigger when it
holds more than N tokens (tool uses, messages).
"""

from __future__ import annotations

from agentlib import tokens
from agentlib.messages import blocks

API_KINDS = ("input_tokens", "tool_uses")  # what the API's context edits accept
KINDS = (*API_KINDS, "messages")  # and the course's own


def parse(trigger) -> tuple[str, int] | None:
    """(kind, value) of a trigger, or None for "always"; a bad one raises ValueError."""
    if trigger is None:
        return None
    kind, value = ("input_tokens", trigger) if isinstance(trigger, int) else \
        (trigger.get("type"), trigger.get("value")) if isinstance(trigger, dict) else (None, None)
    if kind not in KINDS or not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"trigger must be None, a token count, or {{'type': 'input_tokens', "
                         f"'tool_uses' or 'messages' (the course's own), 'value': N >= 0}}; "
                         f"got {trigger!r}")
    return kind, value


def reached(trigger, messages: list[dict], *, size: int | None = None,
            uses: int | None = None) -> bool:
    """Is `messages` past `trigger`? `size` (tokens) and `uses` spare a recount if known."""
    parsed = parse(trigger)
    if parsed is None:
        return True
    kind, value = parsed
    if kind == "messages":
        return len(messages) > value
    if kind == "tool_uses":
        if uses is None:
            uses = sum(b.get("type") == "tool_use" for m in messages for b in blocks(m))
        return uses > value
    return (tokens.count(messages) if size is None else size) > value
