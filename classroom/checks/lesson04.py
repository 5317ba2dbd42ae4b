"""Checks for lesson 4's exercises: ex4.empty_not_delete, ex4.clear_old_results, ex4.freed_tokens.

Each check runs the learner's function on the same deterministic agent histories (single
and parallel tool calls, error results, text turns, results whose content is a list of
blocks, results cleared earlier, and a real audit history from the offline model) and
judges the output by the API's own rules (`agentlib.messages.validate`) and by the
reference `agentlib.context.clear.clear_tool_results`. Known wrong answers fail on
purpose: deleting a result instead of emptying it fails the validity check (the 400),
clearing the newest results instead of the oldest fails the keep check, and changing the
input fails the purity check (tests/test_lesson04_checks.py proves each).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from functools import lru_cache

from agentlib.context.clear import PLACEHOLDER as PLACEHOLDER_TEXT
from agentlib.messages import (
    HistoryError,
    blocks,
    copy_history,
    validate,
)
from classroom.grading import own_work, register, seed
from coursekit.histories import agent_history

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex4", "agentlib.context.clear", "agentlib.context.batch")

# ---------------------------------------------------------------- the histories


# Deterministic agent histories (coursekit.histories) with results of a few to 400 lines,
# some as text blocks, some errors; single-call ones and ones with parallel calls.
SINGLE = [agent_history(seed(number), steps, parallel=1, lines=(2, 12), variety=True)
          for number, steps in [(1, 2), (2, 5), (3, 9), (4, 14)]]
PARALLEL = [agent_history(seed(number), steps, parallel=3, lines=(2, 12), variety=True)
            for number, steps in [(11, 3), (12, 6), (13, 10)]]


@lru_cache(maxsize=1)
def _audit_history() -> list[dict]:
    """A real history: the offline course model auditing five configs (computed once)."""
    from agentlib.loop import run_agent
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex4-") as root:
        return run_agent(connect(offline=True), workloads.audit(5, seed=seed(4), root=root)).history


def _histories(parallel: bool | None = None) -> list[list[dict]]:
    """The test histories: single-call ones (with the real audit and a half-cleared copy of
    it), parallel-call ones, or (None) all of them."""
    from agentlib.context.clear import clear_tool_results

    audit = _audit_history()
    single = [*SINGLE, audit, list(clear_tool_results(audit, keep=4))]
    if parallel is None:
        return single + PARALLEL
    return PARALLEL if parallel else single


def result_ids(messages: list[dict]) -> list[str]:
    """The tool_use_id of every tool_result block, oldest first."""
    return [b["tool_use_id"] for m in messages for b in blocks(m)
            if b.get("type") == "tool_result"]


def _name(history: list[dict]) -> str:
    for number, h in enumerate(_histories()):
        if h == history:
            return (f"test history #{number} ({len(history)} messages, "
                    f"{len(result_ids(history))} tool results)")
    return f"a test history ({len(history)} messages)"


def _call(fn: Callable, history: list[dict], *args) -> list[dict]:
    """Call the learner's function on a copy, so a mutating answer cannot spoil the data."""
    out = fn(copy_history(history), *args)
    assert isinstance(out, list), f"should return a list of messages, got {type(out).__name__}"
    return out


def _api_check(out: list[dict], call: str, history: list[dict]) -> None:
    try:
        validate(out)
    except HistoryError as e:
        raise AssertionError(f"{call} on {_name(history)} returned a history the API rejects "
                             f"with 400: {e.api_message}") from None


def _results(messages: list[dict]) -> list[tuple[int, int, dict]]:
    """(message index, block index, block) of every tool_result, oldest first."""
    return [(i, j, b) for i, m in enumerate(messages) for j, b in enumerate(blocks(m))
            if b.get("type") == "tool_result"]


def _same_block(a: dict, b: dict) -> bool:
    """Equal blocks, not minding `is_error` (a cleared error result may drop or keep it)."""
    return {k: v for k, v in a.items() if k != "is_error"} == \
        {k: v for k, v in b.items() if k != "is_error"}


def _same_history(got: list[dict], want: list[dict]) -> bool:
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        gb, wb = blocks(g), blocks(w)
        if g.get("role") != w.get("role") or len(gb) != len(wb):
            return False
        if not all(_same_block(x, y) for x, y in zip(gb, wb, strict=True)):
            return False
    return True


def _preview(block: dict) -> str:
    content = block.get("content")
    text = content if isinstance(content, str) else str(content)
    text = " ".join(text.split())
    return repr(text if len(text) <= 60 else text[:59] + "…")


# ---------------------------------------------------------------- ex4.empty_not_delete

EMPTY_HINT = ("copy the list and the one message you change; in it, replace the block with "
              "{**block, 'content': placeholder}: same type, same tool_use_id")


def _empty_cases() -> Iterator[tuple[list[dict], str]]:
    for history in _histories():
        for tool_use_id in result_ids(history):
            yield history, tool_use_id


