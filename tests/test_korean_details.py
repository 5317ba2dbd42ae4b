"""A check's computed failure detail is Korean in a Korean notebook (issue 25 item 4):
for lessons 01-04 (ex1-ex4), the known wrong answers of tests/test_lesson01..04_checks.py
run through the checks with the language forced to Korean, and every failure line says
what was called, on which test history, what came back and what was expected in Korean
(classroom/checks/ko.py, below `# lessons 01-04 details`). API error strings and code stay
as they are, quoted; the numbers and identifiers of the English detail survive.

Every check of ex1-ex4 fails at least once here, so a detail a check can produce without
a Korean template fails this test. Lessons 05-09: tests/test_korean_details_late.py.
"""

from __future__ import annotations

import functools
import math
import re

import pytest
import test_lesson01_checks as t1
import test_lesson02_checks as t2
import test_lesson03_checks as t3
import test_lesson04_checks as t4

from agentlib import tokens
from agentlib.context.clear import PLACEHOLDER, clear_tool_results
from agentlib.context.truncate import truncate
from agentlib.messages import blocks, starts_with_tool_result, user
from classroom import grading
from classroom.checks import lesson02

HANGUL = re.compile(r"[\uac00-\ud7a3]")
WORD = r"[A-Za-z][a-z']*"  # tests/test_korean_outputs.py's RUN: four English words in a row
RUN = re.compile(rf"(?<![\w./`'\-=(\[{{]){WORD}(?:(?: |[,;:] ?){WORD}){{3,}}(?![\w(`'=\-])")
# code, API strings, reprs (a repr at the end of a detail cut to 300 characters ends in …)
QUOTED = re.compile(r"`[^`]*`|\"[^\"]*(?:\"|…$)|'[^']*(?:'|…$)")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*_\w*")  # input_tokens, safe_truncate, tool_use_id


def english_runs(text: str) -> list[str]:
    """Runs of 4+ English words in `text`, outside backticks and quotes."""
    return [m.group(0) for m in RUN.finditer(QUOTED.sub(" ", text))]


def lost(english: str, korean: str) -> list[str]:
    """The numbers and identifiers of an English detail that its Korean lacks."""
    found = NUMBER.findall(english) + IDENTIFIER.findall(english)
    return [x for x in dict.fromkeys(found) if x not in korean]


def problems(english: str, korean: str) -> list[str]:
    """What is wrong with `korean` as the Korean of the failure detail `english`."""
    said = []
    if not HANGUL.search(korean):
        said.append("no Korean")
    said += [f"English: {run!r}" for run in english_runs(korean)]
    said += [f"lost {x!r}" for x in lost(english, korean)]
    return said


# ---------------------------------------------------------------- the known wrong answers
# Module-level ones are the lesson tests' own; the ones those tests define inside a test
# function are written again here, as they are there.


def _loop_returns_tokens_only(client, workload, **kw):
    return t1._loop(client, workload, **kw)[1]


def _loop_counts_nothing(client, workload, **kw):
    return t1._loop(client, workload, **kw)[0], []


def _first_only(messages):
    return 0 if messages and starts_with_tool_result(messages[0]) else None


def _forward(messages, keep):
    start = max(0, len(messages) - keep)
    while start < len(messages) - 1 and starts_with_tool_result(messages[start]):
        start += 1
    return messages[start:]


def _deletes_in_place(messages, keep):
    del messages[:lesson02.reference_start(messages, keep)]
    return messages


def _pinned_naive(messages, keep):
    return list(messages) if len(messages) <= keep + 1 else messages[:1] + messages[-keep:]


def _always_marker(messages, keep):
    out = truncate(messages, keep, marker=False)
    return out[:1] + [user("[Earlier turns removed: 0 messages]")] + out[1:]


def _two_markers(messages, keep):
    out = truncate(messages, keep)
    if len(out) < len(messages) or out != messages:
        out = out[:1] + [user("[Earlier turns removed]"), user("[really]")] + out[2:]
    return out


def _pin_in_place(messages, keep):
    messages[:] = truncate(messages, keep)
    return messages


def _cap_returns_bytes(text, max_chars, more="narrow the query"):
    return t3.right_cap(text, max_chars, more).encode()


