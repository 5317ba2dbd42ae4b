"""Lesson 2's checks pass correct answers and fail the known wrong ones.

Each exercise is graded against namespaces holding a correct implementation and
implementations that are wrong in one known way; the check aimed at that mistake must
fail (and, for a half-right answer, the others must still pass).
"""

import json
from pathlib import Path

import pytest
from checktools import all_pass, statuses

from agentlib.context import truncate
from agentlib.messages import blocks, starts_with_tool_result, user
from classroom.checks import lesson02
from classroom.grading import CHECKS, run_checks

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ["ex2.find_split", "ex2.safe_truncate", "ex2.pin_task"]




def failed(exercise: str, **namespace) -> set[str]:
    return {title for title, status in statuses(exercise, **namespace).items()
            if status != "pass"}




# ---------------------------------------------------------------- correct answers


def find_split(messages):
    for i, message in enumerate(messages):
        before = blocks(messages[i - 1]) if i > 0 else []
        called = {b["id"] for b in before if b["type"] == "tool_use"}
        if any(b["type"] == "tool_result" and b["tool_use_id"] not in called
               for b in blocks(message)):
            return i
    return None


def safe_truncate(messages, keep):
    return truncate(messages, keep, pin_task=False, marker=False)


def pin_task(messages, keep):
    return truncate(messages, keep)


def pin_task_without_marker(messages, keep):
    return truncate(messages, keep, marker=False)


def test_every_exercise_is_registered_and_named_in_the_solutions_notebook():
    assert all(name in CHECKS for name in EXERCISES)
    nb = json.loads((ROOT / "solutions/02_truncation_and_the_400.ipynb").read_text("utf-8"))
    assert nb["metadata"]["agentlib"]["exercises"] == EXERCISES


def test_histories_are_valid_and_varied():
    from agentlib.messages import validate
    for history in lesson02.HISTORIES:
        validate(history)
    uses = [len([b for b in blocks(m) if b["type"] == "tool_use"])
            for h in lesson02.HISTORIES for m in h]
    assert max(uses) >= 2  # parallel calls
    assert any(b.get("is_error") for h in lesson02.HISTORIES for m in h for b in blocks(m))
    assert any(m["role"] == "user" and not starts_with_tool_result(m)
               for h in lesson02.HISTORIES for m in h[1:])  # a user text turn after the task
    assert {h[-1]["role"] for h in lesson02.HISTORIES} == {"user", "assistant"}


@pytest.mark.parametrize("exercise, namespace", [
    ("ex2.find_split", {"find_split": find_split}),
    ("ex2.safe_truncate", {"safe_truncate": safe_truncate}),
    ("ex2.pin_task", {"pin_task": pin_task}),
    ("ex2.pin_task", {"pin_task": pin_task_without_marker}),
])
def test_correct_answers_pass(exercise, namespace):
    assert all_pass(exercise, **namespace), statuses(exercise, **namespace)


# ---------------------------------------------------------------- ex2.find_split


@pytest.mark.parametrize("constant", [0, 1, None])
def test_a_constant_find_split_fails_every_check_that_asks_for_a_split(constant):
    """No check that expects a split passes a function that ignores its input: the orphan
    at the top is also asked for with the task kept in front (message 1)."""
    titles = {c.title for c in CHECKS["ex2.find_split"]}
    if constant is None:  # the answer where nothing is split
        titles.discard("returns None when no pair is split")
    assert failed("ex2.find_split", find_split=lambda messages: constant) == titles
    results = run_checks("ex2.find_split", {"find_split": lambda messages: constant})
    top = results[0]
    assert top.check == "finds the orphan a naive cut leaves at the top" and top.status == "fail"


def test_a_constant_find_split_fails_with_drawn_inputs(monkeypatch):
    import importlib

    from classroom import grading
    public = lesson02.HISTORIES
    monkeypatch.setattr(grading, "_SECRET", 123456789)
    importlib.reload(lesson02)  # the histories are drawn when the checks are loaded
    try:
        assert lesson02.HISTORIES != public
        results = run_checks("ex2.find_split", {"find_split": lambda messages: 0})
        assert results[0].status == "fail", results[0]
        assert all_pass("ex2.find_split", find_split=find_split)
    finally:
        monkeypatch.setattr(grading, "_SECRET", None)
        importlib.reload(lesson02)


def test_find_split_that_only_looks_at_the_first_message_fails():
    def first_only(messages):
        return 0 if messages and starts_with_tool_result(messages[0]) else None
    assert failed("ex2.find_split", find_split=first_only) == {
        "finds the orphan a naive cut leaves at the top",
        "finds a split in the middle of a history"}


