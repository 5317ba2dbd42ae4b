"""What the class grader says is Korean for a Korean class (issue 39's follow-up): the
messages it added (a withheld stub, a graded name bound by an import, the notes of a run,
why a file is not a notebook) and the failure details of the inputs the checks draw from
the grader's secret, which a learner's kernel never draws (tests/test_korean_details.py
and tests/test_korean_details_late.py hold the public ones).

Each English message is made by the grader's own code where it can be (the stub, the
worker's notes on a fake sandbox, `read_cells` on broken files), so a message that changes
without its Korean template fails here; it passes when its Korean has Hangul, no run of
four English words outside code and quotes, and every number and identifier of the English.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
import test_korean_details as early
import test_korean_details_late as late
import test_lesson01b_checks as t1b
from test_withheld import STOPPED, _notes

from classroom import grading
from classroom.grader import assignments, feedback, worker
from classroom.grader.gradebook import Graded

CHECK_MODULES = [f"classroom.checks.lesson{n}" for n in
                 ("01", "01b", "02", "03", "04", "05", "06", "07", "08", "09")]


SYSTEM = re.compile(r"\b(\w+Error): [^()]*")  # Python's and the system's own words stay


def korean_problems(english: str) -> list[str]:
    """What is wrong with the Korean of `english` (an error's own message left out)."""
    def bare(text: str) -> str:
        return SYSTEM.sub(r"\1", text)
    return early.problems(bare(english), bare(grading.translate(english)))


# ---------------------------------------------------------------- the grader's own words


def _withheld(spec: str, exercises: str) -> str:
    from classroom.withheld import Withheld, withheld

    with pytest.raises(Withheld) as caught:
        withheld(spec, exercises, False, (), {})
    return str(caught.value)


def _broken(tmp_path: Path) -> list[str]:
    """Why `read_cells` refuses each kind of broken notebook file."""
    cell = {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": []}
    files = {"latin1.ipynb": "é".encode("latin-1"), "json.ipynb": b"{not json",
             "nocells.ipynb": b'{"cells": 3}',
             "number.ipynb": json.dumps({"cells": [3]}).encode(),
             "notype.ipynb": json.dumps({"cells": [{"source": ""}]}).encode(),
             "line.ipynb": json.dumps({"cells": [{**cell, "source": ["a\n", 7]}]}).encode(),
             "dict.ipynb": json.dumps({"cells": [{**cell, "source": {"a": 1}}]}).encode(),
             "huge.ipynb": json.dumps({"cells": [{**cell, "source": "x" * (
                 assignments.MAX_CELL_CHARS + 10)}]}).encode()}
    out = []
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        problem = assignments.read_cells(tmp_path / name)[2]
        assert problem, name
        out.append(problem)
    return out


def grader_messages(tmp_path: Path) -> list[str]:
    one = _withheld("agentlib.workspace:Workspace.resolve", "ex6.safe_path")
    many = _withheld("agentlib.context.truncate:truncate", "ex2.find_split and ex2.pin_task")
    failed = {"type": "NameError", "base": "NameError", "message": "name 'x' is not defined"}
    imported = "`find_split` is imported in cell 3 (`from agentlib.context import safe_start " \
               "as find_split`)"
    return [
        one, many, f"find_split(history) raised Withheld: {one}", f"raised Withheld: {many}",
        grading.IMPORTED.format(how=imported), grading.IMPORTED_NOTE.format(how=imported),
        grading.IMPORTED_NOTE.format(how=grading._imported_names(
            {"find_split": __import__("agentlib.context.textfold").context.textfold.text_cut},
            ["find_split"])[0]),
        *_notes([STOPPED, failed]), *_notes([{**STOPPED, "through": "safe_path"}]),
        *_notes([{"type": "CellTimeout", "base": None, "message": ""}]),
        worker.THREADS.format(count=2), worker.ALARMED.format(what="gc.get_objects"),
        worker.STRAYS.format(count=1),
        *worker.why_missing([{"index": 2, "source": "from x import y as find_split"},
                             {"index": 3, "source": "def safe_truncate(m, k):\n    return m"}],
                            {2: failed, 3: failed}, {"find_split": None, "safe_truncate": None}
                            ).values(),
        "the grader failed on this notebook: TypeError: unsupported operand",
        "its report could not be written (OSError: No space left on device)",
        "no notebook for assignment 02 was handed in",
        *_broken(tmp_path),
    ]


def test_every_message_the_grader_adds_is_korean(tmp_path: Path) -> None:
    messages = grader_messages(tmp_path)
    assert len(messages) > 25
    bad = {m: korean_problems(m) for m in messages if korean_problems(m)}
    assert not bad, "\n".join(f"{m!r} -> {grading.translate(m)!r}: {p}" for m, p in bad.items())


def test_the_withheld_stub_reads_as_korean() -> None:
    one = _withheld("agentlib.workspace:Workspace.resolve", "ex6.safe_path")
    assert grading.translate(one) == ("ex6.safe_path를 채점하는 동안에는 쓸 수 없습니다: "
                                      "`Workspace.resolve`(agentlib.workspace). 그 연습 문제에서 "
                                      "직접 작성해야 하는 것입니다")


def test_a_korean_report_says_its_notes_in_korean(tmp_path: Path) -> None:
    problem = _broken(tmp_path)[3]  # a number in a cell list
    g = Graded("kim", "06", "06.ipynb", "0" * 64, [("ex6.safe_path", "t", 1.0)],
               results=[{"exercise": "ex6.safe_path", "check": "t", "status": "invalid",
                         "detail": problem, "hint": ""}], notes=[problem, *_notes([STOPPED, {
                             "type": "NameError", "base": "NameError",
                             "message": "name 'example' is not defined"}])])
    page = feedback.markdown(g, "ko")
    assert "노트북을 실행하는 동안: 노트북이 아님: 셀 1이 셀이 아니라 int입니다" in page, page
    assert "셀 1이 채점에서 빼 둔 코드에서 멈췄습니다" in page and "무효" in page, page
    assert not early.english_runs(page.replace(problem, "")), page
    assert problem in feedback.markdown(g, "en")


# ---------------------------------------------------------------- drawn inputs

LESSON1B = {  # lesson 1b's known mistakes (tests/test_lesson01b_checks.py)
    "ex1b.place_breakpoints": ("place_breakpoints", [t1b._place_with(m) for m in (
        "only_system", "keeps_old", "first_block", "string_system", "mutates")]),
    "ex1b.bill_from_usage": ("bill_from_usage", [t1b._bill_with(m) for m in (
        "as_total", "all_5m", "per_thousand", "no_output", "uncached_input_only")]),
    "ex1b.first_divergence": ("first_divergence", [t1b._divergence_with(m) for m in (
        "with_marks", "whole_list", "system_first", "ignores_settings")]),
}
WRONG = early.WRONG | late.WRONG | LESSON1B
DRAWN = [ex for ex in WRONG if ex not in ("ex1.agent_loop", "ex7.pipeline")]  # (runs of the
# model: their details are the same drawn or not)


@pytest.fixture(scope="module")
def secret():
    """The checks as the class grader loads them: inputs drawn from a secret."""
    grading.use_secret(20261204)
    for name in CHECK_MODULES:
        importlib.reload(importlib.import_module(name))
    yield
    grading.use_secret(None)
    for name in CHECK_MODULES:
        importlib.reload(importlib.import_module(name))


@pytest.mark.parametrize("exercise", DRAWN)
def test_every_detail_of_a_drawn_input_is_korean(secret, exercise: str) -> None:
    name, wrongs = WRONG[exercise]
    bad = []
    for wrong in wrongs:
        for r in grading.run_checks(exercise, {name: wrong}):
            if r.status == "fail" and korean_problems(r.detail):
                bad.append(f"{r.detail!r} -> {grading.translate(r.detail)!r}: "
                           f"{korean_problems(r.detail)}")
    assert not bad, "\n".join(bad)
