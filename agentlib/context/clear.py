"""Clearing: empty old tool results, keep the blocks and the record that the call happened.

Old results are usually stale and can be fetched again, so their text can go. The
`tool_result` block itself must stay (deleting it splits the pair: the 400 of lesson 02);
only its content becomes a short placeholder. The API's own edit
(`clear_tool_uses_20250919`) does the same on the server: it triggers at 100,000 input
tokens and keeps the last 3 tool uses by default.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import tokens
from ..messages import blocks

PLACEHOLDER = "[cleared to save context; call the tool again if you need this result]"
DEFAULT_TRIGGER = 100_000  # input tokens, the API's default
DEFAULT_KEEP = 3  # tool uses, the API's default


class ClearedHistory(list):
    """A history (a plain list) that also says what clearing did to it."""

    cleared_tool_uses: int = 0
    cleared_input_tokens: int = 0


def _trigger_reached(messages: list[dict], trigger) -> bool:
    if trigger is None:
        return True
    if isinstance(trigger, dict):
        kind, value = trigger.get("type"), trigger.get("value")
        if kind == "tool_uses":
            uses = sum(1 for m in messages for b in blocks(m) if b.get("type") == "tool_use")
            return uses > value
        if kind != "input_tokens":
            raise ValueError(f"trigger type must be 'input_tokens' or 'tool_uses', got {kind!r}")
        trigger = value
    return tokens.count(messages) > trigger


def clear_tool_results(messages: list[dict], keep: int = DEFAULT_KEEP, *,
                       trigger: int | dict | None = None, placeholder: str = PLACEHOLDER,
                       exclude_tools: Iterable[str] = (), clear_at_least: int | None = None,
                       clear_inputs: bool | Iterable[str] = False) -> ClearedHistory:
    """Replace the content of all but the newest `keep` tool results with `placeholder`.

    Only when the history is over `trigger` tokens (None: always), and only if at least
    `clear_at_least` tokens would be freed. Never mutates `messages`; the result is a new
    list whose `cleared_tool_uses` and `cleared_input_tokens` say what was done.
    """
    if keep < 0:
        raise ValueError(f"keep must be 0 or more, got {keep}")
    out = ClearedHistory(messages)
    if not _trigger_reached(messages, trigger):
        return out
    excluded = set(exclude_tools)
    names: dict[str, str] = {}
    results: list[tuple[int, int, str]] = []  # (message, block, tool_use_id), oldest first
    for i, m in enumerate(messages):
        for j, b in enumerate(blocks(m)):
            if b.get("type") == "tool_use":
                names[b["id"]] = b["name"]
            elif b.get("type") == "tool_result":
                results.append((i, j, b["tool_use_id"]))
    old = results[: max(0, len(results) - keep)]
    targets = [(i, j, tid) for i, j, tid in old if names.get(tid) not in excluded]
    inputs = clear_inputs if isinstance(clear_inputs, bool) else set(clear_inputs)
    freed, cleared, edits = 0, 0, {}
    for i, j, tid in targets:
        block = blocks(messages[i])[j]
        if block.get("content") == placeholder:
            continue
        new = {**block, "content": placeholder}
        new.pop("is_error", None)
        freed += tokens.count(block) - tokens.count(new)
        cleared += 1
        edits.setdefault(i, {})[j] = new
        if inputs is True or (inputs and names.get(tid) in inputs):
            edits.setdefault("inputs", set()).add(tid)
    if not cleared or (clear_at_least is not None and freed < clear_at_least):
        return out
    cleared_inputs = edits.pop("inputs", set())
    for i, m in enumerate(messages):
        bs = blocks(m)
        changed = edits.get(i, {})
        if cleared_inputs and m.get("role") == "assistant":
            for j, b in enumerate(bs):
                if b.get("type") == "tool_use" and b["id"] in cleared_inputs and b["input"]:
                    freed += tokens.count(b) - tokens.count({**b, "input": {}})
                    changed = {**changed, j: {**b, "input": {}}}
        if changed:
            out[i] = {**m, "content": [changed.get(j, b) for j, b in enumerate(bs)]}
    out.cleared_tool_uses, out.cleared_input_tokens = cleared, freed
    return out


class Clearing:
    """`clear_tool_results` as a strategy for `run_agent`, recording what it cleared."""

    def __init__(self, keep: int = DEFAULT_KEEP, trigger: int | dict | None = None, **options):
        self.keep, self.trigger, self.options = keep, trigger, options
        self.event: str | None = None
        self.total_cleared = 0

    def __call__(self, messages: list[dict]) -> list[dict]:
        out = clear_tool_results(messages, self.keep, trigger=self.trigger, **self.options)
        self.total_cleared += out.cleared_tool_uses
        self.event = (f"cleared {out.cleared_tool_uses} results (-{out.cleared_input_tokens} "
                      "tokens)" if out.cleared_tool_uses else None)
        return out

    def __repr__(self) -> str:
        return f"Clearing(keep={self.keep}, trigger={self.trigger})"