def _wrapper_returns_none(tool, max_chars):
    return None


def _blank(messages, tool_use_id, placeholder=PLACEHOLDER):
    return t4.empty_result(messages, tool_use_id, "")


def _every(messages, tool_use_id, placeholder=PLACEHOLDER):
    out = list(messages)
    for other in t4.ids(messages):
        out = t4.empty_result(out, other, placeholder)
    return out


def _empty_in_place(messages, tool_use_id, placeholder=PLACEHOLDER):
    for m in messages:
        for b in m["content"] if isinstance(m["content"], list) else []:
            if b.get("tool_use_id") == tool_use_id and b["type"] == "tool_result":
                b["content"] = placeholder
    return messages


def _drops_a_message(messages, tool_use_id, placeholder=PLACEHOLDER):
    return t4.empty_result(messages, tool_use_id, placeholder)[:-1]


def _newest(messages, keep):
    found, out = t4.ids(messages), list(messages)
    for tool_use_id in (found[len(found) - keep:] if keep else []):
        out = t4.empty_result(out, tool_use_id)
    return out


def _by_message(messages, keep):
    answering = [i for i, m in enumerate(messages)
                 if any(b.get("type") == "tool_result" for b in blocks(m))]
    out = list(messages)
    for i in answering[:max(0, len(answering) - keep)]:
        for tool_use_id in t4.ids([messages[i]]):
            out = t4.empty_result(out, tool_use_id)
    return out


def _clear_in_place(messages, keep):
    messages[:] = list(clear_tool_results(messages, keep))
    return messages


def _estimated(messages, keep, clear_at_least=None):
    freed = tokens.estimate(messages) - tokens.estimate(t4.clear_old_results(messages, keep))
    return 0 if clear_at_least is not None and freed < clear_at_least else freed


def _removed_only(messages, keep, clear_at_least=None):
    old = set(t4.ids(messages)[:max(0, len(t4.ids(messages)) - keep)])
    freed = sum(tokens.count_text(b["content"] if isinstance(b["content"], str)
                                  else b["content"][0]["text"])
                for m in messages for b in blocks(m)
                if b.get("type") == "tool_result" and b["tool_use_id"] in old)
    return 0 if clear_at_least is not None and freed < clear_at_least else freed


def _ignores_least(messages, keep, clear_at_least=None):
    return t4.freed_tokens(messages, keep)


def _strict_least(messages, keep, clear_at_least=None):
    freed = t4.freed_tokens(messages, keep)
    return 0 if clear_at_least is not None and freed <= clear_at_least else freed


def _none_for_zero(messages, keep, clear_at_least=None):
    return t4.freed_tokens(messages, keep, clear_at_least) or None


def _freed_in_place(messages, keep, clear_at_least=None):
    freed = t4.freed_tokens(messages, keep, clear_at_least)
    messages[:] = list(clear_tool_results(messages, keep))
    return freed


def _cost(wrong):
    return lambda i, o, *, input_price=3.0, output_price=15.0: wrong(i, o, input_price,
                                                                      output_price)


