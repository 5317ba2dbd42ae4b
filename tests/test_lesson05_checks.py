"""Lesson 5's checks pass correct answers and fail the known wrong ones.

Each exercise is graded against namespaces holding a correct implementation and
implementations that are wrong in one known way: the check aimed at that mistake must
fail, and for a half-right answer the other checks must still pass.
"""

import json
from pathlib import Path

import pytest
from checktools import all_pass, statuses

from agentlib.context.compact import FREE_FORM_PROMPT, STRUCTURED_PROMPT
from agentlib.context.truncate import safe_start
from agentlib.messages import blocks, starts_with_tool_result, validate
from agentlib.tokens import estimate
from classroom.checks import lesson05
from classroom.grading import CHECKS, run_checks

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ["ex5.should_compact", "ex5.safe_boundary", "ex5.structured_prompt"]

MARGIN_CHECK = "compacts inside the margin, before the trigger is reached"
UNDER_CHECK = "leaves a history at or under trigger - margin alone"
METER_CHECK = "measures with the calibrated meter, not raw characters / 4"
PAIR_CHECK = "the kept part never opens with a tool_result"
KEEP_CHECK = "keeps at least the newest keep messages"
TIGHT_CHECK = "moves the boundary back no further than a pair needs"
PURE_CHECK = "does not change its input"
SECTIONS_CHECK = "names the five sections"
VERBATIM_CHECK = "asks for the user's constraints verbatim"
BUDGET_CHECK = "keeps the budget through compaction (constraints workload)"
AUDIT_CHECK = "keeps the findings through compaction (audit workload)"




def failed(exercise: str, **namespace) -> set[str]:
    return {title for title, status in statuses(exercise, **namespace).items()
            if status != "pass"}


# ---------------------------------------------------------------- correct answers


def should_compact(messages, meter, trigger, margin):
    return meter.measure(messages) > trigger - margin


def safe_boundary(messages, keep):
    return safe_start(messages, max(0, len(messages) - keep))


OWN_PROMPT = ("Summarize the agent's earlier work under five headings: Goal (quote the user's "
              "constraints word for word), Progress, Key facts (every number), Decisions, "
              "Next steps.")


def test_every_exercise_is_registered_and_named_in_the_solutions_notebook():
    assert all(name in CHECKS for name in EXERCISES)
    nb = json.loads((ROOT / "solutions/05_summarizing_compaction.ipynb").read_text("utf-8"))
    assert nb["metadata"]["agentlib"]["exercises"] == EXERCISES


def test_histories_are_valid_and_varied():
    for history in lesson05.HISTORIES:
        validate(history)
        assert history[-1]["role"] == "user"  # as before a request
    uses = [sum(b["type"] == "tool_use" for b in blocks(m)) for h in lesson05.HISTORIES for m in h]
    assert max(uses) >= 2  # parallel calls
    assert any(b.get("is_error") for h in lesson05.HISTORIES for m in h for b in blocks(m))
    assert any(m["role"] == "user" and not starts_with_tool_result(m)
               for h in lesson05.HISTORIES for m in h[1:])  # a user text turn after the task
    # the naive boundary splits a pair somewhere, and somewhere it does not
    naive = [starts_with_tool_result(h[len(h) - k]) for h in lesson05.HISTORIES
             for k in range(1, len(h))]
    assert any(naive) and not all(naive)


@pytest.mark.parametrize("exercise, namespace", [
    ("ex5.should_compact", {"should_compact": should_compact}),
    ("ex5.safe_boundary", {"safe_boundary": safe_boundary}),
    ("ex5.structured_prompt", {"summary_prompt": lambda: STRUCTURED_PROMPT}),
    ("ex5.structured_prompt", {"summary_prompt": lambda: OWN_PROMPT}),
])
def test_correct_answers_pass(exercise, namespace):
    result = statuses(exercise, **namespace)
    assert set(result.values()) == {"pass"}, result


# ---------------------------------------------------------------- ex5.should_compact


def test_a_check_without_margin_fails_the_margin_check():
    def no_margin(messages, meter, trigger, margin):
        return meter.measure(messages) > trigger
    assert failed("ex5.should_compact", should_compact=no_margin) == {MARGIN_CHECK}


def test_a_check_on_raw_characters_fails_the_meter_check():
    def raw(messages, meter, trigger, margin):
        return estimate(messages) > trigger - margin
    assert METER_CHECK in failed("ex5.should_compact", should_compact=raw)


def test_compacting_at_exactly_the_budget_fails_the_under_budget_check():
    def at_or_over(messages, meter, trigger, margin):
        return meter.measure(messages) >= trigger - margin
    assert failed("ex5.should_compact", should_compact=at_or_over) == {UNDER_CHECK}


def test_always_compacting_fails():
    assert UNDER_CHECK in failed("ex5.should_compact",
                                 should_compact=lambda m, meter, t, g: True)


def test_a_margin_as_a_fraction_fails():
    def fraction(messages, meter, trigger, margin):  # margin read as 10%, not as tokens
        return meter.measure(messages) > trigger * 0.9
    assert failed("ex5.should_compact", should_compact=fraction) & {MARGIN_CHECK, UNDER_CHECK}


def test_returning_a_non_bool_is_reported():
    result = run_checks("ex5.should_compact", {
        "should_compact": lambda m, meter, t, g: int(meter.measure(m) > t - g)})
    assert {r.status for r in result} == {"fail"}
    assert "True or False" in result[0].detail


# ---------------------------------------------------------------- ex5.safe_boundary


