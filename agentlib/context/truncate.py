"""Truncation: keep the newest messages, drop the rest, and never split a tool pair.

Unit: messages. `messages[-keep:]` is the one-line sliding window, and it is wrong: the
cut can land between a `tool_use` and its `tool_result`, and the API answers 400.
`truncate` moves the cut to a turn boundary, pins the task (the first user message), and
can leave a one-line marker so the model is told that something is missing.
"""

from __future__ import annotations

import re

from agentlib.messages import TRUNCATION_MARK, message_text, starts_with_tool_result, user, validate


def safe_start(messages: list[dict], start: int) -> int:
    """Move a cut at `start` back to a turn boundary: the kept part must not open with a
    tool_result, nor in the middle of a turn (consecutive same-role messages are one turn)."""
    while 0 < start < len(messages) and (
            starts_with_tool_result(messages[start])
            or messages[start].get("role") == messages[start - 1].get("role")):
        start -= 1
    return start


def truncate(messages: list[dict], keep: int = 10, *, pin_task: bool = True,
             marker: bool = True) -> list[dict]:
    """The newest `keep` messages (a few more if a pair needs it), after the task.

    Returns a new list; never mutates `messages`. The newest message is always kept. A
    malformed input raises HistoryError: a cut cannot repair it, only hide it.
    """
    if keep < 1:
        raise ValueError(f"keep must be at least 1 message, got {keep}")
    validate(messages)
    pinned = 1 if pin_task and messages and messages[0].get("role") == "user" \
        and not starts_with_tool_result(messages[0]) else 0
    start = safe_start(messages, max(pinned, len(messages) - keep))
    if start <= pinned:
        return list(messages)
    head = list(messages[:pinned])
    if marker:
        dropped = start - pinned
        earlier = re.match(rf"{re.escape(TRUNCATION_MARK)}: (\d+) ", message_text(messages[pinned]))
        if earlier:  # an earlier marker: count what it stood for, not the marker itself
            dropped += int(earlier.group(1)) - 1
        head.append(user(f"{TRUNCATION_MARK}: {dropped} messages are no longer shown.]"))
    return head + list(messages[start:])


class SlidingWindow:
    """`truncate` as a strategy for `run_agent(context=[...])`: before every request, keep
    the newest `keep` messages. Its `event` says when it cut."""

    def __init__(self, keep: int = 10, *, pin_task: bool = True, marker: bool = True):
        if keep < 1:
            raise ValueError(f"keep must be at least 1 message, got {keep}")
        self.keep, self.pin_task, self.marker = keep, pin_task, marker
        self.event: str | None = None

    def __call__(self, messages: list[dict]) -> list[dict]:
        out = truncate(messages, self.keep, pin_task=self.pin_task, marker=self.marker)
        self.event = "" if out == messages else \
            f"truncated: {len(messages)} -> {len(out)} messages"
        return out

    def __repr__(self) -> str:
        return f"SlidingWindow(keep={self.keep})"
