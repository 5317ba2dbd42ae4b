"""Checks for lesson 2's exercises: ex2.find_split, ex2.safe_truncate, ex2.pin_task.

Each check runs the learner's function on the same deterministic agent histories (text
turns, single and parallel tool calls, error results) and judges the output by the API's
own rules (`agentlib.messages.validate`) and by the reference cut of
`agentlib.context.truncate`. Known wrong answers fail on purpose: the naive
`messages[-n:]` fails the validity check of ex2.safe_truncate, and a cut that drops the
task fails the first check of ex2.pin_task (tests/test_lesson02_checks.py proves both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from agentlib.messages import (
    HistoryError,
    assistant,
    blocks,
    copy_history,
    starts_with_tool_result,
    user,
    validate,
)
from classroom.grading import own_work, register, seed
from coursekit.histories import agent_history

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex2", "agentlib.context.truncate")  # the pair-safe cut and truncation
own_work("ex2", "agentlib.context.textfold:text_cut")  # the text fold's pair-safe cut (found
# by its answers, tests/test_withheld.py)
own_work("ex2.find_split", "agentlib.context.clear:tool_results")  # (a result whose call it
# has not met: an adversarial student's find, tests/hostile.py)
own_work("ex2.find_split", "agentlib.messages:validate", "agentlib.messages:is_valid",
         cells="served")  # the setup cell validates its history

# ---------------------------------------------------------------- the histories


# Deterministic agent histories (coursekit.histories): text turns, single and parallel tool
# calls, error results; half end with the agent's answer, half with a user message. Their
# seeds are the course's own in a learner's kernel, drawn at grading time by the grader.
HISTORIES = [agent_history(seed(number), steps) for number, steps in
             [(1, 3), (2, 6), (3, 9), (4, 12), (5, 16), (6, 20), (7, 8), (8, 14)]]

# ---------------------------------------------------------------- references


def orphan_index(messages: list[dict]) -> int | None:
    """The first message holding a tool_result whose tool_use is not in the message before."""
    for i, message in enumerate(messages):
        before = blocks(messages[i - 1]) if i > 0 else []
        called = {b.get("id") for b in before if b.get("type") == "tool_use"}
        if any(b.get("type") == "tool_result" and b.get("tool_use_id") not in called
               for b in blocks(message)):
            return i
    return None


def reference_start(messages: list[dict], keep: int, pinned: int = 0) -> int:
    """Where a pair-safe cut keeping at least `keep` messages begins."""
    start = max(pinned, len(messages) - keep)
    while 0 < start < len(messages) and starts_with_tool_result(messages[start]):
        start -= 1
    return start


def _cases() -> Iterator[tuple[int, list[dict], int]]:
    """(history number, history, keep) for every history and every useful keep."""
    for number, history in enumerate(HISTORIES):
        for keep in range(1, len(history) + 2):
            yield number, history, keep


def _call(fn: Callable, history: list[dict], *args) -> list[dict]:
    """Call the learner's function on a copy, so a mutating answer cannot spoil the data."""
    out = fn(copy_history(history), *args)
    assert isinstance(out, list), f"should return a list of messages, got {type(out).__name__}"
    return out


def _where(number: int, history: list[dict], keep: int | None = None) -> str:
    k = f", keep={keep}" if keep is not None else ""
    return f"on test history #{number} ({len(history)} messages{k})"


def _n(count: int) -> str:
    return f"{count} message(s)"  # one form, so that the Korean catalog has one template


def _api_check(out: list[dict], where: str, name: str) -> None:
    try:
        validate(out)
    except HistoryError as e:
        raise AssertionError(f"{name} {where} returned a history the API rejects with "
                             f"400: {e.api_message}") from None


# ---------------------------------------------------------------- ex2.find_split

SPLIT_HINT = ("for each message, collect the tool_use ids of the message just before it; "
              "a tool_result naming any other id is the split")