WRONG = {  # exercise -> (name of the learner's function, its known wrong versions)
    "ex1.agent_loop": ("agent_loop", [
        t1._with("last_only"), t1._with("no_reply"), t1._with("output"),
        t1._with("never_stops"), _loop_returns_tokens_only, _loop_counts_nothing]),
    "ex1.estimate_tokens": ("estimate_tokens", [
        lambda t: len(t) // 4, lambda t: len(t) // 4 + 1, lambda t: len(t) / 4,
        lambda t: math.ceil(len(t.encode("utf-8")) / 4)]),
    "ex1.session_cost": ("session_cost", [
        _cost(lambda i, o, ip, op: ((i[-1] if i else 0) * ip + sum(o) * op) / 1e6),
        _cost(lambda i, o, ip, op: (sum(i) * ip + sum(o) * op) / 1e3),
        _cost(lambda i, o, ip, op: sum(i) * ip / 1e6),
        _cost(lambda i, o, ip, op: (sum(i) * 3.0 + sum(o) * 15.0) / 1e6),
        _cost(lambda i, o, ip, op: 1.0), _cost(lambda i, o, ip, op: "$0.018")]),
    "ex1.first_overflow": ("first_overflow", [
        t1._ge, t1._minus_one, t1._false, t1._value, t1._no_reserve, t1._last]),
    "ex2.find_split": ("find_split", [
        lambda messages: 0, lambda messages: None, _first_only]),
    "ex2.safe_truncate": ("safe_truncate", [
        lambda m, k: m[-k:], lambda m, k: list(m), _forward, _deletes_in_place,
        lambda m, k: None]),
    "ex2.pin_task": ("pin_task", [
        t2.safe_truncate, _pinned_naive, _always_marker, _two_markers, _pin_in_place]),
    "ex3.cap_text": ("cap_text", [
        t3.silent_cap, t3.over_budget, t3.counts_the_total, t3.keeps_nothing,
        t3.always_notes, t3.ignores_more, t3.digits_guess, _cap_returns_bytes]),
    "ex3.page_notice": ("page_notice", [
        t3.zero_based, t3.remaining_from_start, t3.notice_at_the_end, t3.naive_quotes,
        t3.with_newline, t3.with_next(lambda offset, shown: shown),
        t3.with_next(lambda offset, shown: offset + shown + 1),
        t3.with_next(lambda offset, shown: offset + shown - 1),
        t3.with_next(lambda offset, shown: offset), lambda *args: 0]),
    "ex3.capped_tool": ("capped_tool", [
        t3.no_wraps, t3.silent_wrapper, t3.uncapped_wrapper, t3.positional_only,
        t3.no_str, t3.calls_twice, _wrapper_returns_none]),
    "ex4.empty_not_delete": ("empty_result", [
        t4.delete_block, t4.delete_block_and_empty_messages, _blank, _every,
        _empty_in_place, _drops_a_message]),
    "ex4.clear_old_results": ("clear_old_results", [
        t4.drop_old, _newest, _by_message, _clear_in_place, lambda m, k: "cleared"]),
    "ex4.freed_tokens": ("freed_tokens", [
        _estimated, _removed_only, _ignores_least, _strict_least, _none_for_zero,
        _freed_in_place]),
}


@functools.cache
def failures(exercise: str) -> list[tuple[str, str, str]]:
    """(check title, English detail, Korean line) of every failure the exercise's wrong
    answers produce."""
    name, wrongs = WRONG[exercise]
    found = []
    for wrong in wrongs:
        for r in grading.run_checks(exercise, {name: wrong}):
            if r.status == "fail":
                found.append((r.check, r.detail, r.line(language="ko")))
    return found


