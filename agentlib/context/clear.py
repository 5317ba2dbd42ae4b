"""Clearing: empty old tool results, keep the blocks and the record that the call happened.

Old results are stale and can be fetched again, so their text can go; the block must stay
(deleting it splits the pair: lesson 02's 400). Units as in the API's own edit
(`clear_tool_uses_20250919`, default: over 100,000 input tokens, keep 3): `keep` counts tool
results, `trigger` and `clear_at_least` count tokens. `batch.py` clears in bigger bites.
"""

from __future__ import annotations

from collections.abc import Iterable

from agentlib import tokens
from agentlib.context import trigger as triggers
from agentlib.context.truncate import safe_start
from agentlib.derived import Derived, extends
from agentlib.messages import blocks, is_valid, result_text, validate

PLACEHOLDER = "[cleared to save context; call the tool again if you need this result]"
DEFAULT_KEEP = 3  # tool uses, the API's default


def is_cleared(block: dict) -> bool:
    """True for a tool_result whose content is a clearing placeholder ("[cleared ...")."""
    return block.get("type") == "tool_result" and \
        result_text(block).lstrip().startswith(PLACEHOLDER[:8])


class ClearedHistory(Derived):
    """A history (a plain list) that also says what clearing did to it."""

    cleared_tool_uses: int = 0
    cleared_input_tokens: int = 0


def tool_results(messages: list[dict], start: int = 0, calls: dict | None = None) -> list:
    """The tool results from message `start` on, oldest first: ((i, j), (ui, uj, tool name)
    of their tool_use, or None). `calls` (id -> (ui, uj, name)) is filled in as it goes."""
    found, calls = [], {} if calls is None else calls
    for i in range(start, len(messages)):
        for j, b in enumerate(blocks(messages[i])):
            if b.get("type") == "tool_use":
                calls[b["id"]] = (i, j, b["name"])
            elif b.get("type") == "tool_result":
                found.append(((i, j), calls.get(b["tool_use_id"])))
    return found


def empty_results(messages: list[dict], targets: Iterable, *, placeholder: str = PLACEHOLDER,
                  clear_at_least: int | None = None, exclude_tools: Iterable[str] = (),
                  clear_tool_inputs: bool | Iterable[str] = False) -> ClearedHistory:
    """Put `placeholder` in place of the results at `targets` (as `tool_results` gives them),
    skipping excluded tools, results cleared already and results shorter than the
    placeholder. If less than `clear_at_least` tokens would be freed: nothing at all."""
    excluded = set(exclude_tools)
    inputs = clear_tool_inputs if isinstance(clear_tool_inputs, bool) else set(clear_tool_inputs)
    edits: dict[int, dict[int, dict]] = {}  # message -> block -> new block
    freed = cleared = 0
    for (i, j), use in targets:
        name, block = use and use[2], blocks(messages[i])[j]
        if name in excluded or block.get("content") == placeholder:
            continue
        emptied = {k: v for k, v in block.items() if k != "is_error"} | {"content": placeholder}
        saved = tokens.count(block) - tokens.count(emptied)
        if saved <= 0:  # clearing would add tokens
            continue
        freed, cleared = freed + saved, cleared + 1
        edits.setdefault(i, {})[j] = emptied
        if use and (inputs is True or (inputs and name in inputs)):  # the call's input too
            call = edits.get(use[0], {}).get(use[1]) or blocks(messages[use[0]])[use[1]]
            if call.get("input"):
                freed += tokens.count(call) - tokens.count({**call, "input": {}})
                edits.setdefault(use[0], {})[use[1]] = {**call, "input": {}}
    if clear_at_least is not None and freed < clear_at_least:
        edits, cleared, freed = {}, 0, 0  # not worth it: nothing at all
    out = ClearedHistory(messages, changed=edits)
    for i, new in edits.items():
        out[i] = {**out[i], "content": [new.get(j, b) for j, b in enumerate(out[i]["content"])]}
    out.cleared_tool_uses, out.cleared_input_tokens = cleared, freed
    return out


def clear_tool_results(messages: list[dict], keep: int = DEFAULT_KEEP, *,
                       trigger: int | dict | None = None, clear_at_least: int | None = None,
                       exclude_tools: Iterable[str] = (),
                       clear_tool_inputs: bool | Iterable[str] = False,
                       placeholder: str = PLACEHOLDER) -> ClearedHistory:
    """Empty all but the newest `keep` tool results, once the history is over `trigger`.
    Never mutates `messages`: returns a new list whose `cleared_tool_uses` and
    `cleared_input_tokens` say what was done. A malformed history raises HistoryError."""
    if keep < 0:
        raise ValueError(f"keep must be 0 or more tool results, got {keep}")
    validate(messages)
    if not triggers.reached(trigger, messages):
        return ClearedHistory(messages)
    results = tool_results(messages)
    old = results[:max(0, len(results) - keep)]  # not [:-keep]: that is [] for keep=0
    return empty_results(messages, old, placeholder=placeholder, clear_at_least=clear_at_least,
                         exclude_tools=exclude_tools, clear_tool_inputs=clear_tool_inputs)


class Clearing:
    """`clear_tool_results` as a strategy for `run_agent(context=[...])`: same arguments,
    same output. State: the results of the history it returned last, so that when the loop
    only appended to it, just the new messages are read (per-step work does not grow)."""

    def __init__(self, keep: int = DEFAULT_KEEP, *, trigger: int | dict | None = None,
                 clear_at_least: int | None = None, **options):
        if keep < 0:
            raise ValueError(f"keep must be 0 or more tool results, got {keep}")
        triggers.parse(trigger)  # a bad trigger fails here, not at the first request
        self.keep, self.trigger, self.clear_at_least = keep, trigger, clear_at_least
        self.options = options  # placeholder, exclude_tools, clear_tool_inputs
        self.event, self.total_cleared = None, 0
        self._last, self._results, self._calls = [], [], {}  # last output, its results, uses
        self._done = 0  # results before this index are cleared already (or excluded)
        self._size = tokens.Running()

    def _follow(self, messages: list[dict]) -> None:
        """Scan only the new part if `messages` grew from the last output, else start over."""
        start = len(self._last) if extends(messages, self._last) else 0
        if start == 0:
            self._results, self._calls, self._done = [], {}, 0
            validate(messages)
        elif not is_valid(messages[safe_start(messages, start - 1):]):
            validate(messages)  # name the fault with its index in the whole history
        self._results += tool_results(messages, start, self._calls)

    def __call__(self, messages: list[dict]) -> list[dict]:
        self._follow(messages)
        size = self._size.of(messages) if isinstance(self.trigger, int) else None
        out = messages  # when nothing is cleared: the same list, not a copy
        if triggers.reached(self.trigger, messages, size=size, uses=len(self._calls)):
            old = self.upto(messages, size)
            cleared = empty_results(messages, self._results[self._done:old],
                                    clear_at_least=self.clear_at_least, **self.options)
            if cleared.cleared_tool_uses or self.clear_at_least is None:
                self._done = old  # (a batch not worth clearing is weighed again next time)
            out = cleared if cleared.cleared_tool_uses else messages
        n = getattr(out, "cleared_tool_uses", 0)
        self.total_cleared, self._last = self.total_cleared + n, out
        self.event = f"cleared {n} results (-{out.cleared_input_tokens} tokens)" if n else ""
        return out

    def upto(self, messages: list[dict], size: int | None) -> int:  # all but the newest `keep`
        return max(self._done, len(self._results) - self.keep)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(keep={self.keep}, trigger={self.trigger})"
