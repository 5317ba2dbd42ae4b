"""Cache breakpoints after the stable part, so that the prefix a clear leaves alone stays cached.

`run_agent(cache=True)` marks the system prompt and the newest block: each request reads
the previous one's prefix from the cache. A clear empties results in the middle of the
history, and everything after the first emptied block is a new prefix: without another
breakpoint the cache is read only up to the system prompt, and the rest (the task, the
agent's notes, every cleared result) is written again at 1.25x. But the part before the
oldest result not yet cleared (the summary, cleared results and their calls) will not
change again. `Breakpoints` marks its end, and marks it again after the next clear (the
API checks at most 20 positions per breakpoint, the breakpoint itself the first, a run of
tool_use or tool_result blocks one position: not further), so a clear rewrites only what
follows. At most 4 breakpoints: the system prompt's and 3 here.

Used as `run_agent(cache=Breakpoints())`: it marks a copy of what is sent, never the
history the loop keeps. `newest=False` leaves the newest block unmarked: worth it when
the newest result is read only once before a clear empties it (lesson 7's break-even).
With the server's clearing edit the history sent is never cleared: `keep` (the edit's)
ends the stable part before the oldest result the server keeps.
"""

from __future__ import annotations

from agentlib.context.clear import is_cleared
from agentlib.messages import blocks

MARK = {"type": "ephemeral"}


def stable_end(messages: list[dict], start: int = 0,
               keep: int | None = None) -> tuple[int, int] | None:
    """(message, block) of the last block before the oldest tool result not yet cleared,
    looking from message `start` on (the results before it are known to be cleared); the
    newest block if every result is cleared; None for an empty history. With `keep` (a
    server-side edit's): before the oldest of the newest `keep` results instead."""
    if keep == 0:
        return _before(messages, len(messages), 0)
    if keep is not None:
        seen = 0
        for i in range(len(messages) - 1, -1, -1):
            content = blocks(messages[i])
            for j in range(len(content) - 1, -1, -1):
                if content[j].get("type") == "tool_result":
                    seen += 1
                    if seen == keep:
                        return _before(messages, i, j)
        start = 0  # fewer than `keep` results: the server keeps them all
    for i in range(start, len(messages)):
        for j, b in enumerate(blocks(messages[i])):
            if b.get("type") == "tool_result" and not is_cleared(b):
                return _before(messages, i, j)
    return _before(messages, len(messages), 0)


def _before(messages: list[dict], i: int, j: int) -> tuple[int, int] | None:
    """The last block before block j of message i that can carry a breakpoint (thinking
    blocks and empty text cannot), or None."""
    for k in range(min(i, len(messages) - 1), -1, -1):
        content = blocks(messages[k])
        for m in range((j if k == i else len(content)) - 1, -1, -1):
            b = content[m]
            if b.get("type") not in ("thinking", "redacted_thinking") and \
                    not (b.get("type") == "text" and not b.get("text")):
                return k, m
    return None


def marked(messages: list[dict], places) -> list[dict]:
    """A copy of `messages` with a `cache_control` breakpoint on each (message, block) place
    (a string content becomes one text block); only the marked messages are copied."""
    out = list(messages)
    for i in sorted({i for i, _ in places}):
        content = blocks(messages[i])
        at = {j for k, j in places if k == i}
        out[i] = {**messages[i], "content": [{**b, "cache_control": MARK} if j in at else b
                                             for j, b in enumerate(content)]}
    return out


class Breakpoints:
    """Place the message breakpoints: the end of the stable part (and where it was before
    a clear moved it), and the newest block. State: the last end marked and its message,
    so that each step scans only what follows it (per-step work does not grow)."""

    def __init__(self, *, newest: bool = True, keep: int | None = None):
        if keep is not None and (not isinstance(keep, int) or keep < 0):
            raise ValueError(f"keep must be None or 0 or more tool results, got {keep!r}")
        self.newest, self.keep = newest, keep
        self._end: tuple[int, int] | None = None  # the stable end marked last
        self._message: dict | None = None  # the message it was in, to see it is still there

    def _still_there(self, messages: list[dict]) -> bool:
        """Is the last stable end still a prefix of `messages` (no compaction replaced it)?"""
        return self._end is not None and self._end[0] < len(messages) \
            and messages[self._end[0]] == self._message

    def __call__(self, messages: list[dict]) -> list[dict]:
        if not messages:
            return messages
        before = self._end if self._still_there(messages) else None
        end = stable_end(messages, before[0] if before else 0, self.keep)
        newest = _before(messages, len(messages), 0)
        places = {p for p in (before, end) if p is not None}
        if newest is not None and (self.newest or not places):
            places.add(newest)
        if end is not None:
            self._end, self._message = end, messages[end[0]]
        return marked(messages, places)

    def __repr__(self) -> str:
        return f"Breakpoints(newest={self.newest}, keep={self.keep})"