@register("ex2.find_split", "finds the orphan a naive cut leaves at the top",
          hint=SPLIT_HINT, needs=("find_split",))
def _split_at_top(ns: dict) -> None:
    tried = 0
    for number, history in enumerate(HISTORIES):
        for n in range(1, len(history)):
            cut = history[-n:]
            if orphan_index(cut) != 0:
                continue
            got = ns["find_split"](copy_history(cut))
            assert got == 0 and got is not False, (
                f"find_split(history[-{n}:]) {_where(number, history)} returned {got!r}; "
                "its message 0 opens with a tool_result whose tool_use was cut off, so "
                "expected 0")
            tried += 1
    assert tried, "no test case (a bug in the check)"


@register("ex2.find_split", "returns None when no pair is split",
          hint="return None (not 0, not False) after looking at every message",
          needs=("find_split",))
def _no_split(ns: dict) -> None:
    for number, history in enumerate(HISTORIES):
        for n in range(1, len(history) + 1):
            cut = history[-n:]
            if orphan_index(cut) is not None:
                continue
            got = ns["find_split"](copy_history(cut))
            assert got is None, (f"find_split(history[-{n}:]) {_where(number, history)} "
                                 f"returned {got!r}, but every tool_result there follows its "
                                 "tool_use: expected None")


@register("ex2.find_split", "finds a split in the middle of a history",
          hint=SPLIT_HINT + "; look at every message, not only the first, and only at the "
          "message just before it, not any earlier one", needs=("find_split",))
def _split_in_middle(ns: dict) -> None:
    tried = 0
    for number, history in enumerate(HISTORIES):
        for i in range(2, len(history) - 1):
            if history[i]["role"] != "assistant" or not any(
                    b["type"] == "tool_use" for b in blocks(history[i])):
                continue
            broken = history[:i] + history[i + 1:]  # the call deleted, its result kept
            assert orphan_index(broken) == i, "a bug in the check"
            got = ns["find_split"](copy_history(broken))
            assert got == i, (f"find_split {_where(number, history)} with message {i} (an "
                              f"assistant tool_use) deleted returned {got!r}; its result is "
                              f"now message {i} and follows a user message: expected {i}")
            # a text exchange between a call and its results: the call is earlier, but not
            # in the message just before them, which the API requires
            apart = (history[:i + 1] + [user("(a user note)"), assistant("(a reply)")]
                     + history[i + 1:])
            assert orphan_index(apart) == i + 3, "a bug in the check"
            got = ns["find_split"](copy_history(apart))
            assert got == i + 3, (
                f"find_split {_where(number, history)} with a user and an assistant text "
                f"message put between the tool_use in message {i} and its results returned "
                f"{got!r}; the results are now message {i + 3}, and the message just before "
                f"them holds no tool_use: expected {i + 3}")
            tried += 1
    assert tried, "no test case (a bug in the check)"


# ---------------------------------------------------------------- ex2.safe_truncate

TRUNCATE_HINT = ("start at len(messages) - keep; while the message there opens with a "
                 "tool_result, move the start one message back")


@register("ex2.safe_truncate", "every result is a history the API accepts",
          hint=TRUNCATE_HINT, needs=("safe_truncate",))
def _truncate_valid(ns: dict) -> None:
    for number, history, keep in _cases():
        out = _call(ns["safe_truncate"], history, keep)
        _api_check(out, _where(number, history, keep), "safe_truncate")


@register("ex2.safe_truncate", "keeps the newest messages, in order",
          hint="return a slice from the end, messages[start:]",
          needs=("safe_truncate",))
def _truncate_suffix(ns: dict) -> None:
    for number, history, keep in _cases():
        out = _call(ns["safe_truncate"], history, keep)
        where = _where(number, history, keep)
        assert out and out == history[len(history) - len(out):], (
            f"safe_truncate {where} should return the newest messages of the history in "
            f"order (a slice messages[start:]); got {_n(len(out))} that are not")
        assert len(out) >= min(keep, len(history)), (
            f"safe_truncate {where} kept only {_n(len(out))}; keep at least keep")


