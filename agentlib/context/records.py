"""Drop the call records of results already read, and cache only what stays: the floor's shape.

A cleared result still leaves its record in the history: the `tool_use` block and the
placeholder, about 40 tokens a step that every later request reads and that each clear
writes again. An agent that notes what it found in its replies needs neither (the bill's
floor, `agentlib.cost.floor`, counts no call records). `DropRecords` removes whole pairs,
the `tool_use` and its `tool_result`, of all but the newest `keep` results (keep=1: the
result the model has not read yet), and drops messages left empty (consecutive same-role
messages are merged by the API, so the history stays valid). An agent that keeps its
state in its calls instead loses track and makes a dropped reply again, word for word:
from then on that reply's records stay, cleared as `Clearing` clears them (`exclude`). What is left before the newest
`keep` pairs never changes again: `mark` (use as `run_agent(cache=drop.mark)`) puts a
breakpoint at its end and at the end of the last summary, so each request reads the cache
up to the previous reply's text and writes only the newest text: nothing is written twice.
"""

from __future__ import annotations

import json

from agentlib.context.breakpoints import _before, marked
from agentlib.context.clear import empty_results
from agentlib.messages import SUMMARY_MARK, blocks


def pairs(messages: list[dict]) -> list[tuple[tuple[int, int], tuple[int, int, str] | None]]:
    """((message, block) of each tool_result, (message, block, tool name) of its tool_use
    or None), oldest first: the shape `clear.empty_results` takes."""
    calls, found = {}, []
    for i, m in enumerate(messages):
        for j, b in enumerate(blocks(m)):
            if b.get("type") == "tool_use":
                calls[b["id"]] = (i, j, b["name"])
            elif b.get("type") == "tool_result":
                found.append(((i, j), calls.get(b["tool_use_id"])))
    return found


def call_key(messages: list[dict], use: tuple[int, int, str] | None) -> str | None:
    """A reply's text, tool and input, as one string: the same reply made again (a loop:
    the agent lost track of what it did) has the same key."""
    if use is None:
        return None
    content = blocks(messages[use[0]])
    said = [b.get("text", "") for b in content if b.get("type") == "text"]
    return json.dumps([said, content[use[1]]["name"], content[use[1]].get("input")],
                      sort_keys=True)


def newest_turn(messages: list[dict]) -> int:
    """Where the newest turn starts: the last run of messages of one role (the API merges
    them into one turn)."""
    start = len(messages) - 1
    while start > 0 and messages[start - 1].get("role") == messages[-1].get("role"):
        start -= 1
    return max(start, 0)


def old_pairs(messages: list[dict], keep: int) -> tuple[list, list]:
    """(the pairs of all but the newest `keep` results that may go, those that must stay):
    the results in the newest turn are what the model asked for and has not read, so they
    stay, emptied at most; without them the history would end on the model's own call."""
    found = pairs(messages)
    old, start = found[:max(0, len(found) - keep)], newest_turn(messages)
    return [p for p in old if p[0][0] < start], [p for p in old if p[0][0] >= start]


def drop_records(messages: list[dict], keep: int = 1, *, exclude=()) -> list[dict]:
    """A copy without the tool_use/tool_result pairs of all but the newest `keep` results,
    and without the messages that leaves empty; the calls whose `call_key` is in `exclude`
    keep their records, their results emptied, and so do the results of the newest turn
    (keep=0 empties them: never drops them). Never mutates `messages`."""
    if not isinstance(keep, int) or keep < 0:
        raise ValueError(f"keep must be 0 or more tool results, got {keep!r}")
    old, newest = old_pairs(messages, keep)
    if not old and not newest:
        return messages
    stay = newest + [p for p in old if p[1] is None or call_key(messages, p[1]) in exclude]
    if stay:
        messages = empty_results(messages, stay)
    gone: dict[int, set[int]] = {}
    for (i, j), use in old:
        if use is not None and call_key(messages, use) not in exclude:
            gone.setdefault(i, set()).add(j)
            gone.setdefault(use[0], set()).add(use[1])
    out = []
    for i, m in enumerate(messages):
        content = [b for j, b in enumerate(blocks(m)) if j not in gone.get(i, ())]
        if i not in gone:
            out.append(m)
        elif content:
            out.append({**m, "content": content})
    return out


def is_summary(message: dict) -> bool:
    """A user message that a compaction left (it opens with `SUMMARY_MARK`)."""
    return message["role"] == "user" and \
        (blocks(message) or [{}])[0].get("text", "").startswith(SUMMARY_MARK)


def text_end(messages: list[dict], keep: int = 1) -> tuple[int, int] | None:
    """(message, block) of the last block before the call of the oldest of the newest
    `keep` results (the end of what will not change); the newest block if there is none;
    None if nothing can carry a breakpoint."""
    live = pairs(messages)[-keep:] if keep else []
    if live:
        (i, j), use = live[0]
        return _before(messages, *(use[:2] if use else (i, j)))
    return _before(messages, len(messages), 0)


class DropRecords:
    """`drop_records` as a strategy for `run_agent(context=[...])`, with its breakpoint
    placer `mark` for `run_agent(cache=...)`. State: the calls it dropped, and `exclude`,
    those the agent made again."""

    def __init__(self, keep: int = 1):
        if not isinstance(keep, int) or keep < 0:
            raise ValueError(f"keep must be 0 or more tool results, got {keep!r}")
        self.keep, self.event, self.total_dropped = keep, "", 0
        self.exclude: set[str] = set()
        self._dropped: set[str] = set()

    def __call__(self, messages: list[dict]) -> list[dict]:
        found = pairs(messages)
        for _, use in found[len(found) - self.keep:] if self.keep else []:
            if call_key(messages, use) in self._dropped:  # made again: it needed the record
                self.exclude.add(call_key(messages, use))
        old, _ = old_pairs(messages, self.keep)
        keys = {call_key(messages, use) for _, use in old if use} - self.exclude
        out = drop_records(messages, self.keep, exclude=self.exclude)
        n = len(found) - len(pairs(out))
        self._dropped |= keys
        self.total_dropped += n
        self.event = f"dropped {n} call records" if n else ""
        return out

    def mark(self, messages: list[dict]) -> list[dict]:
        """A copy with breakpoints at the end of the stable part and of the last summary."""
        end = text_end(messages, self.keep) if messages else None
        places = {end} if end else set()
        folded = [i for i, m in enumerate(messages) if is_summary(m)]
        if folded:  # a fold keeps the summaries before it: their prefix stays cached
            places.add((folded[-1], len(blocks(messages[folded[-1]])) - 1))
        return marked(messages, places)

    def __repr__(self) -> str:
        return f"DropRecords(keep={self.keep})"
