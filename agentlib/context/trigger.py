"""When a strategy acts: its `trigger`, in the form the API's context edits use.

A trigger is None (act every time), a number of input tokens, or the API's own form
{"type": "input_tokens" | "tool_uses", "value": N}. The history is past it when it holds
more than N tokens (or tool uses).
"""

from __future__ import annotations

from .. import tokens
from ..messages import blocks

KINDS = ("input_tokens", "tool_uses")


def parse(trigger) -> tuple[str, int] | None:
    """(kind, value) of a trigger, or None for "always"; a bad one raises ValueError."""
    if trigger is None:
        return None
    kind, value = ("input_tokens", trigger) if isinstance(trigger, int) else \
        (trigger.get("type"), trigger.get("value")) if isinstance(trigger, dict) else (None, None)
    if kind not in KINDS or not isinstance(value, int) or value < 0:
        raise ValueError(f"trigger must be None, a token count, or {{'type': 'input_tokens' or "
                         f"'tool_uses', 'value': N >= 0}}; got {trigger!r}")
    return kind, value


def reached(trigger, messages: list[dict], *, size: int | None = None,
            uses: int | None = None) -> bool:
    """Is `messages` past `trigger`? `size` (tokens) and `uses` spare a recount if known."""
    parsed = parse(trigger)
    if parsed is None:
        return True
    kind, value = parsed
    if kind == "tool_uses":
        if uses is None:
            uses = sum(b.get("type") == "tool_use" for m in messages for b in blocks(m))
        return uses > value
    return (tokens.count(messages) if size is None else size) > value
