"""Lesson 4's checks pass correct answers and fail the known wrong ones.

Each exercise is graded against namespaces holding a correct implementation and
implementations that are wrong in one known way; the check aimed at that mistake must
fail (and, where the answer is otherwise right, the other checks must still pass).
"""

import json
from pathlib import Path

import pytest
from checktools import statuses

from agentlib import tokens
from agentlib.context.clear import PLACEHOLDER, clear_tool_results
from agentlib.messages import blocks, validate
from classroom.checks import lesson04
from classroom.grading import CHECKS, run_checks

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ["ex4.empty_not_delete", "ex4.clear_old_results", "ex4.freed_tokens"]

VALID = "the history stays valid: the block is emptied, not deleted"
BLOCK = "the result keeps its block and id; its content is the placeholder"
REST = "every other message and block is unchanged"
PURE = "does not change its input"
C_VALID = "every result is a history the API accepts"
C_OLDEST = "clears the oldest results and keeps the newest `keep`"
C_PARALLEL = "keep counts tool results, not messages (parallel calls)"
F_COUNT = "counts the tokens a clearing frees: before minus after"
F_NOTHING = "nothing to clear frees 0, also when results were cleared before"
F_LEAST = ("returns 0 when less than clear_at_least would be freed; exactly clear_at_least "
           "is enough")




def failed(exercise: str, **namespace) -> set[str]:
    return {title for title, status in statuses(exercise, **namespace).items()
            if status != "pass"}


def ids(messages):
    return [b["tool_use_id"] for m in messages for b in blocks(m)
            if b.get("type") == "tool_result"]


# ---------------------------------------------------------------- correct answers


def empty_result(messages, tool_use_id, placeholder=PLACEHOLDER):
    out = list(messages)
    for i, m in enumerate(messages):
        content = blocks(m)
        for j, b in enumerate(content):
            if b.get("type") == "tool_result" and b["tool_use_id"] == tool_use_id:
                content[j] = {**b, "content": placeholder}
                out[i] = {**m, "content": content}
                return out
    return out


def clear_old_results(messages, keep):
    found = ids(messages)
    out = list(messages)
    for tool_use_id in found[:max(0, len(found) - keep)]:
        out = empty_result(out, tool_use_id)
    return out


def freed_tokens(messages, keep, clear_at_least=None):
    freed = tokens.count(messages) - tokens.count(clear_old_results(messages, keep))
    if clear_at_least is not None and freed < clear_at_least:
        return 0
    return freed


def test_every_exercise_is_registered_and_named_in_the_solutions_notebook():
    assert all(len(CHECKS[name]) >= 3 for name in EXERCISES)
    nb = json.loads((ROOT / "solutions/04_clearing_old_tool_results.ipynb").read_text("utf-8"))
    assert nb["metadata"]["agentlib"]["exercises"] == EXERCISES


def test_histories_are_valid_and_varied():
    histories = lesson04._histories()
    for history in histories:
        validate(history)
    every_block = [b for h in histories for m in h for b in blocks(m)]
    assert any(b.get("is_error") for b in every_block)
    assert any(b.get("type") == "tool_result" and isinstance(b.get("content"), list)
               for b in every_block)
    assert any(b.get("content") == PLACEHOLDER for b in every_block)  # cleared earlier
    per_message = [sum(b.get("type") == "tool_result" for b in blocks(m))
                   for h in lesson04._histories(parallel=True) for m in h]
    assert max(per_message) >= 2
    assert all(n <= 1 for h in lesson04._histories(parallel=False) for m in h
               for n in [sum(b.get("type") == "tool_result" for b in blocks(m))])


@pytest.mark.parametrize("exercise, namespace", [
    ("ex4.empty_not_delete", {"empty_result": empty_result}),
    ("ex4.clear_old_results", {"clear_old_results": clear_old_results}),
    ("ex4.clear_old_results",
     {"clear_old_results": lambda m, k: list(clear_tool_results(m, k))}),
    ("ex4.freed_tokens", {"freed_tokens": freed_tokens}),
    ("ex4.freed_tokens", {"freed_tokens": lambda m, k, least=None: clear_tool_results(
        m, k, clear_at_least=least).cleared_input_tokens}),
])
def test_correct_answers_pass(exercise, namespace):
    assert set(statuses(exercise, **namespace).values()) == {"pass"}, \
        statuses(exercise, **namespace)


