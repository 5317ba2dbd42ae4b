"""The capstone (issue 34): the learner's own agent on every task family and both models,
its score, the cost cap, held-out tasks in the grader, and the class leaderboard."""

from __future__ import annotations

import csv
import html
import json
import os
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import capstone_class
import pytest

from classroom import grading
from classroom.checks import lesson10
from classroom.grader import assignments, leaderboard
from classroom.grader.gradebook import Graded

ROOT = Path(__file__).resolve().parent.parent


def _delegating():
    """The test class's setup that returns the course's own pipelines as its own."""
    namespace: dict = {}
    exec("from agentlib import models\ndef my_agent(client, task, notes_dir):\n"  # noqa: S102
         + capstone_class.DELEGATING, namespace)
    return namespace["my_agent"]


delegating = _delegating()


def expensive(client, task, notes_dir):
    """A long system prompt and no cache: each request pays for all of it."""
    return {"cache": False, "system": "Follow the house style. " * 600}


@pytest.fixture(autouse=True)
def public_tasks():
    grading.use_secret(None)
    yield
    grading.use_secret(None)


def test_the_score_puts_success_first_then_dollars_then_peak():
    t = lesson10.Trial("audit", lesson10.MODELS[0], success=True, cost=0.02, peak=3_000)
    assert t.points == pytest.approx(100 + 10 * (1 - 0.02 / lesson10.CAP) + (1 - 3_000 / 8_000))
    free = [replace(t, cost=0.0, peak=0)] * 7
    at_cap = [replace(t, cost=lesson10.CAP, peak=lesson10.WINDOW)] * 8
    assert lesson10.score(at_cap) > lesson10.score(free)  # one more run solved beats any saving
    assert t.points > replace(t, cost=0.03).points  # as many solved: the cheaper wins
    assert t.points > replace(t, peak=4_000).points  # as cheap: the smaller window wins
    assert replace(t, success=False).points == 0
    assert "100 + 10 x (1 - dollars / $0.08) + 1 x (1 - peak / 8,000)" in lesson10.formula()


def test_the_cap_refuses_the_requests_of_a_run_that_spent_it():
    t = lesson10.trial(expensive, "constraints", lesson10.MODELS[0])
    assert t.over and not t.success and t.cost > lesson10.CAP
    assert "cost cap" in t.refused and "not an API limit" in t.refused
    # the same task without the padding is solved well within the cap
    plain = lesson10.trial(lesson10.append_only, "constraints", lesson10.MODELS[0])
    assert plain.success and not plain.over and plain.cost < lesson10.CAP


def test_the_grader_draws_other_tasks_from_its_secret():
    public = {f: lesson10.task_args(f) for f in lesson10.FAMILIES}
    assert public["audit"] == ((13,), {"seed": 101})
    drawn = []
    for secret in (1, 2, 3):
        grading.use_secret(secret)
        args = {f: lesson10.task_args(f) for f in lesson10.FAMILIES}
        assert all(args[f][1]["seed"] != public[f][1]["seed"] for f in lesson10.FAMILIES)
        assert 10 <= args["audit"][0][0] <= 16 and 300 <= args["needle"][0][0] <= 600
        assert 6 <= args["constraints"][0][0] <= 10
        drawn.append(args)
    assert drawn[0] != drawn[1] != drawn[2]


def test_the_solution_solves_every_run_and_append_only_only_the_short_task():
    refs = lesson10.references()
    assert [t.success for t in refs["course's best"]] == [True] * 8
    assert {t.family for t in refs["append-only"] if t.success} == {"constraints"}
    body = capstone_class.solution_body()
    namespace: dict = {}
    setup = next(c for c in capstone_class.notebook("")["cells"] if c["cell_type"] == "code")
    exec("".join(setup["source"]).replace("client = agentlib.connect()", "client = None")  # noqa: S102
         .split("tasks = ")[0], namespace)
    exec("def my_agent(client, task, notes_dir):\n" + body, namespace)  # noqa: S102
    mine = lesson10.run_all(namespace["my_agent"])
    assert lesson10.summary(mine)["solved"] == 8
    assert lesson10.score(mine) > lesson10.score(refs["append-only"]) + 600


def test_a_setup_that_returns_the_courses_pipeline_earns_nothing():
    results = grading.run_checks("ex10.my_agent", {"my_agent": delegating}, own_work="fail")
    assert [r.status for r in results] == ["fail"] * 5
    assert all("uses the course's own" in r.detail for r in results), [r.detail for r in results]
    noted = grading.run_checks("ex10.my_agent", {"my_agent": delegating})
    assert all(r.note for r in noted if r.status == "pass")


def test_a_setup_with_an_unknown_key_or_a_bad_max_tokens_is_said_so():
    results = grading.run_checks("ex10.my_agent", {"my_agent": lambda c, t, n: {"model": "x"}})
    assert results[0].status == "fail" and "unknown key(s) 'model'" in results[0].detail
    bad = grading.run_checks("ex10.my_agent", {"my_agent": lambda c, t, n: {"max_tokens": 10}})
    assert "'max_tokens' should be an integer from 256 to 8192" in bad[0].detail


def test_capstone_names_assignment_10():
    assert assignments.normalize("capstone") == "10" == assignments.normalize("10_capstone")
    assert assignments.course_assignments()["10"] == ["ex10.my_agent"]


def _graded(student: str, runs: list[dict] | None, detail: str = "") -> Graded:
    results = [{"exercise": "ex10.my_agent", "check": "returns a setup", "status": "pass"
                if runs else "fail", "detail": detail, "hint": "",
                "data": {"runs": runs} if runs is not None else None}]
    return Graded(student, "10", f"{student}.ipynb", "0" * 64, [], results)


