"""Histories that remember what they were made from, so per-step work need not compare them.

The loop appends to the history every step and strategies replace a few messages; both
make a new list (histories are values: nobody edits a list once it is handed on). A
`Derived` list records its base and which positions it replaced, and the same for a few
generations before, so a strategy or a token count that saw an ancestor learns what is
new at once (`changes`) instead of comparing every message: the work per step stays the
same however long the history grows. Bases are held by weak references, never kept alive.
"""

from __future__ import annotations

import weakref

GENERATIONS = 8  # how far back a history remembers its ancestors


class Derived(list):
    """`base` with `new` messages appended and the messages at `changed` replaced (by its
    maker, right after construction)."""

    def __init__(self, base: list = (), new: list | tuple = (), changed=()):
        super().__init__(base)
        self.extend(new)
        changed = frozenset(changed)
        older = [(ref, n, ch | {i for i in changed if i < n})
                 for ref, n, ch in getattr(base, "lineage", ())[:GENERATIONS - 1]]
        mine = (weakref.ref(base), len(base), changed) if isinstance(base, Derived) else None
        self.lineage = ([mine] if mine else []) + older


def changes(messages: list, last: list) -> frozenset | None:
    """The positions of `last` that `messages` replaced if `messages` was made from `last`
    (the messages after len(last) are new); None if that is not known."""
    for ref, n, changed in getattr(messages, "lineage", ()):
        if ref() is last and n == len(last):
            return changed
    return None


def extends(messages: list, last: list) -> bool:
    """True when `messages` starts with the messages of `last`: at once when its lineage
    says so, else by list equality (identity first, so at C speed for the same objects)."""
    if changes(messages, last) == frozenset():
        return True
    return len(messages) >= len(last) and messages[:len(last)] == last
