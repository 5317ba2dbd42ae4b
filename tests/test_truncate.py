"""Truncation: any valid history in, a valid history out (agentlib.context.truncate).

The property tests generate agent histories with hypothesis (a task, text turns, single
and parallel tool calls, error results, string and block content) and cut them at every
kind of `keep`; the examples pin down the documented behaviour.
"""


import pytest
from histories import agent_histories
from hypothesis import given
from hypothesis import strategies as st

from agentlib.context import SlidingWindow, truncate
from agentlib.context.truncate import TRUNCATION_MARK, safe_start
from agentlib.messages import (
    HistoryError,
    assistant,
    copy_history,
    is_valid,
    starts_with_tool_result,
    tool_result,
    tool_use,
    user,
    validate,
)


def is_marker(message: dict) -> bool:
    content = message["content"]
    return (message["role"] == "user" and isinstance(content, list) and len(content) == 1
            and content[0]["type"] == "text" and content[0]["text"].startswith(TRUNCATION_MARK))


def split_output(out: list[dict], pin_task: bool) -> tuple[list[dict], list[dict]]:
    """(the pinned task and the marker, the kept tail) of a truncated history."""
    head = out[:1] if pin_task else []
    if len(out) > len(head) and is_marker(out[len(head)]):
        head = out[:len(head) + 1]
    return head, out[len(head):]


KEEP = st.integers(1, 40)


# ---------------------------------------------------------------- properties


@given(agent_histories(), KEEP, st.booleans(), st.booleans())
def test_any_valid_history_in_a_valid_history_out(messages, keep, pin, mark):
    validate(messages)
    out = truncate(messages, keep, pin_task=pin, marker=mark)
    validate(out)


@given(agent_histories(), KEEP, st.booleans(), st.booleans())
def test_newest_kept_task_pinned_input_untouched(messages, keep, pin, mark):
    before = copy_history(messages)
    out = truncate(messages, keep, pin_task=pin, marker=mark)
    assert messages == before  # not mutated
    assert out is not messages  # a new list
    assert out[-1] == messages[-1]  # the newest message is kept
    if pin:
        assert out[0] == messages[0]  # the task stays first


@given(agent_histories(), KEEP, st.booleans(), st.booleans())
def test_output_is_the_task_a_marker_and_a_tail_of_the_input(messages, keep, pin, mark):
    out = truncate(messages, keep, pin_task=pin, marker=mark)
    head, tail = split_output(out, pin)
    assert tail == messages[len(messages) - len(tail):]  # a contiguous run of the newest
    markers = [m for m in head if is_marker(m)]
    assert len(markers) <= 1 and (mark or not markers)
    if out == messages:
        return  # nothing dropped
    assert len(head) == pin + mark  # the task (if pinned) and the marker (if asked for)
    assert len(tail) >= keep  # at least keep, a few more if a pair needs it
    assert not starts_with_tool_result(tail[0])
    # and no more than needed: one message fewer would open with a tool_result
    assert len(tail) == keep or starts_with_tool_result(tail[len(tail) - keep])


@given(agent_histories(), KEEP)
def test_the_marker_counts_the_dropped_messages(messages, keep):
    out = truncate(messages, keep)
    if out == messages:
        return
    dropped = len(messages) - 1 - (len(out) - 2)
    assert out[1]["content"][0]["text"] == (f"{TRUNCATION_MARK}: {dropped} messages are no "
                                           "longer shown.]")


@given(agent_histories(), KEEP)
def test_sliding_window_is_truncate_as_a_strategy(messages, keep):
    strategy = SlidingWindow(keep, marker=False)
    assert strategy(messages) == truncate(messages, keep, marker=False)
    assert repr(strategy) == f"SlidingWindow(keep={keep})"


@given(agent_histories(), KEEP)
def test_the_naive_slice_is_valid_exactly_when_it_opens_without_a_result(messages, keep):
    cut = messages[-keep:]
    assert is_valid(cut) == (not starts_with_tool_result(cut[0]))


# ---------------------------------------------------------------- examples

TASK = user("Audit the configs.")
CALL = assistant("Listing.", tool_use("toolu_1", "list_files"))
RESULT = user(tool_result("toolu_1", "a.conf\nb.conf"))
CALL2 = assistant("Reading both.", tool_use("toolu_2", "read_file", {"path": "a.conf"}),
                  tool_use("toolu_3", "read_file", {"path": "b.conf"}))
RESULT2 = user(tool_result("toolu_2", "timeout_s = 45"),
               tool_result("toolu_3", "no such file", is_error=True))
ANSWER = assistant("a: 45")
HISTORY = [TASK, CALL, RESULT, CALL2, RESULT2, ANSWER]


def test_naive_cut_between_a_pair_is_the_orphan_400():
    with pytest.raises(HistoryError, match=r"^messages\.0\.content\.0: unexpected `tool_use_id`"):
        validate([RESULT2, ANSWER])  # the cut kept a result and dropped its call
    with pytest.raises(HistoryError, match="toolu_2, toolu_3"):
        validate(HISTORY[-2:])


def test_a_cut_on_a_result_moves_back_to_its_call():
    assert safe_start(HISTORY, 4) == 3
    assert truncate(HISTORY, 2, pin_task=False, marker=False) == [CALL2, RESULT2, ANSWER]


def test_a_cut_on_a_call_stays():
    assert safe_start(HISTORY, 3) == 3
    assert truncate(HISTORY, 3, pin_task=False, marker=False) == [CALL2, RESULT2, ANSWER]


def test_pinned_task_and_marker():
    out = truncate(HISTORY, 2)
    assert out == [TASK, user(f"{TRUNCATION_MARK}: 2 messages are no longer shown.]"), CALL2,
                   RESULT2, ANSWER]
    validate(out)


def test_nothing_to_drop_returns_an_equal_copy():
    for k in (5, 6, 50):
        out = truncate(HISTORY, k)
        assert out == HISTORY and out is not HISTORY


def test_a_malformed_history_is_named_not_cut():
    history = [RESULT, ANSWER]  # a result with no call before it
    with pytest.raises(HistoryError, match="messages.0.content.0: unexpected `tool_use_id`"):
        truncate(history, 1, marker=False)


def test_keep_below_one_is_refused():
    with pytest.raises(ValueError, match="keep must be at least 1 message, got 0"):
        truncate(HISTORY, 0)
    with pytest.raises(ValueError, match="keep must be at least 1 message, got 0"):
        SlidingWindow(0)


def test_empty_history_is_refused():
    with pytest.raises(HistoryError, match="at least one message is required"):
        truncate([], 3)


def test_a_cut_inside_a_merged_turn_stays_valid():
    history = [TASK, assistant(tool_use("toolu_1", "list_files")), assistant("Waiting."),
               RESULT, ANSWER]
    validate(history)  # the API merges the two assistant messages into one turn
    for k in range(1, len(history) + 1):
        for pin in (True, False):
            validate(truncate(history, k, pin_task=pin))
