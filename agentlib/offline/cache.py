"""Prompt caching, as the API accounts for it: a prefix marked with `cache_control` is
written once (1.25x the input price) and read by later requests with the same prefix
(0.1x). Any edit before the breakpoint, such as clearing or compaction, means the next
request writes again.

The prefix runs in the API's order: tools, then system, then messages, block by block.
A hit is looked for at the breakpoint and up to 20 blocks before it, as the API does.
Prefixes under the minimum length are not cached. Entries do not expire here (the real
cache lives 5 minutes unless refreshed); the offline model keeps no clock.
"""

from __future__ import annotations

import hashlib
import json

from .. import tokens
from ..messages import blocks

LOOKBACK = 20
MIN_TOKENS = 1024


def _segments(system, tools, messages) -> list[tuple[dict, int, bool]]:
    """(block, its tokens, marked?) in prefix order; message framing counted on its first block."""
    out = []
    for t in tools or []:
        out.append((t, tokens.count([], tools=[t]), "cache_control" in t))
    if isinstance(system, str) and system:
        out.append(({"type": "text", "text": system}, tokens.count(system), False))
    for b in system if isinstance(system, list) else []:
        out.append((b, tokens.count(b.get("text", "")), "cache_control" in b))
    for m in messages:
        bs = blocks(m)
        for j, b in enumerate(bs):
            n = tokens.count(b) + (tokens.MESSAGE_OVERHEAD if j == 0 else 0)
            out.append(({"role": m["role"], **b}, n, "cache_control" in b))
    return out


class PromptCache:
    """The cached prefixes of one offline model (a set of prefix hashes)."""

    def __init__(self) -> None:
        self.prefixes: set[str] = set()

    def account(self, system, tools, messages, total: int) -> tuple[int, int, int]:
        """(input_tokens, cache_creation_input_tokens, cache_read_input_tokens) of a request."""
        segs = _segments(system, tools, messages)
        marks = [i for i, (_, _, marked) in enumerate(segs) if marked][-4:]
        if not marks:
            return total, 0, 0
        h, hashes, cum, running = hashlib.sha256(), [], [], 0
        for block, n, _ in segs[: marks[-1] + 1]:
            clean = {k: v for k, v in block.items() if k != "cache_control"}
            h.update(json.dumps(clean, sort_keys=True, ensure_ascii=False).encode("utf-8"))
            hashes.append(h.copy().hexdigest())
            running += n
            cum.append(running)
        read = 0
        for mark in reversed(marks):
            hit = next((i for i in range(mark, max(-1, mark - LOOKBACK - 1), -1)
                        if hashes[i] in self.prefixes), None)
            if hit is not None:
                read = cum[hit]
                break
        write = 0
        for mark in marks:
            if cum[mark] >= MIN_TOKENS and hashes[mark] not in self.prefixes:
                self.prefixes.add(hashes[mark])
                write = max(write, cum[mark] - read)
        return max(0, total - read - write), write, read