def test_find_split_that_accepts_a_call_in_any_earlier_message_fails_the_middle_check():
    def any_earlier(messages):
        called = set()
        for i, message in enumerate(messages):
            if any(b["type"] == "tool_result" and b["tool_use_id"] not in called
                   for b in blocks(message)):
                return i
            called |= {b["id"] for b in blocks(message) if b["type"] == "tool_use"}
        return None
    assert failed("ex2.find_split", find_split=any_earlier) == {
        "finds a split in the middle of a history"}


def test_find_split_returning_false_for_no_split_fails():
    def false_not_none(messages):
        found = find_split(messages)
        return False if found is None else found
    assert failed("ex2.find_split", find_split=false_not_none) == {
        "returns None when no pair is split"}


# ---------------------------------------------------------------- ex2.safe_truncate


def test_naive_slice_fails_the_pair_check():
    result = statuses("ex2.safe_truncate", safe_truncate=lambda m, k: m[-k:])
    assert result["every result is a history the API accepts"] == "fail"
    assert result["keeps the newest messages, in order"] == "pass"


def test_naive_slice_reports_the_api_message():
    results = run_checks("ex2.safe_truncate", {"safe_truncate": lambda m, k: m[-k:]})
    detail = next(r.detail for r in results if r.status == "fail")
    assert "unexpected `tool_use_id` found in `tool_result` blocks" in detail
    assert "keep=" in detail


def test_keeping_everything_fails_the_tightness_check():
    assert failed("ex2.safe_truncate", safe_truncate=lambda m, k: list(m)) == {
        "cuts as close to keep as a whole pair allows"}


def test_moving_the_cut_forward_keeps_too_few_messages():
    def forward(messages, keep):
        start = max(0, len(messages) - keep)
        while start < len(messages) - 1 and starts_with_tool_result(messages[start]):
            start += 1
        return messages[start:]
    bad = failed("ex2.safe_truncate", safe_truncate=forward)
    assert {"keeps the newest messages, in order",
            "cuts as close to keep as a whole pair allows"} <= bad


def test_mutating_the_input_fails_the_purity_check():
    def deletes_in_place(messages, keep):
        start = lesson02.reference_start(messages, keep)
        del messages[:start]
        return messages
    assert failed("ex2.safe_truncate", safe_truncate=deletes_in_place) == {
        "does not change its input"}


# ---------------------------------------------------------------- ex2.pin_task


def test_dropping_the_task_fails_the_pin_check():
    result = statuses("ex2.pin_task", pin_task=safe_truncate)
    assert result["the task stays the first message"] == "fail"
    assert result["every result is a history the API accepts"] == "pass"


def test_pinned_naive_slice_fails_the_pair_check():
    def pinned_naive(messages, keep):
        if len(messages) <= keep + 1:
            return list(messages)
        return messages[:1] + messages[-keep:]
    result = statuses("ex2.pin_task", pin_task=pinned_naive)
    assert result["the task stays the first message"] == "pass"
    assert result["every result is a history the API accepts"] == "fail"


def test_two_markers_fail_the_shape_check():
    def two_markers(messages, keep):
        out = truncate(messages, keep)
        if len(out) < len(messages) or out != messages:
            out = out[:1] + [user("[Earlier turns removed]"), user("[really]")] + out[2:]
        return out
    assert "after the task: an optional marker, then the newest messages" in failed(
        "ex2.pin_task", pin_task=two_markers)


def test_a_marker_when_nothing_was_dropped_fails_the_shape_check():
    def always_marker(messages, keep):
        out = truncate(messages, keep, marker=False)
        return out[:1] + [user("[Earlier turns removed: 0 messages]")] + out[1:]
    assert failed("ex2.pin_task", pin_task=always_marker) == {
        "after the task: an optional marker, then the newest messages"}


# ---------------------------------------------------------------- how the grader reports


def test_unattempted_exercises_are_todo_and_missing_functions_are_missing():
    def todo(*args):
        raise NotImplementedError
    for exercise, name in zip(EXERCISES, ["find_split", "safe_truncate", "pin_task"],
                              strict=True):
        assert set(statuses(exercise, **{name: todo}).values()) == {"todo"}
        assert set(statuses(exercise).values()) == {"missing"}


def test_a_crashing_answer_is_an_error_not_an_exception():
    assert set(statuses("ex2.pin_task", pin_task=lambda m, k: 1 / 0).values()) == {"error"}
    result = statuses("ex2.safe_truncate", safe_truncate=lambda m, k: None)
    assert result.pop("does not change its input") == "pass"
    assert set(result.values()) == {"fail"}
