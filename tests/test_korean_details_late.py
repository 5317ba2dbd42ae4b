"""Lessons 5-9's checks fail in Korean in a Korean notebook (issue 25 item 4): every
failure detail that ex5.* to ex9.* compute (what was called, on which test history, what
came back, what was expected) prints in Korean, from the templates of
classroom/checks/ko.py ("# lessons 05-09 details"); API error strings, code, numbers and
identifiers stay as they are.

The wrong answers are the ones tests/test_lesson06..08_checks.py model (taken from their
`known_mistakes` lists) and a representative set for lessons 5 and 9 (whose tests write
them inside the test functions), so that every check of every exercise fails at least
once. A line passes when, with quoted text, code and the model's own words taken out, no
run of four English words is left (the RUN heuristic of tests/test_korean_outputs.py),
and when every number and identifier of the English detail is still in it.
"""

from __future__ import annotations

import re

import pytest
import test_lesson06_checks as t6
import test_lesson07_checks as t7
import test_lesson08_checks as t8
import test_lesson09_checks as t9

from agentlib import tokens
from agentlib.context.compact import FREE_FORM_PROMPT
from agentlib.context.truncate import safe_start
from agentlib.messages import starts_with_tool_result
from agentlib.tokens import estimate
from classroom.grading import CHECKS, Result, run_checks

WORD = r"[A-Za-z][a-z']*"
RUN = re.compile(rf"(?<![\w./`'\-=(\[{{]){WORD}(?:(?: |[,;:] ?){WORD}){{3,}}(?![\w(`'=\-])")
# what stays English on purpose: quoted text (API error strings, reprs of the learner's
# values, the notes and texts the checks use), code in backticks, and what follows the
# model's own words ("마지막 요약의 시작:": the summary the offline model wrote)
QUOTED = re.compile(r"`[^`]*`|'[^']*(?:'|$)|\"[^\"]*(?:\"|$)")
MODEL_WORDS = re.compile(r"마지막 요약의 시작: .*$")
NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*(?:_\w+|\.\w+|\(\))+")


def _mistakes(test) -> list:
    """The wrong answers of a `test_..._known_mistakes_fail(wrong, start)` test, once each."""
    (mark,) = [m for m in test.pytestmark if m.name == "parametrize"]
    return list(dict.fromkeys(wrong for wrong, _ in mark.args[1]))


# ---------------------------------------------------------------- lesson 5's wrong answers


def _boundary(messages, keep):
    return safe_start(messages, max(0, len(messages) - keep))


def _forward(messages, keep):
    cut = max(0, len(messages) - keep)
    while cut < len(messages) - 1 and starts_with_tool_result(messages[cut]):
        cut += 1
    return cut


def _too_far_back(messages, keep):
    cut = _boundary(messages, keep)
    while cut > 0 and (messages[cut]["role"] != "user" or starts_with_tool_result(messages[cut])):
        cut -= 1
    return cut


def _clears(messages, keep):
    cut = _boundary(messages, keep)
    messages.clear()
    return cut


LESSON5 = {
    "ex5.should_compact": ("should_compact", [
        lambda m, meter, t, g: meter.measure(m) > t,  # no margin
        lambda m, meter, t, g: estimate(m) > t - g,  # raw characters / 4
        lambda m, meter, t, g: meter.measure(m) >= t - g,  # at the budget
        lambda m, meter, t, g: int(meter.measure(m) > t - g),  # not a bool
    ]),
    "ex5.safe_boundary": ("safe_boundary", [
        lambda m, k: max(0, len(m) - k), _forward, _too_far_back, _clears,
        lambda m, k: -1, lambda m, k: str(len(m) - k),
    ]),
    "ex5.structured_prompt": ("summary_prompt", [
        lambda: FREE_FORM_PROMPT,
        lambda: ("Summarize the earlier work in five sections: Goal, Progress, Key facts, "
                 "Decisions, Next steps."),
        lambda: "",
    ]),
}

# ---------------------------------------------------------------- lesson 9's wrong answers


def _estimated(tools, input_tokens):
    return tokens.estimate([], tools=tools) / input_tokens if tools else 0.0


def _none_for_no_tools(tools, input_tokens):
    return tokens.count([], tools=tools) / input_tokens if tools else None


def _marks_the_tools(tools, input_tokens):
    for t in tools:
        t["counted"] = True
    return t9.definition_share(tools, input_tokens)


def _defers_everything(tools, keep_loaded):
    return [t if t.get("name") in keep_loaded else {**t, "defer_loading": True} for t in tools]


def _defers_the_kept(tools, keep_loaded):
    return [t if "type" in t else {**t, "defer_loading": True} for t in tools]


def _in_place(tools, keep_loaded):
    for t in tools:
        if "type" not in t and t["name"] not in keep_loaded:
            t["defer_loading"] = True
    return tools


def _adds_a_field(tools, keep_loaded):
    return [{**t, "note": "deferred"} if "type" not in t else t
            for t in t9.choose_deferred(tools, keep_loaded)]


def _names(query, tools, top=3):
    return [b["tool_name"] for b in t9.search_tools(query, tools, top)]


def _invented(query, tools, top=3):
    return t9.search_tools(query, tools, top - 1) + [
        {"type": "tool_reference", "tool_name": query.replace(" ", "_") + "_v2"}]


def _first(query, tools, top=3):
    return [{"type": "tool_reference", "tool_name": t["name"]}
            for t in tools if "type" not in t][:top]