def _runs(solved: int, cost: float, peak: int = 3_000) -> list[dict]:
    out = []
    for i, (family, model) in enumerate((f, m) for f in lesson10.FAMILIES
                                        for m in lesson10.MODELS):
        t = lesson10.Trial(family, model, success=i < solved, cost=cost, peak=peak)
        out.append({**t.__dict__, "points": t.points})
    return out


def test_the_board_ranks_by_score_then_dollars_then_peak_then_name():
    graded = [_graded("cheap", _runs(6, 0.01)), _graded("dear", _runs(6, 0.05)),
              _graded("most", _runs(7, 0.079)), _graded("zed", None, "uses the course's own "
                                                         "`x`; write it yourself"),
              _graded("abe", _runs(0, 0.01))]
    rows = leaderboard.entries(graded)
    assert [r["student"] for r in rows] == ["most", "cheap", "dear", "abe", "zed"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["solved"] == 7 and rows[0]["audit"] == 2 and rows[0]["ops"] == 1
    assert rows[-1]["note"] == "no points: the setup used the course's own pipelines"
    assert rows[-1]["score"] == 0


def test_the_page_is_sortable_has_the_plot_and_no_student_text(tmp_path: Path):
    hostile = '<img src=x onerror="alert(1)">'
    graded = [_graded("ada", _runs(8, 0.02)),
              _graded(hostile, _runs(3, 0.02)),
              _graded("bo", [{**r, "error": "def my_agent(): import os  # student code",
                              "detail": "print('student text')"} for r in _runs(1, 0.01)])]
    board = tmp_path / "board.html"
    page, table = leaderboard.write(board, graded, secret=7)
    text = page.read_text(encoding="utf-8")
    assert "<script>" in text and "aria-sort" in text and "<svg" in text
    assert hostile not in text and html.escape(hostile) in text
    assert "def my_agent" not in text and "student text" not in text
    assert "http://" not in text.split("<svg")[0] and "https://" not in text.split("<svg")[0]
    with open(table, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["student"] for r in rows] == ["ada", hostile, "bo", "append-only",
                                            "course's best"]
    assert rows[0]["rank"] == "1" and rows[-1]["note"] == "reference"
    korean = leaderboard.page(leaderboard.entries(graded), leaderboard.references(7), "ko")
    assert "캡스톤 순위표" in korean and "코스의 최선" in korean and 'lang="ko"' in korean


def test_the_board_keeps_its_secret_for_reruns(tmp_path: Path):
    board = tmp_path / "board.html"
    first = leaderboard.board_secret(board)
    assert leaderboard.board_secret(board) == first
    mode = stat.S_IMODE(os.stat(board.with_suffix(".secret")).st_mode)
    assert mode == 0o600
    assert leaderboard.board_secret(tmp_path / "other.html") != first


@pytest.mark.heavy  # four notebooks through the class grader, then one more
def test_a_small_class_goes_through_the_grader_into_the_board(tmp_path: Path):
    folder = capstone_class.write_class(tmp_path / "capstone")
    command = [sys.executable, "-m", "classroom.grade", "capstone/", "--leaderboard",
               "board.html", "--jobs", "2"]
    env = {**os.environ, "AGENTLIB_OFFLINE": "1"}
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    print(done.stdout)
    with open(tmp_path / "board.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    students = [r for r in rows if r["rank"]]
    assert [r["student"] for r in students] == capstone_class.ORDER
    by = {r["student"]: r for r in rows}
    assert by["honest"]["solved"] == "8" and float(by["honest"]["score"]) > 800
    assert by["naive"]["solved"] == "2" and by["naive"]["constraints"] == "2"
    # over the cap: the runs it stopped are failures (which ones depends on the drawn sizes)
    report = json.loads((tmp_path / "board-grades-reports" / "over_cap" / "10.json")
                        .read_text(encoding="utf-8"))
    runs = next(r["data"]["runs"] for r in report["results"] if r.get("data"))
    stopped = [r for r in runs if r["over"]]
    assert stopped and not any(r["success"] for r in stopped)
    assert int(by["over_cap"]["solved"]) == 8 - len(stopped)
    assert float(by["over_cap"]["dollars"]) > float(by["honest"]["dollars"])
    assert by["delegating"]["score"] == "0.0" and "course's own" in by["delegating"]["note"]
    assert by["append-only"]["note"] == "reference" and by["course's best"]["solved"] == "8"
    page = (tmp_path / "board.html").read_text(encoding="utf-8")
    assert "def my_agent" not in page and "bench.strategies" not in page
    # a late submission: only it is graded, the board is rewritten with it, same tasks
    secret = (tmp_path / "board.secret").read_text(encoding="utf-8")
    (folder / "late.ipynb").write_bytes((folder / "naive.ipynb").read_bytes())
    again = subprocess.run([*command, "--lang", "ko"], cwd=tmp_path, capture_output=True,
                           text=True, env=env, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stderr.count("graded ") == 1 and "graded late" in again.stderr
    assert (tmp_path / "board.secret").read_text(encoding="utf-8") == secret
    with open(tmp_path / "board.csv", encoding="utf-8") as f:
        late = {r["student"]: r for r in csv.DictReader(f)}
    assert late["late"]["score"] == late["naive"]["score"]  # the same tasks as the others
    assert "캡스톤 순위표" in (tmp_path / "board.html").read_text(encoding="utf-8")
