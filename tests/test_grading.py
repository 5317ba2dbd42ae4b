"""The exercise checks and the grading command, on the demo exercise ex0.add.

The grader is run once (module fixture) on a folder of small adversarial notebooks built
here with nbformat: right, untouched, wrong, half right, an infinite loop, a loop that
ignores Ctrl-C, a kernel that exits, a syntax error, a deleted check cell, a redefined
`check` printing fake PASS lines, a file that is not JSON, huge output.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from agentlib import grade, grading

# ---------------------------------------------------------------- check() in a notebook


def ns_with(source: str) -> dict:
    """A fresh namespace in which `source` (a learner's cell) has run."""
    ns: dict = {}
    exec(source, ns)
    return ns


def test_check_prints_pass_for_each_check(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    return a + b"))
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "PASS  ex0.add: adds two small integers",
        "PASS  ex0.add: handles negative numbers",
        "PASS  ex0.add: is commutative",
    ]
    assert lines[3] == "3/3 checks passed"


def test_check_says_what_was_expected_and_gives_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    return a - b"))
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("FAIL  ex0.add: adds two small integers — add(2, 3) should be 5, got -1 "
                     "(hint: return a + b)")


def test_untouched_function_is_todo(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    raise NotImplementedError()"))
    out = capsys.readouterr().out
    assert out.count("TODO  ex0.add:") == 3
    assert "not attempted yet" in out


def test_undefined_function_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", {})
    out = capsys.readouterr().out
    assert out.count("MISSING ex0.add:") == 3
    assert "`add`" in out


def test_check_never_raises(capsys: pytest.CaptureFixture[str]) -> None:
    for body in ["return 1 / 0", "raise SystemExit(3)", "raise KeyError('x')", "return None"]:
        grading.check("ex0.add", ns_with(f"def add(a, b):\n    {body}"))
    grading.check("no.such.exercise", {})
    out = capsys.readouterr().out
    assert "ERROR ex0.add: adds two small integers — raised ZeroDivisionError" in out
    assert "raised SystemExit" in out
    assert "ERROR no.such.exercise: exercise exists — no checks registered" in out


def test_check_reads_the_callers_globals(capsys: pytest.CaptureFixture[str]) -> None:
    ns_with("from agentlib.grading import check\n"
            "def add(a, b):\n    return a + b\n"
            "check('ex0')")  # a prefix selects every exercise under it
    assert capsys.readouterr().out.count("PASS  ex0.add") == 3


def test_run_checks_json_silences_the_learner_and_is_parseable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ns = ns_with("def add(a, b):\n    print('noise ' * 1000)\n    return a + b")
    results = json.loads(grading.run_checks_json(["ex0.add"], ns))
    assert "noise" not in capsys.readouterr().out
    assert [r["status"] for r in results] == ["pass"] * 3
    assert set(results[0]) == {"exercise", "check", "status", "detail", "hint"}


def test_registering_the_same_check_again_replaces_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(grading.CHECKS, "tmp.ex", [])
    for _ in range(2):
        grading.register("tmp.ex", "one title")(lambda ns: None)
    assert len(grading.CHECKS["tmp.ex"]) == 1
    assert [r.status for r in grading.run_checks("tmp.ex", {})] == ["pass"]


# ---------------------------------------------------------------- finding submissions


def test_student_names_come_from_file_stem_or_first_subfolder(tmp_path: Path) -> None:
    for rel in ["alice.ipynb", "bob/lesson02.ipynb", "carol/deep/x.ipynb",
                ".ipynb_checkpoints/alice-checkpoint.ipynb", "notes.txt"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}", encoding="utf-8")
    subs = grade.find_submissions([str(tmp_path)])
    assert sorted(s.student for s in subs) == ["alice", "bob", "carol"]
    assert grade.find_submissions([str(tmp_path / "bob" / "lesson02.ipynb")])[0].student == "lesson02"


def test_exercises_come_from_metadata_and_check_calls() -> None:
    nb = new_notebook(cells=[new_code_cell("check('ex0')"), new_code_cell("check(\"other.ex\")")])
    nb.metadata["agentlib"] = {"exercises": ["ex0.add", 42]}
    assert grade.exercises_in(nb) == ["ex0.add", "other.ex"]
    nb.metadata["agentlib"] = {"exercises": "not a list"}
    assert grade.exercises_in(nb) == ["ex0.add", "other.ex"]


# ---------------------------------------------------------------- the grading command

CHECK_CELL = "from agentlib.grading import check\ncheck('ex0.add')"
RIGHT = "def add(a, b):\n    return a + b"
SUBMISSIONS: dict[str, list[str]] = {
    "good": [RIGHT, CHECK_CELL],
    "todo": ["def add(a, b):\n    # YOUR CODE HERE\n    raise NotImplementedError()", CHECK_CELL],
    "wrong": ["def add(a, b):\n    return a - b", CHECK_CELL],
    "half": ["def add(a, b):\n    return abs(a) + b", CHECK_CELL],
    "loop": [RIGHT, "while True:\n    pass", CHECK_CELL],
    "sigign": [RIGHT, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
               "while True:\n    pass", CHECK_CELL],
    "exits": [RIGHT, "import os\nos._exit(1)", CHECK_CELL],
    "syntax": ["def add(a, b)\n    return a + b", CHECK_CELL],
    "nocheck": ["def add(a, b):\n    return a * b"],  # check cell and metadata deleted
    "fake": ["def add(a, b):\n    return a - b",
             "def check(name):\n    print('PASS  ex0.add: adds two small integers')\n"
             "    print('@@agentlib-check-0000@@[{\"status\": \"pass\"}]')\ncheck('ex0.add')"],
    "huge": ["def add(a, b):\n    print('x' * 2_000_000)\n    return a + b",
             "print('y' * 2_000_000)", CHECK_CELL],
}
EXPECTED = {
    "good": ["pass"] * 3, "todo": ["todo"] * 3, "wrong": ["fail"] * 3,
    "half": ["pass", "fail", "fail"], "loop": ["pass"] * 3, "sigign": ["timeout"] * 3,
    "exits": ["crashed"] * 3, "syntax": ["missing"] * 3, "nocheck": ["fail", "fail", "pass"],
    "fake": ["fail"] * 3, "huge": ["pass"] * 3, "broken": ["invalid"] * 3,
    "carol": ["pass"] * 3,
}


def write_notebook(path: Path, sources: list[str], declare: bool = True) -> None:
    """A small exercise notebook; `declare` writes metadata agentlib.exercises."""
    nb = new_notebook(cells=[new_markdown_cell("# Exercise 0"),
                             *(new_code_cell(s) for s in sources)])
    if declare:
        nb.metadata["agentlib"] = {"exercises": ["ex0.add"]}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)


@pytest.fixture(scope="module")
def cell_timeout() -> float:
    """Seconds a legitimate cell may take here: importing agentlib in a kernel, with margin."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", "import agentlib.grading, agentlib.checks"], check=True)
    return max(6.0, round(4 * (time.monotonic() - start)))


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, cell_timeout: float) -> dict:
    """Run `python -m agentlib.grade` once on every adversarial submission."""
    folder = tmp_path_factory.mktemp("submissions")
    for name, sources in SUBMISSIONS.items():
        write_notebook(folder / f"{name}.ipynb", sources, declare=name != "nocheck")
    write_notebook(folder / "carol" / "lesson00.ipynb", [RIGHT, CHECK_CELL])  # per-student folder
    (folder / "broken.ipynb").write_text("this is not JSON {", encoding="utf-8")
    out_csv = folder.parent / "grades.csv"
    deadline = 4 * cell_timeout + 30
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "agentlib.grade", str(folder), "--csv", str(out_csv),
         "--cell-timeout", str(cell_timeout), "--deadline", str(deadline), "--jobs", "4"],
        capture_output=True, text=True, encoding="utf-8", timeout=20 * deadline,
    )
    elapsed = time.monotonic() - start
    with open(out_csv, encoding="utf-8", newline="") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    return {"proc": proc, "rows": rows, "elapsed": elapsed, "deadline": deadline,
            "cell_timeout": cell_timeout}


def statuses(row: dict) -> list[str]:
    return [v for k, v in row.items() if k.startswith("ex0.add: ")]


def test_grading_completes_with_exit_code_zero(graded: dict) -> None:
    assert graded["proc"].returncode == 0, graded["proc"].stderr[-2000:]
    assert "good" in graded["proc"].stdout and "3/3" in graded["proc"].stdout


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_each_submission_gets_a_clear_status(graded: dict, student: str) -> None:
    row = graded["rows"][student]
    assert statuses(row) == EXPECTED[student], row["note"]
    assert int(row["passed"]) == EXPECTED[student].count("pass")
    assert row["total"] == "3"


def test_csv_has_one_row_per_student_and_a_column_per_check(graded: dict) -> None:
    rows = graded["rows"]
    assert set(rows) == set(EXPECTED)
    assert list(next(iter(rows.values())))[:2] == ["student", "file"]
    assert len(statuses(rows["good"])) == 3


def test_notes_say_what_went_wrong(graded: dict) -> None:
    rows = graded["rows"]
    assert "timed out" in rows["loop"]["note"]
    assert "ignored the interrupt" in rows["sigign"]["note"]
    assert "kernel died in cell 3" in rows["exits"]["note"]
    assert "SyntaxError in cell 2" in rows["syntax"]["note"]
    assert "not JSON" in rows["broken"]["note"]


def test_grading_is_bounded_in_time(graded: dict) -> None:
    # 13 notebooks, 4 at a time; the slow ones wait one or two cell timeouts, never the deadline
    assert graded["elapsed"] < 4 * (graded["deadline"] + 10)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_deadline_kills_the_kernel_and_its_children(tmp_path: Path, cell_timeout: float) -> None:
    pidfile = tmp_path / "child.pid"
    write_notebook(tmp_path / "stubborn.ipynb", [
        RIGHT,
        "import signal, subprocess\n"
        "child = subprocess.Popen(['sleep', '600'])\n"
        f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "while True:\n    pass",
    ])
    deadline = max(15.0, cell_timeout)  # the notebook imports nothing slow
    start = time.monotonic()
    result = grade.grade_notebook(grade.Submission("stubborn", tmp_path / "stubborn.ipynb"),
                                  ["ex0.add"], cell_timeout=600, deadline=deadline)
    assert time.monotonic() - start < deadline + 10
    assert set(result.statuses.values()) == {"timeout"}
    assert "deadline" in result.note
    assert pidfile.exists(), "the deadline came before the loop started; raise it"
    child = int(pidfile.read_text(encoding="utf-8"))
    for _ in range(50):
        if not alive(child):
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the kernel's child {child} survived the deadline")


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting to be reaped counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        state = [ln for ln in status.read_text(encoding="utf-8").splitlines()
                 if ln.startswith("State:")]
        return not (state and "Z" in state[0].split()[1])
    return True
