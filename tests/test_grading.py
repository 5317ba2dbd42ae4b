"""The in-notebook `check()` and the grading command, on the demo exercise ex0.add.

`check()` runs in the learner's namespace: time limits, errors that name their input, one
reason said once, "not run yet" only when the cell never ran. The grading command is run
once (module fixture) on a folder of small notebooks built here: honest ones (right,
untouched, wrong, half right, a loop, a crash, a syntax error, a deleted check cell, a
hang inside the function) and cheating or hostile ones, each with a wrong or untouched
answer: the trick must earn nothing, the others must be graded as if it were not there,
and the run must end with a CSV. That whole run is heavy (`course.py test --all`, as is
lesson 2's run on work handed to the course's code); every day a small class of them goes
through the same command. tests/test_exercises_run.py grades the course itself.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import demo_checks  # noqa: F401  (registers the demo exercise ex0.add)
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from classroom import grading
from classroom.grader import assignments

ROOT = Path(__file__).resolve().parent.parent
DEMO = ["--checks", str(Path(__file__).with_name("demo_checks.py"))]  # ex0 is not the course's

# ---------------------------------------------------------------- check() in a notebook


def ns_with(source: str) -> dict:
    """A fresh namespace in which `source` (a learner's cell) has run."""
    ns: dict = {}
    exec(source, ns)
    return ns


def test_check_prints_pass_for_each_check(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    return a + b"))
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["PASS  ex0.add: adds two small integers",
                     "PASS  ex0.add: handles negative numbers",
                     "PASS  ex0.add: is commutative", "3/3 checks passed"]


def test_check_says_what_was_expected_and_gives_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    return a - b"))
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("FAIL  ex0.add: adds two small integers — add(2, 3) should be 5, got -1 "
                     "(hint: return a + b)")


def test_one_root_cause_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    raise NotImplementedError()"))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "TODO  ex0.add: adds two small integers — not attempted yet"
    assert lines[1:3] == ["TODO  ex0.add: handles negative numbers — same as above",
                          "TODO  ex0.add: is commutative — same as above"]


def test_undefined_function_is_not_run_yet(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", {})
    out = capsys.readouterr().out
    assert out.count("MISSING ex0.add:") == 3
    assert "no `add` defined yet: run its cell first" in out


def test_a_cell_that_ran_and_raised_is_not_called_not_run_yet(
        capsys: pytest.CaptureFixture[str]) -> None:
    history = ["", "import math", "x = 1 / 0\ndef add(a, b):\n    return a + b"]
    grading.check("ex0.add", {"In": history, "_ih": history})
    out = capsys.readouterr().out
    assert "run its cell first" not in out
    assert "not defined although its cell ran (In [2])" in out


def test_an_error_names_the_input_that_raised(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex0.add", ns_with("def add(a, b):\n    return {}[a]"))
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("ERROR ex0.add: adds two small integers — add(2, 3) raised KeyError: 2")


def test_a_learners_assert_is_an_error_not_a_failed_check() -> None:
    results = grading.run_checks("ex0.add", ns_with("def add(a, b):\n    assert a < 0, 'no'"))
    assert results[0].status == "error"
    assert "add(2, 3) raised AssertionError: no" in results[0].detail


def test_a_hung_function_times_out_and_the_exercise_stops(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.monotonic()
    grading.check("ex0.add", ns_with("def add(a, b):\n    while True:\n        pass"),
                  timeout=0.5)
    lines = capsys.readouterr().out.splitlines()
    assert time.monotonic() - start < 5
    assert lines[0].startswith("TIMEOUT ex0.add: adds two small integers — timed out after "
                               "0.5 s in add(2, 3)")
    assert "not run: an earlier check timed out" in lines[1]


def test_a_timer_already_running_survives_a_check() -> None:
    import signal

    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        grading.run_checks("ex0.add", ns_with("def add(a, b):\n    return a + b"), timeout=5)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left <= 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_check_never_raises(capsys: pytest.CaptureFixture[str]) -> None:
    for body in ["return 1 / 0", "raise SystemExit(3)", "raise KeyError('x')", "return None"]:
        grading.check("ex0.add", ns_with(f"def add(a, b):\n    {body}"))
    grading.check("no.such.exercise", {})
    out = capsys.readouterr().out
    assert "ERROR ex0.add: adds two small integers — add(2, 3) raised ZeroDivisionError" in out
    assert "raised SystemExit" in out
    assert "ERROR no.such.exercise: exercise exists — no checks registered" in out


def test_check_reads_the_callers_globals(capsys: pytest.CaptureFixture[str]) -> None:
    ns_with("from classroom.grading import check\n"
            "def add(a, b):\n    return a + b\n"
            "check('ex0')")  # a prefix selects every exercise under it
    assert capsys.readouterr().out.count("PASS  ex0.add") == 3


def test_assert_check_raises_unless_the_check_passes() -> None:
    grading.assert_check("ex0.add", "is commutative", ns_with("def add(a, b):\n    return a * b"))
    with pytest.raises(AssertionError, match="adds two small integers"):
        grading.assert_check("ex0.add", "adds two small integers",
                             ns_with("def add(a, b):\n    return a * b"))


def test_registering_the_same_check_again_replaces_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(grading.CHECKS, "tmp.ex", [])
    for _ in range(2):
        grading.register("tmp.ex", "one title")(lambda ns: None)
    assert len(grading.CHECKS["tmp.ex"]) == 1
    assert [r.status for r in grading.run_checks("tmp.ex", {})] == ["pass"]


# ---------------------------------------------------------------- who is who, what is what


def test_student_names_come_from_file_stem_or_first_subfolder(tmp_path: Path) -> None:
    for rel in ["alice.ipynb", "bob/lesson02.ipynb", "carol/deep/x.ipynb",
                ".ipynb_checkpoints/alice-checkpoint.ipynb", "notes.txt"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}", encoding="utf-8")
    subs = assignments.find_submissions([str(tmp_path)])
    assert sorted(s.student for s in subs) == ["alice", "bob", "carol"]
    assert all(s.problem.startswith("not a notebook") for s in subs)


def test_assignments_are_the_courses_own_lists() -> None:
    course = assignments.course_assignments()
    assert set(course) >= {f"{n:02d}" for n in range(0, 8)}
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        declared = json.loads(path.read_text(encoding="utf-8"))["metadata"]["agentlib"]["exercises"]
        assert course[assignments.normalize(path.stem)] == declared, path.name
    assert [assignments.normalize(n) for n in ["2", "02", "lesson2", "02_truncation"]] == ["02"] * 4
    with pytest.raises(KeyError, match="no assignment '99'"):
        assignments.normalize("99")


def test_points_default_to_one_per_check_and_can_be_set_per_exercise() -> None:
    cols = assignments.columns("00")
    assert [p for _, _, p in cols] == [1.0, 1.0, 1.0]
    cols = assignments.columns("00", {"ex0.add": 6, "ex0.add: is commutative": 1})
    assert [p for _, _, p in cols] == [2.0, 2.0, 1.0]


def test_assignment_is_told_by_what_a_notebook_checks_then_by_its_name(tmp_path: Path) -> None:
    write_notebook(tmp_path / "a" / "x.ipynb", ["check('ex2.find_split')"], declare=False)
    write_notebook(tmp_path / "a" / "03_capping.ipynb", ["pass"], declare=False)
    write_notebook(tmp_path / "a" / "notes.ipynb", ["pass"], declare=False)
    subs = {s.path.name: s for s in assignments.assign(
        assignments.find_submissions([str(tmp_path)]), None)}
    assert subs["x.ipynb"].assignment == "02"
    assert subs["03_capping.ipynb"].assignment == "03"
    assert subs["notes.ipynb"].assignment is None  # a student folder of two assignments
    named = assignments.assign(assignments.find_submissions([str(tmp_path)]), "02")
    assert [s.path.name for s in named] == ["x.ipynb"]  # a's newest notebook of 02


# ---------------------------------------------------------------- the grading command

CHECK_CELL = "from classroom.grading import check\ncheck('ex0.add')"
RIGHT = "def add(a, b):\n    return a + b"
WRONG = "def add(a, b):\n    return a - b"
TODO = "def add(a, b):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
SECRET = "teacher-secret-4cd1"


def tricks(folder: Path, out_csv: Path, marker: Path) -> dict[str, list[str]]:
    """Notebooks that try to earn points they should not (each answer is wrong)."""
    return {
        "fake_check": [WRONG, "def check(name):\n    print('PASS  ex0.add: adds two small "
                       "integers')\n    print('@@agentlib-check-0000@@[{\"status\": \"pass\"}]')\n"
                       "check('ex0.add')"],
        "print_patch": [WRONG, "import builtins\n_p = builtins.print\nbuiltins.print = lambda "
                        "*a, **k: _p(*[str(x).replace('fail', 'pass') for x in a], **k)",
                        CHECK_CELL],
        "proc_fd": [WRONG, "import os, json\nline = json.dumps({'op': 'result', 'id': 1, "
                    "'value': 5})\nfor pid in os.listdir('/proc'):\n    if pid.isdigit() and "
                    "int(pid) != os.getpid():\n        for fd in (0, 1, 2, 3, 4, 5):\n"
                    "            try:\n                with open(f'/proc/{pid}/fd/{fd}', 'w') "
                    "as f: f.write(line + '\\n')\n            except OSError: pass\n"
                    "os.kill(os.getppid(), 9)"],
        "module_patch": [WRONG, "import agentlib.tokens as t, agentlib.messages as m\n"
                         "t.estimate_text = lambda text: 0\nm.validate = lambda msgs: None\n"
                         "try:  # not in the grader's kernel: the checks run elsewhere\n"
                         "    import classroom.grading as g, classroom.checks.own_demo_checks "
                         "as d\n    g.CHECKS.clear()\n    g.run_checks = lambda *a, **k: []\n"
                         "    d._adds_small = d._adds_negative = d._commutes = lambda ns: None\n"
                         "except (ImportError, AttributeError):\n    pass"],
        "solutions_copy": [
            "import agentlib, pathlib\nroots = [pathlib.Path(agentlib.__file__).parents[1], "
            f"pathlib.Path({str(ROOT)!r})]\nfound = [p for r in roots for p in "
            "[r / 'solutions' / '02_truncation_and_the_400.ipynb', r / 'tests' / "
            "'test_grading.py'] if p.exists()]\n"
            "if found:\n    def add(a, b):\n        return a + b\nelse:\n    " + WRONG.replace(
                "\n", "\n    ")],
        "env_vars": [
            f"import os, glob\nSECRET = {SECRET!r}\n"
            "seen = any(SECRET in v for v in os.environ.values())\n"
            "for p in glob.glob('/proc/*/environ'):\n    try:\n        seen |= SECRET.encode() "
            "in open(p, 'rb').read()\n    except OSError: pass\n"
            "if seen or 'ANTHROPIC_API_KEY' in os.environ:\n    def add(a, b):\n        "
            "return a + b\nelse:\n    " + WRONG.replace("\n", "\n    ")],
        "write_outside": [WRONG, "import agentlib, pathlib\n"
                          "site = pathlib.Path(agentlib.__file__).parents[1]\n"
                          "targets = [site / 'classroom' / 'grading.py', site.parent / 'site' / "
                          "'classroom' / 'checks' / 'own_demo_checks.py', "
                          f"pathlib.Path({str(folder / 'good.ipynb')!r}), "
                          f"pathlib.Path({str(marker)!r}), pathlib.Path({str(ROOT / 'x.txt')!r})]"
                          "\nfor p in targets:\n    try:\n        p.write_text('owned')\n"
                          "    except OSError: pass"],
        "detached_csv": [WRONG, "import os, time\nif os.fork() == 0:\n    os.setsid()\n"
                         "    if os.fork() == 0:\n        for _ in range(40):\n"
                         "            try:\n                open("
                         f"{str(out_csv)!r}, 'a').write('detached,00,x,x,pass,pass,pass,3,3,3,3,"
                         "\\n')\n            except OSError: pass\n            time.sleep(0.25)\n"
                         "    os._exit(0)"],
        "kill_all": [WRONG, "import os, signal\nfor pid in os.listdir('/proc'):\n"
                     "    if pid.isdigit() and int(pid) != os.getpid():\n        try:\n"
                     "            os.kill(int(pid), signal.SIGKILL)\n"
                     "        except OSError: pass"],
        "fork_bomb": [TODO, "import os, time\nfor _ in range(100_000):\n    try:\n"
                      "        os.fork()\n    except OSError:\n        break\ntime.sleep(60)"],
        "memory": [WRONG, "big = bytearray(1 << 30)\nbig2 = bytearray(1 << 30)"],
        "printing": [WRONG, "while True:\n    print('PASS  ex0.add: adds two small integers')"],
        "huge_result": ["def add(a, b):\n    return 'x' * (80 << 20)"],
        "equals_all": ["class Any(int):\n    def __eq__(self, other):\n        return True\n"
                       "    __hash__ = int.__hash__\ndef add(a, b):\n    return Any(a - b)"],
        "reaches_grader": [  # right only where it could import the grader's own modules
            "import importlib, __main__\n"
            "def _can(name):\n    try:\n        importlib.import_module(name)\n"
            "        return True\n    except ImportError:\n        return False\n"
            "found = [n for n in ('_gradebox', '_gradebox.grader.channel', "
            "'classroom.grader.channel', 'classroom.ownwork', 'classroom.harness', "
            "'standin.server') if _can(n)]\n"
            "if found or hasattr(__main__, 'Runner'):\n    def add(a, b):\n        return a + b\n"
            "else:\n    " + WRONG.replace("\n", "\n    ")],
    }


NEEDS_NAMESPACES = {"proc_fd", "solutions_copy", "env_vars", "write_outside", "detached_csv",
                    "kill_all", "fork_bomb"}
"""Tricks only a namespaced sandbox contains: without it they would read the teacher's
files or signal every process of the machine (the process-level sandbox is for trusted
notebooks, or inside a container), so they run only where namespaces work."""


def namespaces_work() -> bool:
    from classroom.grader.sandbox import isolation_mode

    return isolation_mode(str(ROOT)) == "namespaces"


HONEST: dict[str, list[str]] = {
    "good": [RIGHT, CHECK_CELL],
    "todo": [TODO, CHECK_CELL],
    "wrong": [WRONG, CHECK_CELL],
    "half": ["def add(a, b):\n    return abs(a) + b", CHECK_CELL],
    "loop": [RIGHT, "while True:\n    pass", CHECK_CELL],
    "stubborn": [RIGHT, "import signal\nfor s in (signal.SIGINT, signal.SIGALRM):\n"
                 "    signal.signal(s, signal.SIG_IGN)\nwhile True:\n    pass", CHECK_CELL],
    "exits": [RIGHT, "import os\nos._exit(1)", CHECK_CELL],
    "syntax": ["def add(a, b)\n    return a + b", CHECK_CELL],
    "nocheck": ["def add(a, b):\n    return a * b"],  # check cell and metadata deleted
    "hangs": ["def add(a, b):\n    while True:\n        pass"],
    "raises": ["def add(a, b):\n    return {}[a]"],
}
EXPECTED = {
    "good": ["pass"] * 3, "todo": ["todo"] * 3, "wrong": ["fail"] * 3,
    "half": ["pass", "fail", "fail"], "loop": ["pass"] * 3, "stubborn": ["timeout"] * 3,
    "exits": ["crashed"] * 3, "syntax": ["missing"] * 3, "nocheck": ["fail", "fail", "pass"],
    "hangs": ["timeout"] * 3, "raises": ["error"] * 3, "broken": ["invalid"] * 3,
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


def run_grader(folder: Path, out_csv: Path, *extra: str, env: dict | None = None,
               user: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*(user or []), sys.executable, "-m", "classroom.grade", str(folder), "--csv",
         str(out_csv), "--cell-timeout", "4", "--check-timeout", "4", "--deadline", "60",
         *DEMO, *extra], capture_output=True, text=True, encoding="utf-8", timeout=600,
        env=env or dict(os.environ), cwd=str(ROOT))


def read_rows(out_csv: Path) -> dict[str, dict]:
    with open(out_csv, encoding="utf-8", newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def statuses(row: dict) -> list[str]:
    return [v for k, v in row.items() if k.startswith("ex0.add: ")]


def grade_folder(base: Path, notebooks: dict[str, list[str]], tricks_of: dict) -> dict:
    """Run `python -m classroom.grade` once on `notebooks` (name -> cells) in `base`."""
    folder, out_csv, marker = base / "submissions", base / "grades.csv", base / "marker.txt"
    for name, sources in notebooks.items():
        write_notebook(folder / f"{name}.ipynb", sources, declare=name != "nocheck")
    good_before = (folder / "good.ipynb").read_bytes()
    (base / "tmp").mkdir()  # its run folders, apart from other graders' on this machine
    env = dict(os.environ, SECRET_TEACHER_VAR=SECRET, ANTHROPIC_API_KEY=f"sk-{SECRET}",
               TMPDIR=str(base / "tmp"))
    start = time.monotonic()
    proc = run_grader(folder, out_csv, "--memory-mb", "1024", "--jobs", "2", env=env)
    elapsed = time.monotonic() - start
    time.sleep(1.5)  # a detached process would write now
    return {"proc": proc, "rows": read_rows(out_csv), "elapsed": elapsed, "base": base,
            "tricks": sorted(tricks_of), "good_before": good_before, "folder": folder,
            "marker": marker, "csv": out_csv}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Run `python -m classroom.grade` once on every honest and every hostile notebook."""
    base = tmp_path_factory.mktemp("grading")
    folder = base / "submissions"
    adversarial = tricks(folder, base / "grades.csv", base / "marker.txt")
    if not namespaces_work():
        adversarial = {k: v for k, v in adversarial.items() if k not in NEEDS_NAMESPACES}
    write_notebook(folder / "carol" / "lesson00.ipynb", [RIGHT, CHECK_CELL])  # own folder
    (folder / "broken.ipynb").write_text("this is not JSON {", encoding="utf-8")
    return grade_folder(base, {**HONEST, **adversarial}, adversarial)


SMALL_CLASS = ("good", "todo", "wrong", "half")  # pass, todo, fail, part (timeouts: above)
SMALL_TRICKS = ("fake_check", "print_patch", "reaches_grader")  # contained without namespaces


def test_a_small_class_round_trip(tmp_path: Path) -> None:
    """Every day, the grading command end to end on a few notebooks (the whole class of
    honest and hostile ones above is heavy; time limits are also tested in check() above):
    statuses, points, the CSV and the reports."""
    base = tmp_path / "grading"
    adversarial = {k: v for k, v in tricks(base / "submissions", base / "grades.csv",
                                           base / "marker.txt").items() if k in SMALL_TRICKS}
    graded_small = grade_folder(base, {**{k: HONEST[k] for k in SMALL_CLASS}, **adversarial},
                                adversarial)
    assert graded_small["proc"].returncode == 0, graded_small["proc"].stderr[-3000:]
    rows = graded_small["rows"]
    assert set(rows) == {*SMALL_CLASS, *SMALL_TRICKS}
    assert {s: statuses(rows[s]) for s in SMALL_CLASS} == {s: EXPECTED[s] for s in SMALL_CLASS}
    assert {s: rows[s]["passed"] for s in SMALL_TRICKS} == dict.fromkeys(SMALL_TRICKS, "0")
    assert rows["half"]["ex0.add points"] == rows["half"]["points"] == "1"
    reports = graded_small["csv"].with_name("grades-reports")
    assert "Hint: return a + b" in (reports / "half" / "00.md").read_text(encoding="utf-8")
    assert "| good | 3/3 | 3/3 |" in (reports / "summary.md").read_text(encoding="utf-8")


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_grading_completes_with_exit_code_zero_and_a_csv(graded: dict) -> None:
    assert graded["proc"].returncode == 0, graded["proc"].stderr[-3000:]
    assert "good" in graded["proc"].stdout and "3/3" in graded["proc"].stdout
    rows = graded["rows"]
    assert set(rows) == set(EXPECTED) | set(graded["tricks"])
    assert list(next(iter(rows.values())))[:4] == ["student", "assignment", "file", "sha256"]
    assert all(r["total"] == "3" and r["assignment"] == "00" for r in rows.values())
    assert rows["half"]["ex0.add points"] == rows["half"]["points"] == "1"


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_each_honest_submission_gets_a_clear_status(graded: dict, student: str) -> None:
    row = graded["rows"][student]
    assert statuses(row) == EXPECTED[student], row["note"]
    assert int(row["passed"]) == EXPECTED[student].count("pass")


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_every_trick_earns_nothing(graded: dict) -> None:
    earned = {s: graded["rows"][s]["passed"] for s in graded["tricks"]}
    assert earned == dict.fromkeys(graded["tricks"], "0"), {
        s: (graded["rows"][s]["passed"], graded["rows"][s]["note"]) for s in graded["tricks"]}


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_no_trick_reached_outside_its_sandbox(graded: dict) -> None:
    if "write_outside" not in graded["tricks"]:
        pytest.skip("user namespaces are not available here")
    assert not graded["marker"].exists()
    assert not (ROOT / "x.txt").exists()
    assert (graded["folder"] / "good.ipynb").read_bytes() == graded["good_before"]
    assert "detached,00,x" not in graded["csv"].read_text(encoding="utf-8")
    assert not list((graded["base"] / "tmp").glob("agentlib-grade-*/work/*"))


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_notes_say_what_went_wrong(graded: dict) -> None:
    rows = graded["rows"]
    assert "timed out after 4 s in cell 3" in rows["loop"]["note"]
    assert "ignored the interrupt" in rows["stubborn"]["note"]
    assert "died in cell 3" in rows["exits"]["note"]
    assert "SyntaxError in cell 2" in rows["syntax"]["note"]
    assert "not a notebook: JSONDecodeError" in rows["broken"]["note"]
    assert "MemoryError in cell 3" in rows["memory"]["note"]


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_reports_go_back_with_details_hints_and_one_reason_once(graded: dict) -> None:
    reports = graded["csv"].with_name("grades-reports")
    md = (reports / "syntax" / "00.md").read_text(encoding="utf-8")
    assert "**0 of 3 points**" in md
    assert "cell 2, which defines it, raised SyntaxError" in md
    assert md.count("same as above") == 2
    raises = json.loads((reports / "raises" / "00.json").read_text(encoding="utf-8"))
    assert "add(2, 3) raised KeyError: 2" in raises["results"][0]["detail"]
    assert "Hint: return a + b" in (reports / "half" / "00.md").read_text(encoding="utf-8")
    assert "<td class=\"pass\">PASS</td>" in (reports / "good" / "00.html").read_text(
        encoding="utf-8")
    summary = (reports / "summary.md").read_text(encoding="utf-8")
    assert "| good | 3/3 | 3/3 |" in summary


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_grading_is_bounded_in_time(graded: dict) -> None:
    assert graded["elapsed"] < 240, graded["elapsed"]


@pytest.mark.heavy  # two whole grader runs, one killed: with --all only
def test_a_rerun_resumes_and_a_killed_grader_keeps_its_rows(tmp_path: Path) -> None:
    folder, out_csv = tmp_path / "subs", tmp_path / "grades.csv"
    for name in ("a1", "a2", "a3"):
        write_notebook(folder / f"{name}.ipynb", [RIGHT])
    write_notebook(folder / "slow.ipynb", [RIGHT, "import time\ntime.sleep(3)"])
    cmd = [sys.executable, "-m", "classroom.grade", str(folder), "--csv", str(out_csv),
           "--jobs", "1", *DEMO]
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"))  # the runs' folders, kept apart
    (tmp_path / "tmp").mkdir()
    proc = subprocess.Popen(cmd, cwd=str(ROOT), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env)
    for line in proc.stderr:  # a1, a2 graded first (sorted), then slow
        if line.startswith("graded a3"):
            break
    proc.kill()
    proc.wait()
    kept = read_rows(out_csv)
    assert set(kept) == {"a1", "a2", "a3"}
    with open(out_csv, "a", encoding="utf-8") as f:
        f.write("torn,00,half a ro")  # a row cut off by the kill
    assert len(list((tmp_path / "tmp").glob("agentlib-grade-*"))) == 1  # the killed run's
    done = subprocess.run(cmd, cwd=str(ROOT), capture_output=True, text=True, timeout=300,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert [ln for ln in done.stderr.splitlines() if ln.startswith("graded")] == [
        ln for ln in done.stderr.splitlines() if ln.startswith("graded slow")]
    rows = read_rows(out_csv)
    assert set(rows) == {"a1", "a2", "a3", "slow"}
    assert all(r["passed"] == "3" for r in rows.values())
    assert not list((tmp_path / "tmp").glob("agentlib-grade-*"))  # the rerun swept it away


# ---------------------------------------------------------------- without namespaces, other users


@pytest.mark.heavy  # a whole grader run in the other sandbox: with --all only
def test_the_process_level_sandbox_grades_the_same(tmp_path: Path) -> None:
    folder, out_csv = tmp_path / "subs", tmp_path / "grades.csv"
    chosen = {k: v for k, v in {**HONEST, **tricks(folder, out_csv, tmp_path / "m")}.items()
              if k in ("good", "wrong", "loop", "exits", "print_patch", "module_patch",
                       "fake_check")}
    chosen["own_env"] = [  # its own environment is clean (another process's is not hidden)
        f"import os\nif any({SECRET!r} in v for v in os.environ.values()) or "
        "'ANTHROPIC_API_KEY' in os.environ:\n    def add(a, b):\n        return a + b\n"
        "else:\n    " + WRONG.replace("\n", "\n    ")]
    for name, sources in chosen.items():
        write_notebook(folder / f"{name}.ipynb", sources)
    env = dict(os.environ, AGENTLIB_SANDBOX="process", SECRET_TEACHER_VAR=SECRET,
               ANTHROPIC_API_KEY=f"sk-{SECRET}")
    proc = run_grader(folder, out_csv, "--jobs", "2", env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "process)" in proc.stderr
    rows = read_rows(out_csv)
    want = {"good": 3, "loop": 3, "wrong": 0, "exits": 0, "print_patch": 0, "module_patch": 0,
            "fake_check": 0, "own_env": 0}
    assert {k: int(r["passed"]) for k, r in rows.items()} == want


def _can_run_as_nobody() -> str:
    if sys.platform != "linux" or os.geteuid() != 0 or not Path("/usr/bin/setpriv").exists():
        return "needs root and setpriv to switch to an unprivileged user"
    probe = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            sys.executable, "-c", "import classroom.grade"],
                           capture_output=True, cwd=str(ROOT))
    return "" if probe.returncode == 0 else "this Python is not usable by an unprivileged user"


@pytest.mark.heavy  # a whole grader run as another user: with --all only
@pytest.mark.skipif(bool(_can_run_as_nobody()), reason=_can_run_as_nobody() or "-")
@pytest.mark.skipif(not namespaces_work(), reason="user namespaces are not available here")
def test_an_unprivileged_teacher_gets_the_same_grades() -> None:
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="agentlib-nobody-"))
    try:
        folder, out_csv = base / "subs", base / "out" / "grades.csv"
        write_notebook(folder / "good.ipynb", [RIGHT])
        write_notebook(folder / "cheat.ipynb", [WRONG, "import os\nos.kill(os.getppid(), 9)"])
        out_csv.parent.mkdir()
        for p in (base, folder, out_csv.parent, *folder.iterdir()):
            os.chmod(p, 0o777 if p.is_dir() else 0o666)
        proc = run_grader(folder, out_csv, user=["setpriv", "--reuid=65534", "--regid=65534",
                                                 "--clear-groups"],
                          env=dict(os.environ, TMPDIR=str(base)))
        assert proc.returncode == 0, proc.stderr[-2000:]
        rows = read_rows(out_csv)
        assert {k: r["passed"] for k, r in rows.items()} == {"good": "3", "cheat": "0"}
    finally:
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------- graded work is the learner's own

HONEST_EX2 = '''
from agentlib.messages import blocks, starts_with_tool_result, user

def find_split(messages):
    for i, message in enumerate(messages):
        before = blocks(messages[i - 1]) if i > 0 else []
        called = {b["id"] for b in before if b["type"] == "tool_use"}
        for b in blocks(message):
            if b["type"] == "tool_result" and b["tool_use_id"] not in called:
                return i
    return None

def safe_truncate(messages, keep):
    start = max(0, len(messages) - keep)
    while 0 < start < len(messages) and starts_with_tool_result(messages[start]):
        start -= 1
    return messages[start:]

def pin_task(messages, keep):
    task, rest = messages[:1], messages[1:]
    kept = safe_truncate(rest, keep)
    if len(kept) == len(rest):
        return list(messages)
    marker = user(f"[Earlier turns removed: {len(rest) - len(kept)} messages are no longer "
                  "shown.]")
    return task + [marker] + kept
'''
ALIASED_EX2 = '''
from agentlib.context import truncate as cut
from agentlib.messages import HistoryError, validate as v

def find_split(messages):
    try:
        v(messages)
    except HistoryError as e:
        return e.index
    return None

def safe_truncate(messages, keep):
    return cut(messages, keep, pin_task=False, marker=False)

def pin_task(messages, keep):
    return cut(messages, keep + 1)
'''
COPIED_EX2 = HONEST_EX2 + '''
import importlib, sys, types
importlib.import_module("agentlib.context.truncate")
_module = sys.modules["agentlib.context.truncate"]
mine = types.FunctionType(_module.safe_start.__code__, dict(vars(_module)), "mine")
fresh = importlib.reload(_module)  # a re-import compiles the course's code again

def safe_truncate(messages, keep):
    return messages[mine(messages, max(0, len(messages) - keep)):]

def pin_task(messages, keep):
    return fresh.truncate(messages, keep + 1)
'''


def ex2_results(source: str, **options) -> dict[str, list[grading.Result]]:
    found: dict[str, list[grading.Result]] = {}
    for r in grading.run_checks("ex2", ns_with(source), **options):
        found.setdefault(r.exercise, []).append(r)
    return found


def test_the_exercises_declare_what_they_ask_the_learner_to_write() -> None:
    from classroom.ownwork import Watch

    for exercise in ("ex2.find_split", "ex2.safe_truncate", "ex2.pin_task", "ex4.clear_old_results",
                     "ex5.safe_boundary", "ex5.should_compact", "ex1.agent_loop",
                     "ex3.cap_text", "ex6.atomic_write", "ex8.fit_result"):
        assert grading.declared_for(exercise), exercise
    assert "agentlib.context.truncate" in grading.declared_for("ex2.pin_task")
    assert "agentlib.context.compact" in grading.declared_for("ex5.safe_boundary")
    assert grading.declared_for("ex7.pipeline") == ()  # about combining: agentlib stays usable
    every = {s for ex in grading.CHECKS for s in grading.declared_for(ex)}
    watch = Watch(every)
    assert watch.unresolved == [], "a declaration names nothing (renamed in agentlib?)"
    assert watch.watches_anything()


def test_an_honest_solution_gets_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    results = ex2_results(HONEST_EX2)
    assert all(r.status == "pass" and not r.note for rs in results.values() for r in rs)
    grading.check("ex2", ns_with(HONEST_EX2))
    assert "NOTE" not in capsys.readouterr().out


def test_delegating_to_the_course_gets_a_friendly_note_in_the_learners_kernel(
        capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex2", ns_with(ALIASED_EX2))
    out = capsys.readouterr().out
    assert "9/11 checks passed" in out  # most checks pass, and are not silent about it:
    assert ("NOTE  ex2.safe_truncate: uses the course's own `truncate` and `safe_start`; "
            "write it yourself: the class grader gives no points to a check passed that way"
            ) in out.splitlines()
    assert "NOTE  ex2.find_split: uses the course's own `validate`;" in out
    assert out.count("NOTE") == 3  # one per exercise, not one per check


def test_a_copied_code_object_or_a_reloaded_module_is_still_the_courses() -> None:
    results = ex2_results(COPIED_EX2)
    assert [r.note for r in results["ex2.find_split"]] == ["", "", ""]
    assert all("`safe_start`" in r.note for r in results["ex2.safe_truncate"])
    assert all("`truncate`" in r.note for r in results["ex2.pin_task"])


def test_the_grader_mode_fails_a_delegated_check_and_says_why() -> None:
    results = ex2_results(ALIASED_EX2, own_work="fail")
    assert {r.status for rs in results.values() for r in rs} == {"fail"}
    assert results["ex2.pin_task"][0].detail == (
        "uses the course's own `truncate` and `safe_start`; write it yourself: a check passed "
        "that way earns no points")
    with pytest.raises(AssertionError, match="uses the course's own"):  # nbgrader's cells
        grading.assert_check("ex2.safe_truncate", "keeps the newest messages, in order",
                             ns_with(ALIASED_EX2))
    grading.assert_check("ex2.safe_truncate", "keeps the newest messages, in order",
                         ns_with(HONEST_EX2))


def test_using_the_checks_own_reference_gets_a_note_too(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex2.find_split", ns_with(
        "from classroom.checks.lesson02 import orphan_index\n"
        "def find_split(messages):\n    return orphan_index(messages)"))
    out = capsys.readouterr().out
    assert "NOTE  ex2.find_split: uses the exercise checks' own `orphan_index`" in out


def test_the_notes_in_korean() -> None:
    results = ex2_results(ALIASED_EX2)
    [line, *_] = grading.note_lines(results["ex2.safe_truncate"], language="ko")
    assert line.split(None, 1) == ["참고", "ex2.safe_truncate: 코스에 이미 있는 `truncate`, "
                                   "`safe_start`를 가져다 씁니다. 직접 작성하세요: 수업 "
                                   "채점기는 이렇게 통과한 검사에 점수를 주지 않습니다"]
    failed = ex2_results(ALIASED_EX2, own_work="fail")["ex2.find_split"][0]
    assert "코스에 이미 있는 `validate`를 가져다 씁니다" in failed.line(language="ko")
    tampered = grading.translate("switched off the watch (sys.settrace) while it ran: the "
                                 "grader cannot tell whose code ran, so the check earns no points")
    assert tampered.startswith("실행 중에 채점기의 감시를 껐습니다(sys.settrace)")


def test_the_watch_sees_threads_texts_and_tampering() -> None:
    import sys as _sys
    import threading

    from classroom.ownwork import Watch, returned, used

    watch = Watch(["agentlib.context.truncate", "agentlib.context.summary:STRUCTURED_PROMPT"])
    from agentlib.context import truncate
    from agentlib.context.summary import STRUCTURED_PROMPT

    mark = watch.start()
    try:
        worker = threading.Thread(target=truncate, args=([{"role": "user", "content": "x"}], 1))
        worker.start()
        worker.join()
    finally:
        watch.stop()
    hits, tampered = watch.since(mark)
    assert used(hits, watch.specs) == ["truncate", "safe_start"] and tampered == []
    assert returned(f"  {STRUCTURED_PROMPT}\n", watch.texts) == [
        "agentlib.context.summary:STRUCTURED_PROMPT"]
    mark = watch.start()
    previous = _sys.gettrace()
    try:
        _sys.settrace(None)
        truncate([{"role": "user", "content": "x"}], 1)
    finally:
        watch.stop()
        _sys.settrace(previous)
    hits, tampered = watch.since(mark)
    assert hits == [] and tampered == ["switched off the watch (sys.settrace)"]


EVADES_EX2 = '''
import concurrent.futures, importlib, json, subprocess, sys
from agentlib.context import truncate as _truncate

POOL = concurrent.futures.ThreadPoolExecutor(1)
POOL.submit(lambda: None).result()  # its thread starts here, before any check
CHILD = ("import json, sys\\nfrom agentlib.messages import HistoryError, validate\\ntry:\\n"
         "    validate(json.load(sys.stdin))\\n    print('null')\\nexcept HistoryError as e:\\n"
         "    print(json.dumps(e.index))")

def find_split(messages):  # the course's code, in another process
    out = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(messages),
                         capture_output=True, text=True)
    return json.loads(out.stdout)

def safe_truncate(messages, keep):  # switches the watch off, by names no reading sees
    getattr(sys, "set" + "trace")(None)
    start = getattr(importlib.import_module("agentlib.context." + "truncate"), "safe_start")
    return messages[start(messages, max(0, len(messages) - keep)):]

def pin_task(messages, keep):  # in a thread made before the checks
    return POOL.submit(_truncate, messages, keep + 1).result()
'''


BLINDS_EX2 = '''
import threading
_watch = threading.gettrace().__self__  # the grader's watch, blinded before any check
for known in (_watch._by_id, _watch._by_value, _watch._by_shape):
    known.clear()
from agentlib.context import truncate as cut

def safe_truncate(messages, keep):
    return cut(messages, keep, pin_task=False, marker=False)
'''


def ex2_notebook(path: Path, replace: dict[str, str] | None = None,
                 append: str | None = None) -> None:
    """The lesson-2 solution, with the cells defining the functions named in `replace`
    replaced by new source, and a cell appended."""
    nb = nbformat.read(ROOT / "solutions" / "02_truncation_and_the_400.ipynb", as_version=4)
    for cell in nb.cells:
        for name, source in (replace or {}).items():
            if cell.cell_type == "code" and cell.source.startswith(f"def {name}("):
                cell.source = source
    if append:
        nb.cells.append(new_code_cell(append))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)


@pytest.fixture(scope="module")
def graded_ex2(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The class grader on lesson 2: the solution, and notebooks that hand the work to the
    course's own code (aliased, copied, reloaded, from the checks, in a thread, in another
    process, with the watch switched off)."""
    base = tmp_path_factory.mktemp("own-work")
    folder, out_csv = base / "02", base / "grades.csv"
    ex2_notebook(folder / "honest.ipynb")
    ex2_notebook(folder / "delegates.ipynb", append=ALIASED_EX2)
    ex2_notebook(folder / "copies.ipynb", append=COPIED_EX2.removeprefix(HONEST_EX2))
    ex2_notebook(folder / "answer_key.ipynb", replace={
        "find_split": "from classroom.checks.lesson02 import orphan_index\n"
                      "def find_split(messages):\n    return orphan_index(messages)"})
    ex2_notebook(folder / "evades.ipynb", append=EVADES_EX2)
    ex2_notebook(folder / "blinds.ipynb", append=BLINDS_EX2)
    proc = subprocess.run(
        [sys.executable, "-m", "classroom.grade", str(folder), "--csv", str(out_csv),
         "--jobs", "2", "--cell-timeout", "60", "--check-timeout", "30", "--deadline", "240"],
        capture_output=True, text=True, encoding="utf-8", timeout=900, cwd=str(ROOT))
    reports = out_csv.with_name("grades-reports")
    results = {}
    for student in read_rows(out_csv) if out_csv.exists() else {}:
        data = json.loads((reports / student / "02.json").read_text(encoding="utf-8"))
        results[student] = {}
        for r in data["results"]:
            results[student].setdefault(r["exercise"], []).append(r)
    return {"proc": proc, "rows": read_rows(out_csv) if out_csv.exists() else {},
            "results": results, "reports": reports}


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_the_graders_kernel_cannot_import_the_checks(graded_ex2: dict) -> None:
    assert graded_ex2["proc"].returncode == 0, graded_ex2["proc"].stderr[-3000:]
    row = graded_ex2["rows"]["answer_key"]
    assert "ModuleNotFoundError" in row["note"] and "classroom.checks" in row["note"]
    statuses_of = {ex: [r["status"] for r in rs]
                   for ex, rs in graded_ex2["results"]["answer_key"].items()}
    assert statuses_of == {"ex2.find_split": ["missing"] * 3,
                           "ex2.safe_truncate": ["pass"] * 4, "ex2.pin_task": ["pass"] * 4}


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_an_honest_notebook_gets_full_marks(graded_ex2: dict) -> None:
    assert graded_ex2["rows"]["honest"]["passed"] == "11", graded_ex2["rows"]["honest"]["note"]


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_delegating_to_the_course_earns_nothing_and_the_report_says_so(graded_ex2: dict) -> None:
    rows, results = graded_ex2["rows"], graded_ex2["results"]
    assert rows["delegates"]["passed"] == rows["evades"]["passed"] == "0"
    blinds = {ex: {r["status"] for r in rs} for ex, rs in results["blinds"].items()}
    assert blinds == {"ex2.find_split": {"pass"}, "ex2.safe_truncate": {"fail"},
                      "ex2.pin_task": {"fail"}}  # its own find_split; what it handed over: 0
    details = {ex: {r["detail"] for r in rs} for ex, rs in results["delegates"].items()}
    assert details == {
        "ex2.find_split": {"uses the course's own `validate`; write it yourself: a check "
                           "passed that way earns no points"},
        "ex2.safe_truncate": {"uses the course's own `truncate`; write it yourself: a check "
                              "passed that way earns no points"},  # (read in its source: in
        "ex2.pin_task": {"uses the course's own `truncate`; write it yourself: a check "
                         "passed that way earns no points"}}  # the sandbox it is a stub)
    md = (graded_ex2["reports"] / "delegates" / "02.md").read_text(encoding="utf-8")
    assert "uses the course's own `validate`; write it yourself" in md


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_copies_reloads_threads_and_processes_are_the_courses_too(graded_ex2: dict) -> None:
    results = graded_ex2["results"]
    copies = {ex: [r["status"] for r in rs] for ex, rs in results["copies"].items()}
    assert copies == {"ex2.find_split": ["pass"] * 3, "ex2.safe_truncate": ["fail"] * 4,
                      "ex2.pin_task": ["fail"] * 4}
    assert "`safe_start`" in results["copies"]["ex2.safe_truncate"][0]["detail"]
    assert "`truncate`" in results["copies"]["ex2.pin_task"][0]["detail"]
    evades = {ex: rs[0]["detail"] for ex, rs in results["evades"].items()}
    # the other process has the sandbox's copy too: validate is withheld there, so it
    # answers nothing; a computed name reaches a stub; a thread made early too
    assert evades["ex2.find_split"].startswith("find_split(<")
    assert "Withheld: `safe_start` (agentlib.context.truncate) is not available" in \
        evades["ex2.safe_truncate"]
    assert evades["ex2.pin_task"].startswith("uses the course's own `truncate`")


def test_the_learners_kernel_gets_the_agent_and_the_kit_but_no_checks(tmp_path: Path) -> None:
    from classroom import grade
    from classroom.grader.sandbox import BOX

    site, kernel, box = grade.pristine_copy(tmp_path, [Path(__file__).with_name("demo_checks.py")])
    assert sorted(p.name for p in site.iterdir()) == sorted(grade.PACKAGES)
    assert (site / "classroom" / "checks" / "own_demo_checks.py").exists()
    assert sorted(p.name for p in kernel.iterdir()) == sorted(
        ["classroom", "standin", *grade.KERNEL_PACKAGES])
    mine = sorted(str(p.relative_to(kernel / "classroom")) for p in
                  (kernel / "classroom").rglob("*.py"))
    assert mine == sorted(grade.KERNEL_CLASSROOM)
    assert [p.name for p in (kernel / "standin").iterdir()] == ["__init__.py"]  # a door
    assert "def register" not in (kernel / "classroom" / "grading.py").read_text("utf-8")
    assert sorted(str(p.relative_to(box / BOX)) for p in (box / BOX).rglob("*.py")) == sorted(
        grade.BOX_FILES)
    probe = subprocess.run(
        [sys.executable, "-P", "-c", "import agentlib.context, coursekit.workloads, standin, "
         "apiwire\nfrom classroom.grading import check\nfor name in ('classroom.checks."
         "lesson02', 'classroom.harness', 'classroom.grader', 'classroom.ownwork', "
         "'standin.server', 'standin.history'):\n    try:\n        __import__(name)\n"
         "    except ImportError as e:\n        print('refused:', e)"],
        capture_output=True, text=True, cwd=str(tmp_path),
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(kernel),
             "PYTHONNOUSERSITE": "1", "AGENTLIB_OFFLINE": "1", "HOME": str(tmp_path)})
    assert probe.stdout.splitlines() == [
        "refused: No module named 'classroom.checks'", "refused: No module named "
        "'classroom.harness'", "refused: No module named 'classroom.grader'",
        "refused: No module named 'classroom.ownwork'", "refused: No module named "
        "'standin.server'", "refused: No module named 'standin.history'"], probe.stderr


def test_returning_the_courses_prompt_is_not_writing_one(capsys: pytest.CaptureFixture[str]) -> None:
    grading.check("ex5.structured_prompt", ns_with(
        "from agentlib.context.summary import STRUCTURED_PROMPT\n"
        "def summary_prompt():\n    return STRUCTURED_PROMPT"))
    assert "NOTE  ex5.structured_prompt: uses the course's own `STRUCTURED_PROMPT`;" in (
        capsys.readouterr().out)


@pytest.mark.heavy  # the whole grader run of its fixture: with --all only
def test_blinding_the_watch_does_not_help_the_grader_reads_the_source(graded_ex2: dict) -> None:
    blinds = {ex: rs[0]["detail"] for ex, rs in graded_ex2["results"]["blinds"].items()}
    assert blinds["ex2.safe_truncate"].startswith("uses the course's own `truncate`")
    assert blinds["ex2.find_split"] == ""  # no watch to blind: its own find_split passes
    row = graded_ex2["rows"]["blinds"]
    assert "AttributeError in cell 13" in row["note"]  # the sandbox runs no tracer at all


def test_the_graders_reading_of_the_source() -> None:
    from classroom.grader import sources

    specs = sorted({s for ex in ("ex2.find_split", "ex2.pin_task") for s in
                    grading.declared_for(ex)})
    names = ["find_split", "safe_truncate", "pin_task"]

    def read(*sources_: str) -> tuple[dict, list]:
        cells = [{"source": x} for x in sources_]
        return sources.uses(cells, names, specs), sources.tampering(cells)

    assert read(ALIASED_EX2) == ({"find_split": ["agentlib.messages:validate"],
                                  "safe_truncate": ["agentlib.context.truncate:truncate"],
                                  "pin_task": ["agentlib.context.truncate:truncate"]}, [])
    copied = COPIED_EX2.removeprefix(HONEST_EX2)
    assert read(HONEST_EX2, copied)[0] == {
        "safe_truncate": ["agentlib.context.truncate:safe_start"],
        "pin_task": ["agentlib.context.truncate:truncate"]}
    assert read(HONEST_EX2) == ({}, [])
    own = "from agentlib.context import truncate\ndef truncate(m, k):\n    return m[-k:]\n" \
          "def safe_truncate(messages, keep):\n    return truncate(messages, keep)"
    assert read(own) == ({}, [])  # the learner's own function of the same name
    top = "from agentlib.context import truncate\nEXAMPLE = truncate([], 1)\n" \
          "def safe_truncate(messages, keep):\n    return EXAMPLE or messages[-keep:]"
    assert read(top) == ({}, [])  # a value computed at the top level is data
    assert read(BLINDS_EX2)[1] == ["__self__", "gettrace"]
    for folder in ("solutions", "exercises", "solutions/ko", "exercises/ko"):  # none is a trick
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            cells = [{"source": c.source} for c in nb.cells if c.cell_type == "code"]
            every = sorted({n for ex in nb.metadata["agentlib"]["exercises"]
                            for c in grading.CHECKS[ex] for n in c.needs})
            declared = sorted({s for ex in nb.metadata["agentlib"]["exercises"]
                               for s in grading.declared_for(ex)})
            assert sources.uses(cells, every, declared) == {}, path
            assert sources.tampering(cells) == [], path