def test_the_naive_boundary_fails_the_pair_check_with_the_api_message():
    def naive(messages, keep):
        return max(0, len(messages) - keep)
    result = statuses("ex5.safe_boundary", safe_boundary=naive)
    assert result[PAIR_CHECK] == "fail"
    assert result[KEEP_CHECK] == "pass" and result[PURE_CHECK] == "pass"
    detail = next(r.detail for r in run_checks("ex5.safe_boundary", {"safe_boundary": naive})
                  if r.check == PAIR_CHECK)
    assert "unexpected `tool_use_id` found in `tool_result` blocks" in detail
    assert "keep=" in detail


def test_moving_the_boundary_forward_fails_the_keep_check():
    def forward(messages, keep):
        cut = max(0, len(messages) - keep)
        while cut < len(messages) - 1 and starts_with_tool_result(messages[cut]):
            cut += 1
        return cut
    result = statuses("ex5.safe_boundary", safe_boundary=forward)
    assert result[KEEP_CHECK] == "fail"


def test_moving_back_too_far_fails_only_the_tightness_check():
    def to_a_user_text(messages, keep):  # back to the previous user text turn
        cut = safe_boundary(messages, keep)
        while cut > 0 and (messages[cut]["role"] != "user" or starts_with_tool_result(messages[cut])):
            cut -= 1
        return cut
    assert failed("ex5.safe_boundary", safe_boundary=to_a_user_text) == {TIGHT_CHECK}


def test_mutating_the_input_fails_the_purity_check():
    def deletes(messages, keep):
        cut = safe_boundary(messages, keep)
        messages.clear()
        return cut
    assert failed("ex5.safe_boundary", safe_boundary=deletes) == {PURE_CHECK}


# ---------------------------------------------------------------- ex5.structured_prompt


def test_the_free_form_prompt_fails_the_section_and_workload_checks():
    result = statuses("ex5.structured_prompt", summary_prompt=lambda: FREE_FORM_PROMPT)
    assert result[SECTIONS_CHECK] == result[BUDGET_CHECK] == result[AUDIT_CHECK] == "fail"
    detail = next(r.detail for r in run_checks("ex5.structured_prompt",
                                               {"summary_prompt": lambda: FREE_FORM_PROMPT})
                  if r.check == BUDGET_CHECK)
    assert "Lumen 16" in detail and "Kestrel 13" in detail


def test_a_structured_prompt_without_verbatim_fails_only_the_verbatim_check():
    prompt = ("Summarize the earlier work in five sections: Goal, Progress, Key facts, "
              "Decisions, Next steps.")
    assert failed("ex5.structured_prompt", summary_prompt=lambda: prompt) == {VERBATIM_CHECK}


def test_a_prompt_that_never_asks_for_a_summary_fails_the_workloads():
    prompt = ("Write five sections: Goal (the user's constraints verbatim), Progress, "
              "Key facts, Decisions, Next steps.")
    result = statuses("ex5.structured_prompt", summary_prompt=lambda: prompt)
    assert result[SECTIONS_CHECK] == result[VERBATIM_CHECK] == "pass"
    assert result[BUDGET_CHECK] == result[AUDIT_CHECK] == "fail"


@pytest.mark.parametrize("prompt", [
    "Condense the conversation so far into these sections: Goal, Progress, Key facts, "
    "Decisions, Next steps. Copy each limit the user stated exactly as written.",
    "Compress the earlier turns. Sections: goal, progress, key facts, decisions, next "
    "steps; keep every constraint of the user word for word.",
    "Recap the work under five headings (Goal, Progress, Key facts, Decisions, Next steps) "
    "and quote the user's limits.",
])
def test_equivalent_wording_passes_every_check(prompt):
    assert all_pass("ex5.structured_prompt", summary_prompt=lambda: prompt), statuses(
        "ex5.structured_prompt", summary_prompt=lambda: prompt)


@pytest.mark.parametrize("prompt", [
    "지금까지의 대화를 요약하세요. 목표, 진행 상황, 핵심 사실, 결정, 다음 단계의 다섯 절로 "
    "나누고, 사용자가 말한 제약 조건은 원문 그대로 인용하세요.",
    "이전 대화를 다음 항목으로 요약해 주세요: 목표 / 진행 / 사실 / 결정 사항 / 다음 할 일. "
    "사용자의 한도는 바꾸지 말고 적으세요.",
])
def test_a_korean_prompt_passes_every_check(prompt):
    """A Korean notebook's learner may write the prompt in Korean; the checks (and the
    stand-in's summarizer, as Claude would) read it."""
    assert all_pass("ex5.structured_prompt", summary_prompt=lambda: prompt), statuses(
        "ex5.structured_prompt", summary_prompt=lambda: prompt)


def test_a_korean_prompt_without_verbatim_fails_only_the_verbatim_check():
    prompt = "이전 대화를 목표, 진행 상황, 핵심 사실, 결정, 다음 단계로 나눠 요약하세요."
    assert failed("ex5.structured_prompt", summary_prompt=lambda: prompt) == {VERBATIM_CHECK}


def test_an_empty_prompt_fails_every_check():
    assert set(statuses("ex5.structured_prompt", summary_prompt=lambda: "").values()) == {"fail"}


# ---------------------------------------------------------------- how the grader reports


def test_unattempted_exercises_are_todo_and_missing_functions_are_missing():
    def todo(*args):
        raise NotImplementedError
    for exercise, name in zip(EXERCISES, ["should_compact", "safe_boundary", "summary_prompt"],
                              strict=True):
        assert set(statuses(exercise, **{name: todo}).values()) == {"todo"}
        assert set(statuses(exercise).values()) == {"missing"}


def test_a_crashing_answer_is_an_error_not_an_exception():
    assert set(statuses("ex5.safe_boundary", safe_boundary=lambda m, k: 1 / 0).values()) == {
        "error"}
    assert set(statuses("ex5.structured_prompt",
                        summary_prompt=lambda: 1 / 0).values()) == {"error"}