LESSON9 = {
    "ex9.definition_share": ("definition_share", [
        _estimated, _none_for_no_tools, _marks_the_tools, lambda tools, n: "0.5"]),
    "ex9.choose_deferred": ("choose_deferred", [
        _defers_everything, _defers_the_kept, _in_place, _adds_a_field,
        lambda tools, keep: tuple(tools), lambda tools, keep: list(reversed(tools))]),
    "ex9.search_tools": ("search_tools", [
        _names, _invented, _first, lambda q, tools, top=3: q,
        lambda q, tools, top=3: t9.search_tools(q, tools, top + 2)]),
}

WRONG = {
    **LESSON5,
    "ex6.atomic_write": ("atomic_write", _mistakes(t6.test_atomic_write_known_mistakes_fail)),
    "ex6.safe_path": ("safe_path", _mistakes(t6.test_safe_path_known_mistakes_fail)),
    "ex6.resume_notes": ("resume_notes", _mistakes(t6.test_resume_known_mistakes_fail)),
    "ex7.run_cost": ("run_cost", _mistakes(t7.test_run_cost_known_mistakes_fail)),
    "ex7.choose_strategy": ("choose_strategy", _mistakes(t7.test_choose_known_mistakes_fail)),
    "ex7.pipeline": ("pipeline", _mistakes(t7.test_pipeline_known_mistakes_fail)),
    "ex8.fit_result": ("fit_result", _mistakes(t8.test_fit_known_mistakes_fail)),
    "ex8.wall_clock_steps": ("wall_clock_steps", _mistakes(t8.test_wall_known_mistakes_fail)),
    "ex8.team_bill": ("team_bill", _mistakes(t8.test_bill_known_mistakes_fail)),
    **LESSON9,
}


# ---------------------------------------------------------------- what a Korean line may hold


def _detail_part(line: str) -> str:
    """The computed detail of a printed line: after the title's " — ", before the hint."""
    detail = line.split(" — ", 1)[1] if " — " in line else line
    return re.split(r" \(힌트: ", detail)[0]


def problems(result: Result) -> list[str]:
    """What is wrong with `result`'s Korean line: English left, numbers or identifiers lost."""
    line = result.line(language="ko")
    detail = _detail_part(line)
    found = []
    bare = QUOTED.sub(" ", MODEL_WORDS.sub(" ", detail))
    run = RUN.search(bare)
    if run:
        found.append(f"English words {run.group(0)!r} in {line!r}")
    english = QUOTED.sub(" ", result.detail)  # what is quoted stays whole; see above
    for kept in NUMBER.findall(english) + IDENTIFIER.findall(english):
        if kept not in detail:
            found.append(f"{kept!r} of {result.detail!r} is missing from {line!r}")
    return found


@pytest.fixture
def korean(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")


@pytest.mark.parametrize("exercise", list(WRONG))
def test_every_failure_detail_is_korean(korean, exercise, capsys):
    name, wrong_answers = WRONG[exercise]
    failed: dict[str, list[Result]] = {}
    for wrong in wrong_answers:
        for r in run_checks(exercise, {name: wrong}):
            if r.status in ("fail", "error"):
                failed.setdefault(r.check, []).append(r)
    titles = [c.title for c in CHECKS[exercise]]
    assert sorted(failed) == sorted(titles), (  # at least one failing detail per check
        f"never failed: {sorted(set(titles) - set(failed))}")
    found = [p for results in failed.values() for r in results for p in problems(r)]
    assert not found, "\n".join(found)
    printed = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert all(not RUN.search(QUOTED.sub(" ", line)) for line in printed), printed


def test_the_pipeline_report_prints_in_korean(korean, capsys):
    run_checks("ex7.pipeline", {"pipeline": t7._right_pipeline})
    (report,) = [line for line in capsys.readouterr().out.splitlines() if "audit(40)" in line]
    assert "토큰 윈도우" in report and "답함" in report and not RUN.search(report), report


def test_english_details_stay_english(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "en")
    (r, *_) = [r for r in run_checks("ex5.safe_boundary", {"safe_boundary": _forward})
               if r.status == "fail"]
    assert r.line(language="en").endswith(r.detail + f" (hint: {r.hint})")
    assert "on test history #" in r.detail


def test_an_untranslated_detail_is_caught():
    """The probe: a detail no template knows stays English, and the test says so."""
    untranslated = Result("ex5.safe_boundary", "keeps at least the newest keep messages",
                          "fail", "safe_boundary on test history #3 went somewhere nobody "
                          "expected it to go, after 12 tries")
    (english,) = [p for p in problems(untranslated) if p.startswith("English words")]
    assert "went somewhere nobody expected" in english
    translated = Result("ex5.safe_boundary", "keeps at least the newest keep messages",
                        "fail", "safe_boundary on test history #3 (9 messages, keep=2) "
                        "returned 8, which keeps only 1 messages; the boundary may be at most 7")
    assert problems(translated) == []
    line = translated.line(language="ko")
    assert "테스트 히스토리 #3(메시지 9개, keep=2)에서 8을 반환했습니다" in line, line


def test_a_lost_number_is_caught(monkeypatch):
    from classroom.checks import ko

    monkeypatch.setitem(ko.PHRASES_KO, "safe_boundary {where} changed the list it was given",
                        "safe_boundary가 받은 리스트를 바꿨습니다")  # drops {where}
    result = Result("ex5.safe_boundary", "does not change its input", "fail",
                    "safe_boundary on test history #4 (13 messages, keep=2) changed the list "
                    "it was given")
    assert any("'13'" in p for p in problems(result)), problems(result)
