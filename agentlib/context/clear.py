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
from ..messages import blocks, is_valid, validate
from .truncate import safe_start

PLACEHOLDER = "[cleared to save context; call the tool again if you need this result]"
DEFAULT_TRIGGER = 100_000  # input tokens, the API's default
DEFAULT_KEEP = 3  # tool uses, the API's default


class ClearedHistory(list):
    """A history (a plain list) that also says what clearing did to it."""

    cleared_tool_uses: int = 0
    cleared_input_tokens: int = 0


def _trigger_reached(messages: list[dict], trigger, size: int | None = None) -> bool:
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
    return (tokens.count(messages) if size is None else size) > trigger


class Scan:
    """Where the tool calls and results of a history are; extended as the history grows."""

    def __init__(self) -> None:
        self.uses: dict[str, tuple[int, int, str]] = {}  # id -> (message, block, tool name)
        self.results: list[tuple[int, int, str]] = []  # (message, block, id), oldest first
        self.length = 0  # messages scanned
        self.done = 0  # results before this one are cleared already (or excluded)

    def extend(self, messages: list[dict]) -> Scan:
        for i in range(self.length, len(messages)):
            for j, b in enumerate(blocks(messages[i])):
                if b.get("type") == "tool_use":
                    self.uses[b["id"]] = (i, j, b["name"])
                elif b.get("type") == "tool_result":
                    self.results.append((i, j, b["tool_use_id"]))
        self.length = len(messages)
        return self


def clear_tool_results(messages: list[dict], keep: int = DEFAULT_KEEP, *,
                       trigger: int | dict | None = None, placeholder: str = PLACEHOLDER,
                       exclude_tools: Iterable[str] = (), clear_at_least: int | None = None,
                       clear_inputs: bool | Iterable[str] = False,
                       scan: Scan | None = None, size: int | None = None,
                       check: bool = True) -> ClearedHistory:
    """Replace the content of all but the newest `keep` tool results with `placeholder`.

    A result already shorter than the placeholder is left alone. The input must be a
    valid history (`validate`); a malformed one raises HistoryError instead of being
    silently edited.

    Only when the history is over `trigger` tokens (None: always), and only if at least
    `clear_at_least` tokens would be freed. Never mutates `messages`; the result is a new
    list whose `cleared_tool_uses` and `cleared_input_tokens` say what was done. (`scan`
    and `size`, the token count, let a caller that knows them skip working them out.)
    """
    if keep < 0:
        raise ValueError(f"keep must be 0 or more, got {keep}")
    if check:
        validate(messages)
    out = ClearedHistory(messages)
    if not _trigger_reached(messages, trigger, size):
        return out
    scan = (scan or Scan()).extend(messages)
    excluded = set(exclude_tools)
    inputs = clear_inputs if isinstance(clear_inputs, bool) else set(clear_inputs)
    freed, cleared = 0, 0
    edits: dict[int, dict[int, dict]] = {}  # message -> block -> new block
    old = max(0, len(scan.results) - keep)
    for i, j, tid in scan.results[scan.done:old]:
        use = scan.uses.get(tid)
        name = use[2] if use else None
        block = blocks(messages[i])[j]
        if name in excluded or block.get("content") == placeholder:
            continue
        new = {k: v for k, v in block.items() if k != "is_error"} | {"content": placeholder}
        saved = tokens.count(block) - tokens.count(new)
        if saved <= 0:  # shorter than the placeholder: clearing would only cost tokens
            continue
        freed += saved
        cleared += 1
        edits.setdefault(i, {})[j] = new
        if use and (inputs is True or (inputs and name in inputs)):
            ui, uj, _ = use
            tool_use = edits.get(ui, {}).get(uj) or blocks(messages[ui])[uj]
            if tool_use.get("input"):
                freed += tokens.count(tool_use) - tokens.count({**tool_use, "input": {}})
                edits.setdefault(ui, {})[uj] = {**tool_use, "input": {}}
    if clear_at_least is not None and freed < clear_at_least:
        return out
    scan.done = max(scan.done, old)
    for i, changed in edits.items():
        bs = blocks(messages[i])
        out[i] = {**messages[i], "content": [changed.get(j, b) for j, b in enumerate(bs)]}
    out.cleared_tool_uses, out.cleared_input_tokens = cleared, freed
    return out


class Clearing:
    """`clear_tool_results` as a strategy for `run_agent`, recording what it cleared.

    It remembers where the results of the history it returned last are, so when the loop
    only appended to that history, just the new messages are looked at.
    """

    def __init__(self, keep: int = DEFAULT_KEEP, trigger: int | dict | None = None, **options):
        self.keep, self.trigger, self.options = keep, trigger, options
        self.event: str | None = None
        self.total_cleared = 0
        self._scan, self._scan_of = Scan(), []
        self._size = tokens.Running()

    def __call__(self, messages: list[dict]) -> list[dict]:
        grew = tokens.extends(messages, self._scan_of)
        scan = self._scan if grew else Scan()
        if grew:  # only the new part can be malformed; look there, name it in the whole
            if not is_valid(messages[safe_start(messages, max(0, len(self._scan_of) - 1)):]):
                validate(messages)
        else:
            validate(messages)
        size = self._size.of(messages) if isinstance(self.trigger, int) else None
        out = clear_tool_results(messages, self.keep, trigger=self.trigger, scan=scan,
                                 size=size, check=False, **self.options)
        self._scan, self._scan_of = scan, out
        self.total_cleared += out.cleared_tool_uses
        self.event = (f"cleared {out.cleared_tool_uses} results (-{out.cleared_input_tokens} "
                      "tokens)" if out.cleared_tool_uses else "")  # "": nothing to report
        return out

    def __repr__(self) -> str:
        return f"Clearing(keep={self.keep}, trigger={self.trigger})"