def test_an_answer_that_also_drops_is_error_passes():
    def drops_flag(messages, tool_use_id, placeholder=PLACEHOLDER):
        out = empty_result(messages, tool_use_id, placeholder)
        return [{**m, "content": [{k: v for k, v in b.items()
                                   if not (k == "is_error" and b.get("tool_use_id") == tool_use_id)}
                                  for b in blocks(m)]} for m in out]
    assert set(statuses("ex4.empty_not_delete", empty_result=drops_flag).values()) == {"pass"}


# ---------------------------------------------------------------- ex4.empty_not_delete


def delete_block(messages, tool_use_id, placeholder=PLACEHOLDER):
    return [{**m, "content": [b for b in blocks(m) if b.get("tool_use_id") != tool_use_id]}
            for m in messages]


def delete_block_and_empty_messages(messages, tool_use_id, placeholder=PLACEHOLDER):
    return [m for m in delete_block(messages, tool_use_id) if m["content"]]


def test_deleting_the_block_is_the_400():
    result = statuses("ex4.empty_not_delete", empty_result=delete_block)
    assert result[VALID] == "fail" and result[BLOCK] == "fail"
    assert result[PURE] == "pass"
    detail = next(r.detail for r in run_checks("ex4.empty_not_delete",
                                               {"empty_result": delete_block})
                  if r.check == VALID)
    # an emptied message, or (when text follows the results) a tool_use left unanswered
    assert "400" in detail and ("non-empty content" in detail
                                or "without `tool_result` blocks" in detail)


def test_deleting_the_message_too_is_the_other_400():
    results = run_checks("ex4.empty_not_delete",
                         {"empty_result": delete_block_and_empty_messages})
    detail = next(r.detail for r in results if r.check == VALID)
    assert next(r.status for r in results if r.check == VALID) == "fail"
    assert "`tool_use` ids were found without `tool_result` blocks" in detail


def test_turning_the_result_into_text_is_the_400():
    def as_text(messages, tool_use_id, placeholder=PLACEHOLDER):
        return [{**m, "content": [{"type": "text", "text": placeholder}
                                  if b.get("tool_use_id") == tool_use_id else b
                                  for b in blocks(m)]} for m in messages]
    assert VALID in failed("ex4.empty_not_delete", empty_result=as_text)


def test_an_empty_string_is_valid_but_not_the_placeholder():
    def blank(messages, tool_use_id, placeholder=PLACEHOLDER):
        return empty_result(messages, tool_use_id, "")
    assert failed("ex4.empty_not_delete", empty_result=blank) == {BLOCK}


def test_emptying_every_result_fails_the_rest_check():
    def every(messages, tool_use_id, placeholder=PLACEHOLDER):
        out = list(messages)
        for other in ids(messages):
            out = empty_result(out, other, placeholder)
        return out
    assert failed("ex4.empty_not_delete", empty_result=every) == {REST}


def test_mutating_the_input_fails_the_purity_check():
    def in_place(messages, tool_use_id, placeholder=PLACEHOLDER):
        for m in messages:
            for b in m["content"] if isinstance(m["content"], list) else []:
                if b.get("tool_use_id") == tool_use_id and b["type"] == "tool_result":
                    b["content"] = placeholder
        return messages
    assert failed("ex4.empty_not_delete", empty_result=in_place) == {PURE}


# ---------------------------------------------------------------- ex4.clear_old_results


def drop_old(messages, keep):
    """Deletes the old results instead of emptying them (the 400; also used by
    tests/test_korean_details.py)."""
    found = ids(messages)
    old = set(found[:max(0, len(found) - keep)])
    out = []
    for m in messages:
        kept = [b for b in blocks(m) if b.get("tool_use_id") not in old
                or b.get("type") != "tool_result"]
        if kept:
            out.append({**m, "content": kept})
    return out


def test_deleting_old_results_is_the_400():
    result = statuses("ex4.clear_old_results", clear_old_results=drop_old)
    assert result[C_VALID] == "fail" and result[PURE] == "pass"


def test_clearing_the_newest_fails_the_keep_check():
    def newest(messages, keep):
        found = ids(messages)
        out = list(messages)
        for tool_use_id in (found[len(found) - keep:] if keep else []):
            out = empty_result(out, tool_use_id)
        return out
    result = statuses("ex4.clear_old_results", clear_old_results=newest)
    assert result[C_OLDEST] == "fail"
    assert result[C_VALID] == "pass" and result[PURE] == "pass"