@register("ex2.safe_truncate", "cuts as close to keep as a whole pair allows",
          hint="move the cut back only while it opens with a tool_result, one message at a time",
          needs=("safe_truncate",))
def _truncate_tight(ns: dict) -> None:
    for number, history, keep in _cases():
        out = _call(ns["safe_truncate"], history, keep)
        want = len(history) - reference_start(history, keep)
        assert len(out) == want, (
            f"safe_truncate {_where(number, history, keep)} kept {_n(len(out))}; "
            f"the smallest valid cut keeps {want} (keep, plus the call whose result "
            "would open the kept part)")


@register("ex2.safe_truncate", "does not change its input",
          hint="build a new list (a slice is one) instead of deleting from messages",
          needs=("safe_truncate",))
def _truncate_pure(ns: dict) -> None:
    for number, history, keep in _cases():
        data = copy_history(history)
        ns["safe_truncate"](data, keep)
        assert data == history, (f"safe_truncate {_where(number, history, keep)} changed "
                                 "the list it was given")


# ---------------------------------------------------------------- ex2.pin_task

PIN_HINT = ("keep messages[0], then (if anything is dropped) an optional marker, then a "
            "pair-safe cut of messages[1:]")


def _is_marker(message: dict) -> bool:
    bs = blocks(message)
    return message.get("role") == "user" and bool(bs) and all(b.get("type") == "text"
                                                              for b in bs)


@register("ex2.pin_task", "the task stays the first message",
          hint=PIN_HINT, needs=("pin_task",))
def _pin_first(ns: dict) -> None:
    for number, history, keep in _cases():
        out = _call(ns["pin_task"], history, keep)
        assert out and out[0] == history[0], (
            f"pin_task {_where(number, history, keep)} lost the task: its first message "
            f"should be the history's first user message, {history[0]['content'][0]['text']!r}")


@register("ex2.pin_task", "every result is a history the API accepts",
          hint="cut the part after the task with your pair-safe rule, not with [-keep:]",
          needs=("pin_task",))
def _pin_valid(ns: dict) -> None:
    for number, history, keep in _cases():
        out = _call(ns["pin_task"], history, keep)
        _api_check(out, _where(number, history, keep), "pin_task")


@register("ex2.pin_task", "after the task: an optional marker, then the newest messages",
          hint=PIN_HINT + "; when nothing needs dropping, return the history unchanged",
          needs=("pin_task",))
def _pin_shape(ns: dict) -> None:
    for number, history, keep in _cases():
        out = _call(ns["pin_task"], history, keep)
        where = _where(number, history, keep)
        start = reference_start(history, keep, pinned=1)
        if start <= 1:
            assert out == history, (f"pin_task {where}: nothing needs dropping, so return the "
                                    f"history unchanged; got {_n(len(out))} that differ from it")
            continue
        rest = out[1:]
        if rest and rest != history[len(history) - len(rest):] and _is_marker(rest[0]):
            rest = rest[1:]  # the optional marker
        assert rest and rest == history[len(history) - len(rest):], (
            f"pin_task {where}: after the task (and at most one marker message) should come "
            "the newest messages of the history, in order")
        assert len(rest) == len(history) - start, (
            f"pin_task {where} kept {_n(len(rest))} after the task; the smallest valid "
            f"cut keeps {len(history) - start}")


@register("ex2.pin_task", "does not change its input",
          hint="build a new list instead of editing messages", needs=("pin_task",))
def _pin_pure(ns: dict) -> None:
    for number, history, keep in _cases():
        data = copy_history(history)
        ns["pin_task"](data, keep)
        assert data == history, (f"pin_task {_where(number, history, keep)} changed the "
                                 "list it was given")