@register("ex4.empty_not_delete", "the history stays valid: the block is emptied, not deleted",
          hint="a tool_result may not disappear while its tool_use stays (that is the 400): "
               "keep the block and change only its content", needs=("empty_result",))
def _empty_valid(ns: dict) -> None:
    for history, tool_use_id in _empty_cases():
        out = _call(ns["empty_result"], history, tool_use_id, PLACEHOLDER_TEXT)
        _api_check(out, f"empty_result(messages, {tool_use_id!r}, placeholder)", history)


@register("ex4.empty_not_delete", "the result keeps its block and id; its content is the "
          "placeholder", hint=EMPTY_HINT, needs=("empty_result",))
def _empty_block(ns: dict) -> None:
    for history, tool_use_id in _empty_cases():
        out = _call(ns["empty_result"], history, tool_use_id, PLACEHOLDER_TEXT)
        where = f"empty_result(messages, {tool_use_id!r}, placeholder) on {_name(history)}"
        found = [b for _, _, b in _results(out) if b.get("tool_use_id") == tool_use_id]
        assert found, (f"{where}: the tool_result for {tool_use_id} is gone; keep the block "
                       "(type 'tool_result', the same tool_use_id) and replace its content")
        assert found[0].get("content") == PLACEHOLDER_TEXT, (
            f"{where}: that result's content is {_preview(found[0])}; it should be exactly "
            f"the placeholder {PLACEHOLDER_TEXT!r}")


@register("ex4.empty_not_delete", "every other message and block is unchanged",
          hint="change one block only: the tool_result whose tool_use_id matches",
          needs=("empty_result",))
def _empty_rest(ns: dict) -> None:
    for history, tool_use_id in _empty_cases():
        out = _call(ns["empty_result"], history, tool_use_id, PLACEHOLDER_TEXT)
        where = f"empty_result(messages, {tool_use_id!r}, placeholder) on {_name(history)}"
        assert len(out) == len(history), (f"{where} returned {len(out)} messages; the history "
                                          f"has {len(history)} and none should go")
        for i, (got, want) in enumerate(zip(out, history, strict=True)):
            gb, wb = blocks(got), blocks(want)
            assert got.get("role") == want.get("role") and len(gb) == len(wb), (
                f"{where}: message {i} changed its role or number of blocks")
            for j, (g, w) in enumerate(zip(gb, wb, strict=True)):
                if w.get("type") == "tool_result" and w.get("tool_use_id") == tool_use_id:
                    continue
                assert _same_block(g, w), (f"{where}: block {j} of message {i} changed, but "
                                           f"only the result of {tool_use_id} should")


@register("ex4.empty_not_delete", "does not change its input",
          hint="build new dicts ({**message, 'content': new_list}) instead of assigning into "
               "the ones you were given", needs=("empty_result",))
def _empty_pure(ns: dict) -> None:
    for history, tool_use_id in _empty_cases():
        data = copy_history(history)
        ns["empty_result"](data, tool_use_id, PLACEHOLDER_TEXT)
        assert data == history, (f"empty_result(messages, {tool_use_id!r}, placeholder) on "
                                 f"{_name(history)} changed the list it was given")


# ---------------------------------------------------------------- ex4.clear_old_results

CLEAR_HINT = ("collect the tool_use_id of every tool_result, oldest first; empty all but the "
              "last `keep` of them (ids[:len(ids) - keep], not ids[:-keep], which is empty "
              "for keep=0)")


def _reference(history: list[dict], keep: int) -> list[dict]:
    from agentlib.context.clear import clear_tool_results

    return list(clear_tool_results(history, keep))


def _clear_cases(histories: list[list[dict]], low: int = 0) -> Iterator[tuple[list, int]]:
    for history in histories:
        for keep in range(low, len(result_ids(history)) + 2):
            yield history, keep


def _describe(out: list[dict], history: list[dict], keep: int) -> str:
    """Which results the answer cleared and which it should have, by position."""
    ids = result_ids(history)
    want = set(range(max(0, len(ids) - keep)))
    got_blocks = {b.get("tool_use_id"): b for _, _, b in _results(out)}
    got = {n for n, tid in enumerate(ids)
           if got_blocks.get(tid, {}).get("content") == PLACEHOLDER_TEXT}
    said = (f"it cleared results {sorted(got)} (oldest is 0) of {len(ids)}" if got
            else f"it cleared none of the {len(ids)} results (oldest is 0)")
    return said + (f"; expected {sorted(want)}" if want else "; expected none cleared")


@register("ex4.clear_old_results", "every result is a history the API accepts",
          hint="empty old results (a placeholder as content); never delete a block or a "
               "message", needs=("clear_old_results",))
def _clear_valid(ns: dict) -> None:
    for history, keep in _clear_cases(_histories()):
        out = _call(ns["clear_old_results"], history, keep)
        _api_check(out, f"clear_old_results(messages, keep={keep})", history)


@register("ex4.clear_old_results", "clears the oldest results and keeps the newest `keep`",
          hint=CLEAR_HINT, needs=("clear_old_results",))