def test_the_minus_zero_slice_fails_the_keep_check_only():
    def minus_keep(messages, keep):
        out = list(messages)
        for tool_use_id in ids(messages)[:-keep]:  # keep=0: [:-0] is [], nothing cleared
            out = empty_result(out, tool_use_id)
        return out
    assert failed("ex4.clear_old_results", clear_old_results=minus_keep) == {C_OLDEST}


def test_counting_messages_fails_the_parallel_check_only():
    def by_message(messages, keep):
        answering = [i for i, m in enumerate(messages)
                     if any(b.get("type") == "tool_result" for b in blocks(m))]
        out = list(messages)
        for i in answering[:max(0, len(answering) - keep)]:
            for tool_use_id in ids([messages[i]]):
                out = empty_result(out, tool_use_id)
        return out
    assert failed("ex4.clear_old_results", clear_old_results=by_message) == {C_PARALLEL}


def test_mutating_the_input_fails_only_the_purity_check():
    def in_place(messages, keep):
        cleared = clear_tool_results(messages, keep)
        messages[:] = list(cleared)
        return messages
    assert failed("ex4.clear_old_results", clear_old_results=in_place) == {PURE}


# ---------------------------------------------------------------- ex4.freed_tokens


def test_the_chars_estimate_fails_the_count_check():
    def estimated(messages, keep, clear_at_least=None):
        freed = tokens.estimate(messages) - tokens.estimate(clear_old_results(messages, keep))
        return 0 if clear_at_least is not None and freed < clear_at_least else freed
    assert F_COUNT in failed("ex4.freed_tokens", freed_tokens=estimated)


def test_forgetting_the_placeholder_fails_the_count_checks():
    def removed_only(messages, keep, clear_at_least=None):
        found = ids(messages)
        old = set(found[:max(0, len(found) - keep)])
        freed = sum(tokens.count_text(b["content"] if isinstance(b["content"], str)
                                      else b["content"][0]["text"])
                    for m in messages for b in blocks(m)
                    if b.get("type") == "tool_result" and b["tool_use_id"] in old)
        return 0 if clear_at_least is not None and freed < clear_at_least else freed
    bad = failed("ex4.freed_tokens", freed_tokens=removed_only)
    assert {F_COUNT, F_NOTHING} <= bad and PURE not in bad


def test_ignoring_clear_at_least_fails_that_check_only():
    def ignores(messages, keep, clear_at_least=None):
        return freed_tokens(messages, keep)
    assert failed("ex4.freed_tokens", freed_tokens=ignores) == {F_LEAST}


def test_the_boundary_at_clear_at_least_is_checked():
    def strict(messages, keep, clear_at_least=None):
        freed = freed_tokens(messages, keep)
        return 0 if clear_at_least is not None and freed <= clear_at_least else freed
    assert failed("ex4.freed_tokens", freed_tokens=strict) == {F_LEAST}


def test_none_instead_of_zero_is_not_a_number_of_tokens():
    def none(messages, keep, clear_at_least=None):
        return freed_tokens(messages, keep, clear_at_least) or None
    assert {F_NOTHING, F_LEAST} <= failed("ex4.freed_tokens", freed_tokens=none)


def test_mutating_the_input_fails_the_freed_purity_check():
    def in_place(messages, keep, clear_at_least=None):
        freed = freed_tokens(messages, keep, clear_at_least)
        messages[:] = list(clear_tool_results(messages, keep))
        return freed
    assert failed("ex4.freed_tokens", freed_tokens=in_place) == {PURE}


# ---------------------------------------------------------------- how the grader reports


def test_unattempted_exercises_are_todo_and_missing_functions_are_missing():
    def todo(*args):
        raise NotImplementedError
    for exercise, name in zip(EXERCISES, ["empty_result", "clear_old_results", "freed_tokens"],
                              strict=True):
        assert set(statuses(exercise, **{name: todo}).values()) == {"todo"}
        assert set(statuses(exercise).values()) == {"missing"}


def test_a_crashing_or_empty_answer_fails_without_raising():
    assert set(statuses("ex4.clear_old_results",
                        clear_old_results=lambda m, k: 1 / 0).values()) == {"error"}
    result = statuses("ex4.empty_not_delete", empty_result=lambda m, i, p: None)
    assert result.pop(PURE) == "pass"
    assert set(result.values()) == {"fail"}
