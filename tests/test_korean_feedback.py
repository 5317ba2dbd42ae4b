"""A check's feedback in a Korean notebook is Korean (issue 25 item 4): the grading's own
words (not attempted yet, timeouts, an unknown exercise, a check that fails by itself, an
error in the learner's call) come from classroom/checks/ko.py; API error strings and code
stay as they are, quoted.

The failure details the checks compute themselves (classroom/checks/lesson0*.py,
"estimate_tokens('abcde') should be 2, got 1") are held by tests/test_korean_details.py
(ex1-ex4) and tests/test_korean_details_late.py (ex5-ex9).
"""

from __future__ import annotations

import re
import time

import pytest

from classroom import grading

HANGUL = re.compile(r"[\uac00-\ud7a3]")
WORD = re.compile(r"(?<![\w.'`(])[A-Za-z]{3,}(?: [A-Za-z]{2,}){2,}")  # an English phrase


@pytest.fixture
def korean(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")


@pytest.fixture
def exercise(monkeypatch):
    """A throwaway exercise `tmp.ko`, its checks registered by the test."""
    monkeypatch.setitem(grading.CHECKS, "tmp.ko", [])
    return lambda title, fn, needs=(): grading.register("tmp.ko", title, hint="return a + b",
                                                        needs=needs)(fn)


def lines(ns, timeout=5.0):
    return [r.line(language="ko") for r in grading.run_checks("tmp.ko", ns, timeout)]


def english(line: str) -> list[str]:
    """English phrases in a line, once the exercise name and the quoted code are gone."""
    line = re.sub(r"tmp\.ko|'[^']*'|`[^`]*`|\w+\([^)]*\)", " ", line)
    return WORD.findall(line)


def test_not_attempted_yet_is_korean(korean, exercise):
    def todo(ns):
        raise NotImplementedError

    exercise("adds two small integers", todo)
    (line,) = lines({})
    assert "아직 시도하지 않았습니다" in line and not english(line.split(":", 1)[1].split("—")[1])


def test_a_timeout_is_korean_and_names_the_call(korean, exercise):
    def slow(ns):
        ns["add"](2, 3)

    def add(a, b):
        time.sleep(5)

    exercise("adds two small integers", slow, ("add",))
    (line,) = lines({"add": add}, timeout=0.3)
    detail = line.split("—", 1)[1]
    assert "시간 초과" in detail and "add(2, 3)" in detail, line
    assert "timed out" not in detail


def test_an_error_in_the_learners_call_is_korean_and_keeps_the_error(korean, exercise):
    def boom(ns):
        ns["add"](2, 3)

    def add(a, b):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")

    exercise("adds two small integers", boom, ("add",))
    (line,) = lines({"add": add})
    detail = line.split("—", 1)[1]
    assert "발생" in detail and "add(2, 3)" in detail and "TypeError" in detail, line
    assert "unsupported operand" in detail  # the error's own words, as Python says them
    assert " raised " not in detail


def test_an_unknown_exercise_is_korean(korean):
    (result,) = grading.run_checks("tmp.nothing", {}, 1.0)
    line = result.line(language="ko")
    assert "등록된 검사가 없습니다" in line and "연습 문제가 있다" in line, line
    assert not english(line), line


def test_a_check_that_fails_by_itself_is_korean(korean, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the check")

    monkeypatch.setattr(grading, "run_checks", broken)
    grading.check("tmp.ko", {})
    out = capsys.readouterr().out
    assert out.startswith("오류 tmp.ko: 검사 자체가 실패했습니다 (RuntimeError: a bug in the check)"), out


def test_english_stays_english(exercise, monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "en")

    def todo(ns):
        raise NotImplementedError

    exercise("adds two small integers", todo)
    (result,) = grading.run_checks("tmp.ko", {}, 1.0)
    assert result.line(language="en").endswith("— not attempted yet")