@pytest.fixture
def korean(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")


@pytest.mark.parametrize("exercise", sorted(WRONG))
def test_every_failure_detail_is_korean(korean, exercise):
    bad = []
    for title, detail, line in failures(exercise):
        korean_detail = grading.translate(detail)
        assert f" — {korean_detail}" in line, line
        said = problems(detail, korean_detail)
        if said:
            bad.append(f"{title}: {detail!r} -> {korean_detail!r}: {'; '.join(said)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("exercise", sorted(WRONG))
def test_every_check_fails_at_least_once(exercise):
    """So that every check's detail is held by the test above."""
    failed = {title for title, _, _ in failures(exercise)}
    missed = [c.title for c in grading.CHECKS[exercise] if c.title not in failed]
    assert not missed, f"no known wrong answer makes these fail: {missed}"


# Details no known wrong answer reaches (a check's own guard, a rarer mistake), as the
# checks write them.
UNREACHED = [
    "history and input_tokens should be lists, got tuple and dict",
    "input_tokens should hold ints (usage.input_tokens), got 1.5",
    "the history should start with the user's task",
    "the history should end with the model's answer",
    "the last message should be the model's final answer, unchanged",
    "the audit is too short (a bug in the check)",
    "with max_steps=1 your loop sent 3 requests; the task needs 6, so the loop must stop "
    "after 1",
    "with max_steps=2 the model received 1 request(s); input_tokens should hold one count per "
    "request",
    "no requests cost nothing, got 0.5",
    "no test case (a bug in the check)",
    "a bug in the check",
    "find_split on test history #2 (19 messages) with a user and an assistant text message put "
    "between the tool_use in message 4 and its results returned 4; the results are now message "
    "7, and the message just before them holds no tool_use: expected 7",
    "safe_truncate on test history #0 (7 messages, keep=2) should return the newest messages of "
    "the history in order (a slice messages[start:]); got 2 message(s) that are not",
    "the notice should say how to get more (the `more` text)",
    "cap_text for a text of 433 characters and max_chars=120: the part before the notice should "
    "be the start of the text, unchanged",
    "cap_text for a text of 433 characters and max_chars=120 kept 10 characters of the text; 59 "
    "fit beside the notice",
    "the notice names another path",
    "the notices never stop: the agent would read forever",
    "reading a 137-line file 10 lines at a time by following your notices gave 150 lines "
    "instead of 137: lines were repeated",
    "the wrapper's tool definition differs from the tool's in name, description: its name is "
    "'capped', expected 'lookup'",
    "wrapper(*('pool',), **{}) did not call the tool, expected ('pool', 5, False)",
    "wrapper(*('retry', 3), **{}) called the tool with ('retry', 5, False), expected ('retry', "
    "3, False)",
    "a result that fits the budget should come back unchanged",
    "the wrapper should return a str, got list",
    "the cut result should start as the tool's output does",
    "freed_tokens(messages, keep=0) on a test history (9 messages) changed the list it was "
    "given",
    "freed_tokens(messages, keep=5) on test history #1 (12 messages, 5 tool results) is 3; with "
    "5 results and keep=5 nothing is cleared",
    "clear_old_results(messages, keep=6) on test history #1 (12 messages, 5 tool results): it "
    "cleared results [0, 1] (oldest is 0) of 5; expected none cleared, with everything else "
    "unchanged",
    "clear_old_results(messages, keep=1) on test history #1 (12 messages, 5 tool results): it "
    "cleared none of the 5 results (oldest is 0); expected [0, 1, 2, 3], with everything else "
    "unchanged",
]


@pytest.mark.parametrize("detail", UNREACHED, ids=range(len(UNREACHED)))
def test_details_no_wrong_answer_reaches_are_korean(detail):
    korean = grading.translate(detail)
    assert not problems(detail, korean), (detail, korean, problems(detail, korean))


def test_api_strings_stay_as_the_api_says_them(korean):
    (_, detail, line), *_ = [f for f in failures("ex2.safe_truncate")
                             if f[0] == "every result is a history the API accepts"]
    assert "unexpected `tool_use_id` found in `tool_result` blocks" in line, line
    assert "keep=" in line and "테스트 히스토리 #" in line, line
    (_, _, line), *_ = [f for f in failures("ex1.first_overflow")
                        if f[0] == "predicts where the lesson's audit(12) run fails"]
    assert "`prompt is too long`" in line, line


def test_an_untranslated_detail_fails_the_test():
    """The probe: an English detail, or a Korean one that drops a number or a name, is
    caught (what the tests above would report for a check with no Korean template)."""
    english = "safe_truncate on test history #3 (12 messages, keep=4) kept too much of it"
    assert grading.translate(english) == english
    assert problems(english, grading.translate(english))
    assert english_runs("safe_truncate는 on test history #3 kept too much of it")
    korean = grading.translate("estimate_tokens('hello') should be 2, got 1")
    assert korean == "estimate_tokens('hello')의 기대값은 2, 돌아온 값은 1입니다"
    assert not problems("estimate_tokens('hello') should be 2, got 1", korean)
    assert lost("estimate_tokens('hello') should be 2, got 1", korean.replace("2", "두"))
    assert lost("first_overflow([1, 2], 10) should be None", "first_overflow의 기대값은 None")
    assert not english_runs("'\\n[truncated: N more characters not shown; ...]'이 없습니다")


def test_english_details_stay_english(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "en")
    for _, detail, _ in failures("ex1.estimate_tokens"):
        line = grading.Result("ex1.estimate_tokens", "t", "fail", detail).line(language="en")
        assert line.endswith(f"— {detail}") and not HANGUL.search(QUOTED.sub(" ", line))