def _clear_oldest(ns: dict) -> None:
    for history, keep in _clear_cases(_histories(parallel=False)):
        out = _call(ns["clear_old_results"], history, keep)
        assert _same_history(out, _reference(history, keep)), (
            f"clear_old_results(messages, keep={keep}) on {_name(history)}: "
            f"{_describe(out, history, keep)}, with everything else unchanged")


@register("ex4.clear_old_results", "keep counts tool results, not messages (parallel calls)",
          hint="one message can answer several parallel calls: count tool_result blocks",
          needs=("clear_old_results",))
def _clear_parallel(ns: dict) -> None:
    for history, keep in _clear_cases(_histories(parallel=True), low=1):
        out = _call(ns["clear_old_results"], history, keep)
        assert _same_history(out, _reference(history, keep)), (
            f"clear_old_results(messages, keep={keep}) on {_name(history)}, which has "
            f"parallel calls: {_describe(out, history, keep)}")


@register("ex4.clear_old_results", "does not change its input",
          hint="return a new list of new messages; never assign into the ones you were given",
          needs=("clear_old_results",))
def _clear_pure(ns: dict) -> None:
    for history, keep in _clear_cases(_histories()):
        data = copy_history(history)
        ns["clear_old_results"](data, keep)
        assert data == history, (f"clear_old_results(messages, keep={keep}) on "
                                 f"{_name(history)} changed the list it was given")


# ---------------------------------------------------------------- ex4.freed_tokens

FREED_HINT = ("tokens.count(messages) - tokens.count(clear_old_results(messages, keep)): "
              "exact tokens, before minus after, so the placeholder's own tokens count")


def _freed_reference(history: list[dict], keep: int, clear_at_least: int | None = None) -> int:
    from agentlib.context.clear import clear_tool_results

    return clear_tool_results(history, keep, clear_at_least=clear_at_least).cleared_input_tokens


def _freed(ns: dict, history: list[dict], keep: int, clear_at_least: int | None = None):
    got = ns["freed_tokens"](copy_history(history), keep, clear_at_least)
    assert isinstance(got, int) and not isinstance(got, bool), (
        f"freed_tokens(messages, {keep}, {clear_at_least}) should return an int number of "
        f"tokens, got {type(got).__name__} {got!r}")
    return got


@register("ex4.freed_tokens", "counts the tokens a clearing frees: before minus after",
          hint=FREED_HINT, needs=("freed_tokens",))
def _freed_count(ns: dict) -> None:
    for history, keep in _clear_cases(_histories()):
        want = _freed_reference(history, keep)
        if not want:
            continue
        got = _freed(ns, history, keep)
        assert got == want, (f"freed_tokens(messages, keep={keep}) on {_name(history)} is "
                             f"{got}; clearing frees exactly {want} tokens (tokens.count of "
                             "the history before, minus after)")


@register("ex4.freed_tokens", "nothing to clear frees 0, also when results were cleared before",
          hint="a result that already holds the placeholder frees nothing the second time",
          needs=("freed_tokens",))
def _freed_nothing(ns: dict) -> None:
    from agentlib.context.clear import clear_tool_results

    for history in _histories():
        n = len(result_ids(history))
        for keep in (n, n + 3):
            got = _freed(ns, history, keep)
            assert got == 0, (f"freed_tokens(messages, keep={keep}) on {_name(history)} is "
                              f"{got}; with {n} results and keep={keep} nothing is cleared")
        for keep in range(n):
            cleared = list(clear_tool_results(history, keep))
            got = _freed(ns, cleared, keep)
            assert got == 0, (f"freed_tokens(cleared, keep={keep}) on {_name(history)}, "
                              f"already cleared with the same keep, is {got}; clearing it "
                              "again frees nothing")


@register("ex4.freed_tokens", "returns 0 when less than clear_at_least would be freed; "
          "exactly clear_at_least is enough",
          hint="if clear_at_least is not None and freed < clear_at_least: return 0",
          needs=("freed_tokens",))
def _freed_at_least(ns: dict) -> None:
    tried = 0
    for history, keep in _clear_cases(_histories()):
        full = _freed_reference(history, keep)
        if not full:
            continue
        for least in (full - 1, full, full + 1, 10 * full):
            want = _freed_reference(history, keep, least)
            got = _freed(ns, history, keep, least)
            assert got == want, (
                f"freed_tokens(messages, keep={keep}, clear_at_least={least}) on "
                f"{_name(history)} is {got}; clearing would free {full} tokens, so the "
                f"answer is {want}" + (" (skipped: less than clear_at_least)" if not want
                                       else " (at least clear_at_least: it goes ahead)"))
            tried += 1
    assert tried, "no test case (a bug in the check)"


@register("ex4.freed_tokens", "does not change its input",
          hint="count on a cleared copy; never edit the history you were given",
          needs=("freed_tokens",))
def _freed_pure(ns: dict) -> None:
    for history, keep in _clear_cases(_histories()):
        data = copy_history(history)
        ns["freed_tokens"](data, keep, None)
        assert data == history, (f"freed_tokens(messages, keep={keep}) on {_name(history)} "
                                 "changed the list it was given")
