"""Prompt caching, as the API accounts for it: a prefix marked with `cache_control` is
written once (1.25x the input price for 5 minutes, 2x for an hour) and read by later
requests with the same prefix (a model-specific fraction of the input price). Any edit
before the breakpoint, such as clearing or compaction, means the next request writes again.

The prefix runs in the API's order: tools, then system, then messages, block by block.
A hit is looked for at the breakpoint and at most 19 positions before it (20 in all, the
breakpoint the first; a run of consecutive `tool_use` blocks is one position, and so is a
run of `tool_result` blocks). At most 4 breakpoints, the top-level automatic one included;
prefixes under the model's minimum are not cached. Entries do not expire here (the offline
model keeps no clock).
Sources: docs/api-facts.md, section 5.
"""

from __future__ import annotations

import hashlib
import json

from standin import memo, tokens
from standin.errors import APIError
from standin.history import blocks

LOOKBACK = 20  # positions checked per breakpoint, the breakpoint itself the first
ONE_POSITION = ("tool_use", "tool_result")  # a run of either type is one position
UNCACHED_TAIL = 4  # the prompt's last tokens (the turn's closing framing) are never cached
MAX_BREAKPOINTS = 4
TTLS = ("5m", "1h")


def _ttl(mark, where: str) -> str:
    """The TTL of a `cache_control` value, checked."""
    if not isinstance(mark, dict) or mark.get("type") != "ephemeral":
        raise APIError(400, f"{where}.type: Input should be 'ephemeral'")
    ttl = mark.get("ttl") or "5m"
    if ttl not in TTLS:
        raise APIError(400, f"{where}.ttl: Input should be '5m' or '1h'")
    return ttl


def segments(request: dict, messages: list[dict] | None = None, hidden: int = 0, *,
             counted: bool = True) -> list[list]:
    """[block, its tokens, TTL of its breakpoint or None] in prefix order, with the
    top-level `cache_control` placed on the last cacheable block. Checks the breakpoints.
    `hidden`, the tool-use system prompt the server adds, opens the prefix (it is built
    from the tools and the system prompt, so it is cached with them). `counted=False`
    only checks: every block's tokens are 0."""
    count = tokens.count if counted else _nothing
    system, tools = request.get("system"), request.get("tools") or []
    messages = request["messages"] if messages is None else messages
    out: list[list] = [[{"type": "tool_use_system_prompt"}, hidden, None]] if hidden else []
    for i, t in enumerate(tools):
        mark = t.get("cache_control")
        out.append([t, count([], tools=[t]), mark and _ttl(mark, f"tools.{i}.cache_control")])
    if isinstance(system, str) and system:
        out.append([{"type": "text", "text": system}, count(system), None])
    for i, b in enumerate(system if isinstance(system, list) else []):
        mark = b.get("cache_control")
        out.append([b, count([], system=[b]),
                    mark and _ttl(mark, f"system.{i}.cache_control")])
    for i, m in enumerate(messages):
        for j, b in enumerate(blocks(m)):
            mark = b.get("cache_control")
            where = f"messages.{i}.content.{j}.cache_control" if mark else ""
            if mark and b.get("type") in ("thinking", "redacted_thinking"):
                raise APIError(400, f"{where}: Extra inputs are not permitted")
            n = count(b) + (tokens.MESSAGE_OVERHEAD if j == 0 and counted else 0)
            out.append([{"role": m["role"], **b}, n, mark and _ttl(mark, where)])
    top = request.get("cache_control")
    if top is not None:
        _place_top_level(out, _ttl(top, "cache_control"))
    marks = [s[2] for s in out if s[2]]
    if len(marks) > MAX_BREAKPOINTS:
        raise APIError(400, f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be "
                       f"provided. Found {len(marks)}.")
    if "5m" in marks and "1h" in marks[marks.index("5m"):]:  # course wording
        raise APIError(400, "cache_control: a breakpoint with ttl '1h' must come before every "
                       "breakpoint with ttl '5m' (tools, then system, then messages)")
    return out


def _nothing(*_, **__) -> int:
    return 0


def _place_top_level(segs: list[list], ttl: str) -> None:
    """Top-level caching marks the last cacheable block (not thinking, not empty text)."""
    for seg in reversed(segs):
        b = seg[0]
        if b.get("type") in ("thinking", "redacted_thinking") or \
                (b.get("type") == "text" and not b.get("text")):
            continue
        if seg[2] and seg[2] != ttl:  # course wording: the docs say 400, text not found
            raise APIError(400, f"cache_control: the top-level ttl '{ttl}' differs from the "
                           f"explicit breakpoint on the last cacheable block (ttl '{seg[2]}')")
        seg[2] = ttl
        return


def positions(segs: list[list]) -> list[int]:
    """The lookback position of each block: consecutive `tool_use` blocks share one, and so do
    consecutive `tool_result` blocks (the docs' rule on the Claude API)."""
    out, p, previous = [], -1, None
    for block, _, _ in segs:
        kind = block.get("type")
        if not (kind in ONE_POSITION and kind == previous):
            p += 1
        out.append(p)
        previous = kind
    return out


def _unmarked_json(block: dict) -> bytes:
    """A block as the prefix hash reads it: its JSON, keys sorted, without its breakpoint."""
    clean = {k: v for k, v in block.items() if k != "cache_control"}
    return json.dumps(clean, sort_keys=True, ensure_ascii=False).encode("utf-8")


_block_json = memo.ByValue(_unmarked_json)  # a history comes back whole with each request


class PromptCache:
    """The cached prefixes of one offline model (a set of prefix hashes)."""

    def __init__(self) -> None:
        self.prefixes: set[str] = set()

    def account(self, segs: list[list], total: int, min_tokens: int) -> dict:
        """The usage of a request: uncached input, cache writes (by TTL) and reads."""
        marks = [i for i, s in enumerate(segs) if s[2]]
        usage = {"input_tokens": total, "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0,
                 "cache_creation": {"ephemeral_5m_input_tokens": 0,
                                    "ephemeral_1h_input_tokens": 0}}
        if not marks:
            return usage
        h, hashes, cum, running = hashlib.sha256(), [], [], 0
        for block, n, _ in segs[: marks[-1] + 1]:
            h.update(_block_json(block))
            hashes.append(h.copy().hexdigest())
            running += n
            cum.append(min(running, max(0, total - UNCACHED_TAIL)))
        read, pos = 0, positions(segs)
        for mark in reversed(marks):  # no hit in one window: the next breakpoint's window
            hit, i = None, mark
            while i >= 0 and pos[mark] - pos[i] < LOOKBACK:
                if hashes[i] in self.prefixes:
                    hit = i
                    break
                i -= 1
            if hit is not None:
                read = cum[hit]
                break
        by_ttl, start = {"5m": 0, "1h": 0}, read
        for mark in marks:  # the tokens up to a new breakpoint are written at its TTL
            if cum[mark] >= min_tokens and hashes[mark] not in self.prefixes:
                self.prefixes.add(hashes[mark])
                if cum[mark] > start:
                    by_ttl[segs[mark][2]] += cum[mark] - start
                    start = cum[mark]
        written = by_ttl["5m"] + by_ttl["1h"]
        usage.update(input_tokens=max(0, total - read - written),
                     cache_creation_input_tokens=written, cache_read_input_tokens=read,
                     cache_creation={"ephemeral_5m_input_tokens": by_ttl["5m"],
                                     "ephemeral_1h_input_tokens": by_ttl["1h"]})
        return usage
