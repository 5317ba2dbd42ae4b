"""Cache diagnostics: where a request's prompt prefix diverged from the request before it.

A request that carries a `diagnostics` object leaves a fingerprint, kept under its
response's `id`: hashes of its model, tools, system prompt, prompt-affecting settings and
messages (never their text), and its prompt's size. A later request that names that id in
`diagnostics.previous_message_id` gets `diagnostics.cache_miss_reason` in its response: the
earliest part that differs, in the prompt's order (model, tools, system, messages), with
`cache_missed_input_tokens`, the previous prompt's tokens from that point on; `unavailable`
when only another prompt-affecting setting differs, or the change lies beyond the
comparison horizon; `previous_message_not_found` when no fingerprint is kept under that id.
No divergence (or a first turn, `previous_message_id: null`): `diagnostics` is null.

Bounded, whatever the clients send: at most KEPT fingerprints (the oldest is dropped first,
as the API's expire), each with a hash per message for its newest HORIZON messages and one
hash for all before them. Each request is read once; no stored history is walked.

The prompt cache's message entries are also bound to a request's `thinking` and
`tool_choice` (`bind_settings`): a change of either makes the messages write again, while
tools and system stay cached, as the docs' invalidation table says.
Sources: docs/api-facts.md, section 5 (5.11 to 5.15).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass

from standin import tokens
from standin.errors import APIError, extra
from standin.history import blocks

KEPT = 1024  # fingerprints kept (the API keeps them "for a limited time")
HORIZON = 200  # messages compared one by one; a change before them is `unavailable`
MESSAGE_SETTINGS = ("thinking", "tool_choice")  # bound into the messages' cache entries
COMPARED_SETTINGS = ("thinking", "tool_choice", "context_management", "output_config")


def check(value) -> None:
    """The request's `diagnostics` object: {"previous_message_id": a string or null}."""
    if not isinstance(value, dict):
        raise APIError(400, "diagnostics: Input should be a valid dictionary")
    for key in value:
        if key != "previous_message_id":
            raise extra(f"diagnostics.{key}")
    previous = value.get("previous_message_id")
    if previous is not None and not isinstance(previous, str):
        raise APIError(400, "diagnostics.previous_message_id: Input should be a valid string")


def bind_settings(segs: list[list], request: dict) -> list[list]:
    """Cache segments (`cache.segments`) whose first message block also carries the
    request's `thinking` and `tool_choice`: the entries that end in the messages depend on
    them, those that end in the tools or the system prompt do not."""
    settings = {k: request[k] for k in MESSAGE_SETTINGS if request.get(k) is not None}
    if not settings:
        return segs
    for i, (block, n, ttl) in enumerate(segs):
        if "role" in block:
            return [*segs[:i], [{**block, "request_settings": settings}, n, ttl], *segs[i + 1:]]
    return segs


def _digest(value) -> bytes:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).digest()[:16]


def _bare(block: dict) -> dict:
    """A block as the cache reads it: its `cache_control` (where a breakpoint sits) aside."""
    return {k: v for k, v in block.items() if k != "cache_control"} if isinstance(block, dict) \
        else block


def _system(system) -> list:
    if isinstance(system, str):
        return [{"type": "text", "text": system}] if system else []
    return [_bare(b) for b in system or []]


@dataclass(frozen=True)
class Fingerprint:
    """What a request's prompt was made of, as hashes (never its text), and its size."""

    model: bytes
    tools: bytes
    system: bytes
    settings: bytes
    head: bytes  # all messages before the newest HORIZON, as one hash
    head_n: int
    tail: bytes  # a 16-byte hash per message, the newest HORIZON
    total: int  # the prompt's tokens: input, cache reads and cache writes

    @staticmethod
    def messages(request: dict) -> list[bytes]:
        return [_digest([m.get("role"), [_bare(b) for b in blocks(m)]])
                for m in request.get("messages") or []]

    @classmethod
    def of(cls, request: dict, betas: set[str], digests: list[bytes], total: int):
        split = max(0, len(digests) - HORIZON)
        return cls(
            model=_digest([request.get("model"), request.get("speed") or "standard"]),
            tools=_digest([_bare(t) for t in request.get("tools") or []]),
            system=_digest(_system(request.get("system"))),
            settings=_digest([{k: request.get(k) for k in COMPARED_SETTINGS}, sorted(betas)]),
            head=hashlib.sha256(b"".join(digests[:split])).digest(), head_n=split,
            tail=b"".join(digests[split:]), total=total)


def first_divergence(before: Fingerprint, now: Fingerprint, digests: list[bytes]):
    """Where `now` stops extending `before`: "model", "tools", "system", "settings", a
    message index, "horizon" (a message older than the newest HORIZON), or None."""
    for part in ("model", "tools", "system", "settings"):
        if getattr(before, part) != getattr(now, part):
            return part
    if len(digests) < before.head_n or \
            hashlib.sha256(b"".join(digests[:before.head_n])).digest() != before.head:
        return "horizon"
    for j in range(len(before.tail) // 16):
        i = before.head_n + j
        if i >= len(digests) or digests[i] != before.tail[16 * j:16 * j + 16]:
            return i
    return None


class Diagnostics:
    """The fingerprints of one stand-in's responses, by response id (the newest KEPT)."""

    def __init__(self) -> None:
        self.kept: OrderedDict[str, Fingerprint] = OrderedDict()

    def answer(self, request: dict, betas: set[str], response: dict, hidden: int = 0):
        """The response's `diagnostics` for a request that carries the object; keeps the
        request's fingerprint under the response's id. `hidden`: the tool-use system prompt
        the server added (cached with the tools)."""
        usage = response.get("usage") or {}
        total = sum(usage.get(k) or 0 for k in ("input_tokens", "cache_read_input_tokens",
                                                 "cache_creation_input_tokens"))
        digests = Fingerprint.messages(request)
        now = Fingerprint.of(request, betas, digests, total)
        previous = request["diagnostics"].get("previous_message_id")
        before = self.kept.get(previous) if previous is not None else None
        self.kept[response["id"]] = now
        self.kept.move_to_end(response["id"])
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        if previous is None:
            return None
        if before is None:
            return {"cache_miss_reason": {"type": "previous_message_not_found"}}
        where = first_divergence(before, now, digests)
        if where is None:
            return None
        if where in ("settings", "horizon"):
            return {"cache_miss_reason": {"type": "unavailable"}}
        kind = where if isinstance(where, str) else "messages"
        return {"cache_miss_reason": {"type": f"{kind}_changed", "cache_missed_input_tokens":
                                      max(0, before.total - _kept(request, hidden, where))}}


def _kept(request: dict, hidden: int, where) -> int:
    """The tokens of the prompt before the divergence: what both requests share."""
    if where in ("model", "tools"):
        return 0
    shared = hidden + tokens.count([], tools=request.get("tools") or [])
    if where == "system":
        return shared
    shared += tokens.count([], system=request.get("system")) if request.get("system") else 0
    return shared + tokens.count(request["messages"][:where])
