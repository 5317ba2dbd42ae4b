"""Batch clearing with hysteresis: clear rarely, in big bites, so the cache breaks rarely.

With prompt caching, a clear costs more than the tokens it frees on the next request:
every block after the first one it empties is a new prefix, written again at 1.25x the
input price instead of read at a tenth of it. `Clearing` empties all but the newest
`keep` results each time the history is over `trigger`; once the history hovers there,
that is one result, and one rewrite, per step. `BatchClearing` adds a low-water mark:
over `trigger` (the high-water mark) it empties the oldest results until the history is
at most `down_to` tokens (never the newest `keep`), and only if that frees at least
`clear_at_least` tokens. Between the two marks the prefix is stable and the cache reads it.
"""

from __future__ import annotations

from agentlib import tokens
from agentlib.context.clear import PLACEHOLDER, Clearing
from agentlib.context.trigger import parse


class BatchClearing(Clearing):
    """`Clearing` between two marks: over `trigger` tokens, clear down to `down_to`."""

    def __init__(self, keep: int = 3, *, trigger: int, down_to: int = 0,
                 clear_at_least: int | None = None, **options):
        if not isinstance(trigger, int) or parse(trigger) is None:
            raise ValueError(f"BatchClearing's trigger is a number of tokens, got {trigger!r}")
        if not isinstance(down_to, int) or not 0 <= down_to <= trigger:
            raise ValueError(f"down_to must be a number of tokens from 0 to trigger={trigger}, "
                             f"got {down_to!r}")
        super().__init__(keep, trigger=trigger, clear_at_least=clear_at_least, **options)
        self.down_to = down_to

    def upto(self, messages: list[dict], size: int | None) -> int:
        """The oldest results whose emptying brings the history down to `down_to`."""
        last = max(self._done, len(self._results) - self.keep)
        size = self._size.of(messages) if size is None else size
        empty = self.options.get("placeholder", PLACEHOLDER)
        k = self._done
        while k < last and size > self.down_to:
            (i, j), _ = self._results[k]
            block = messages[i]["content"][j]
            size -= max(0, tokens.count(block) - tokens.count({**block, "content": empty}))
            k += 1
        return k

    def __repr__(self) -> str:
        return (f"BatchClearing(keep={self.keep}, trigger={self.trigger}, "
                f"down_to={self.down_to}, clear_at_least={self.clear_at_least})")
