"""Compaction with a low-water mark: fold only when a fold frees enough, not at every crossing.

A compaction is a paid summary call (its output at the output price), and it rewrites the
whole prefix. The summary grows with every finding it keeps, so a compactor with a plain
`trigger` fires more and more often: each fold leaves the history closer to the trigger,
and late folds free little. `LowWaterCompactor` remembers where its last fold left the
history (the low-water mark) and compacts again only once the history is over `trigger`
*and* at least `at_least` tokens above that mark: a fold always frees about that much,
like the API's `clear_at_least` for clearing. Until then the prefix stays stable.
"""

from __future__ import annotations

from agentlib.context.compact import Compactor


class LowWaterCompactor(Compactor):
    """`Compactor` that folds only `at_least` tokens above where its last fold left off."""

    def __init__(self, client, trigger: int, *, at_least: int, **options):
        super().__init__(client, trigger, **options)
        if not isinstance(at_least, int) or at_least < 0:
            raise ValueError(f"at_least must be 0 or more tokens, got {at_least!r}")
        self.at_least = at_least

    @property
    def low_water(self) -> int:
        """Where the last compaction left the history (0 before the first)."""
        return self.compactions[-1].tokens_after if self.compactions else 0

    def due(self, messages: list[dict], size: int) -> bool:
        return super().due(messages, size) and size - self.low_water >= self.at_least

    def __repr__(self) -> str:
        return (f"LowWaterCompactor(trigger={self.trigger}, at_least={self.at_least}, "
                f"keep={self.keep}, compactions={len(self.compactions)})")
