"""A class of adversarial students against the class grader (tests/hostile.py).

The nine attack kinds of issue 39 (copied source, a blinded watch, a stripped report,
precomputed answers, a forged harness, work in another process, work on a raw thread,
another course function doing the same job, and notebooks that are not notebooks), and an
answer imported under the graded name. Each hostile notebook must earn 0 on every check of
what it forged; honest notebooks keep full marks; every broken notebook gets its own row
and the run its CSV. "Whatever else is in the class": the property is asserted on two
runs of different classes (the whole one with two jobs; another mix, in another order, with
one job), and each notebook's points must be the same in both.

Every day a small class goes through the same command (one honest notebook, one attack and
three broken notebooks), and the report of an import alias is read from the cells alone;
the whole class is heavy (`course.py test --all`).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import hostile
import pytest

ROOT = Path(__file__).resolve().parent.parent


def grade_class(base: Path, attacks: list[str], broken: list[str], honest: tuple[str, ...],
                jobs: int) -> dict:
    """Write the class, grade it with `python -m classroom.grade`, read rows and reports."""
    folder, out_csv = base / "class", base / "grades.csv"
    hostile.write_class(folder, attacks, broken, honest)
    (base / "tmp").mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "classroom.grade", str(folder), "--csv", str(out_csv),
         "--jobs", str(jobs), "--cell-timeout", "60", "--check-timeout", "20",
         "--deadline", "240"], capture_output=True, text=True, encoding="utf-8", timeout=1800,
        cwd=str(ROOT), env=dict(os.environ, TMPDIR=str(base / "tmp")))
    rows: dict[str, dict] = {}
    if out_csv.exists():
        with open(out_csv, encoding="utf-8", newline="") as f:
            rows = {r["student"]: r for r in csv.DictReader(f) if r["file"]}
    reports = out_csv.with_name("grades-reports")
    results = {}
    for student, row in rows.items():
        path = reports / student / f"{row['assignment']}.json"
        if path.exists():
            results[student] = json.loads(path.read_text(encoding="utf-8"))["results"]
    return {"proc": proc, "rows": rows, "results": results}


def forged_points(graded: dict, name: str) -> list[str]:
    """The checks of what attack `name` forges that it passed."""
    attack = hostile.ATTACKS[name]
    return [f"{r['exercise']}: {r['check']}" for r in graded["results"].get(name, [])
            if attack.forged(r["exercise"], r["check"]) and r["status"] == "pass"]


def full_marks(row: dict) -> bool:
    return row["passed"] == row["total"] and int(row["total"]) > 0


# ---------------------------------------------------------------- every day

SMALL_ATTACKS = ["copied_02"]
SMALL_BROKEN = ["number_in_source", "not_json", "wrong_types"]


def test_a_small_hostile_class(tmp_path: Path) -> None:
    graded = grade_class(tmp_path, SMALL_ATTACKS, SMALL_BROKEN, ("02",), jobs=2)
    assert graded["proc"].returncode == 0, graded["proc"].stderr[-3000:]
    rows = graded["rows"]
    assert set(rows) == {"honest_02", *SMALL_ATTACKS, *SMALL_BROKEN}
    assert full_marks(rows["honest_02"]), rows["honest_02"]["note"]
    assert forged_points(graded, "copied_02") == []
    for name in SMALL_BROKEN:
        assert rows[name]["passed"] == "0" and rows[name]["note"].startswith(
            "not a notebook"), rows[name]
    assert "cell 4's source holds a int (42)" in rows["number_in_source"]["note"]
    copied = {r["detail"] for r in graded["results"]["copied_02"]}
    assert any("is not available while" in d for d in copied), copied


def test_an_import_under_the_graded_name_is_named_as_one() -> None:
    from classroom.grader import sources, worker

    cells = [{"index": 0, "source": "import json"}, {"index": 3, "source": hostile.ALIAS_02},
             {"index": 5, "source": "from agentlib.context import truncate as pin_task\n"
                                    "def safe_truncate(m, k):\n    return m[-k:]"}]
    errors = {3: {"type": "ModuleNotFoundError", "message": "No module named 'classroom.checks'"}}
    why = worker.why_missing(cells, errors, {"find_split": None, "safe_truncate": {"name": "x"}})
    assert why == {"find_split": (
        "`find_split` is not defined: cell 4 imports it (`from classroom.checks.lesson02 import "
        "orphan_index as find_split`), which raised ModuleNotFoundError: No module named "
        "'classroom.checks'; an import is not your own function: write it yourself")}
    assert sources.imported(cells, ["find_split", "safe_truncate", "pin_task"]) == {
        "find_split": "`find_split` is imported in cell 4 (`from classroom.checks.lesson02 import "
                      "orphan_index as find_split`)",
        "pin_task": "`pin_task` is imported in cell 6 (`from agentlib.context import truncate "
                    "as pin_task`)"}


def test_a_learners_kernel_names_an_import_under_the_graded_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    from classroom import grading

    ns: dict = {}
    exec("from agentlib.context.textfold import text_cut\n"  # noqa: S102
         "def safe_truncate(messages, keep):\n    return messages[text_cut(messages, keep):]\n"
         + hostile.ALIAS_02, ns)
    grading.check("ex2.find_split", ns)
    assert ("NOTE  ex2.find_split: `find_split` is the course's `orphan_index` (classroom.checks."
            "lesson02) under another name: an import is not your own function; write it "
            "yourself: the class grader gives no points to a check passed that way"
            ) in capsys.readouterr().out.splitlines()
    grading.check("ex2.safe_truncate", ns)  # the text fold's cut: the course's, by its answers
    assert "NOTE  ex2.safe_truncate: uses the course's own `text_cut`" in capsys.readouterr().out


def test_a_learners_kernel_notes_copied_source() -> None:
    """exec(inspect.getsource(...)) of the course's code runs as "<string>": still its code."""
    from classroom import grading

    ns: dict = {}
    exec("from agentlib.messages import blocks, starts_with_tool_result, user\n"  # noqa: S102
         + hostile.COPIED_02, ns)
    notes = {r.exercise: r.note for r in grading.run_checks("ex2", ns)}
    assert notes == {
        "ex2.find_split": "uses the course's own `validate`; write it yourself: the class "
                          "grader gives no points to a check passed that way",
        "ex2.safe_truncate": "uses the course's own `truncate` and `safe_start`; write it "
                             "yourself: the class grader gives no points to a check passed "
                             "that way",
        "ex2.pin_task": "uses the course's own `truncate` and `safe_start`; write it yourself: "
                        "the class grader gives no points to a check passed that way"}


# ---------------------------------------------------------------- the whole class (heavy)


@pytest.fixture(scope="module")
def whole_class(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return grade_class(tmp_path_factory.mktemp("hostile"), list(hostile.ATTACKS),
                       list(hostile.BROKEN), hostile.HONEST, jobs=2)


OTHER_MIX = ["threaded_02", "forged_07", "precomputed_served_02", "elsewhere_02"]


@pytest.fixture(scope="module")
def other_class(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Another class: fewer notebooks, other neighbours, one job (another order)."""
    return grade_class(tmp_path_factory.mktemp("hostile-other"), OTHER_MIX,
                       ["kernel_dies", "huge_cell"], ("02", "07"), jobs=1)


@pytest.mark.heavy  # the whole hostile class through the grader: with --all only
def test_the_class_completes_with_a_csv(whole_class: dict) -> None:
    assert whole_class["proc"].returncode == 0, whole_class["proc"].stderr[-3000:]
    assert set(whole_class["rows"]) == {*(f"honest_{a}" for a in hostile.HONEST),
                                        *hostile.ATTACKS, *hostile.BROKEN}


@pytest.mark.heavy  # the whole hostile class through the grader: with --all only
@pytest.mark.parametrize("name", sorted(hostile.ATTACKS))
def test_each_attack_earns_nothing_on_what_it_forged(whole_class: dict, name: str) -> None:
    assert forged_points(whole_class, name) == [], whole_class["rows"][name]["note"]


@pytest.mark.heavy  # the whole hostile class through the grader: with --all only
def test_honest_students_keep_full_marks(whole_class: dict) -> None:
    for assignment in hostile.HONEST:
        row = whole_class["rows"][f"honest_{assignment}"]
        assert full_marks(row), (assignment, row["note"])


@pytest.mark.heavy  # the whole hostile class through the grader: with --all only
def test_every_broken_notebook_has_its_own_row_and_reason(whole_class: dict) -> None:
    rows = whole_class["rows"]
    for name in hostile.BROKEN:
        assert rows[name]["passed"] == "0", name
    assert rows["kernel_dies"]["note"].startswith("the notebook's process died in cell 2")
    for name in set(hostile.BROKEN) - {"kernel_dies"}:
        assert rows[name]["note"].startswith("not a notebook"), (name, rows[name]["note"])
    assert "cell 4 holds 3.0 MB" in rows["huge_cell"]["note"]


@pytest.mark.heavy  # two whole grader runs: with --all only
def test_whatever_else_is_in_the_class(whole_class: dict, other_class: dict) -> None:
    assert other_class["proc"].returncode == 0, other_class["proc"].stderr[-3000:]
    for graded in (whole_class, other_class):
        for name in set(graded["rows"]) & set(hostile.ATTACKS):
            assert forged_points(graded, name) == [], name
        for name in (n for n in graded["rows"] if n.startswith("honest_")):
            assert full_marks(graded["rows"][name]), name
    both = set(whole_class["rows"]) & set(other_class["rows"])
    assert len(both) >= 8
    assert {n: whole_class["rows"][n]["passed"] for n in both} == \
        {n: other_class["rows"][n]["passed"] for n in both}


# ---------------------------------------------------------------- the watched fallback (heavy)

WATCHED = {  # ex0.quarter (tests/watched_checks.py): its library code stays, watched
    "honest": "def quarter(text):\n    return -(-len(text) // 4)",
    "delegates": "from agentlib.tokens import estimate_text\n"
                 "def quarter(text):\n    return estimate_text(text)",
    "computed": "import importlib\n_t = importlib.import_module('agentlib.' + 'tok' + 'ens')\n"
                "def quarter(text):\n    return getattr(_t, 'estimate_' + 'text')(text)",
    "stripped": "import gc, importlib\n_t = importlib.import_module('agentlib.' + 'tokens')\n"
                "for _o in gc.get_objects():\n    if type(_o).__name__ == 'Runner':\n"
                "        _a = _o._answer\n        _o._answer = lambda m, _a=_a: {k: v for k, v in "
                "_a(m).items() if k not in ('ran', 'tampered')}\n"
                "def quarter(text):\n    return getattr(_t, 'estimate_' + 'text')(text)",
    "pool": "import concurrent.futures, importlib\n_t = importlib.import_module('agentlib.tokens')\n"
            "_pool = concurrent.futures.ThreadPoolExecutor(1)\n_pool.submit(lambda: 0).result()\n"
            "def quarter(text):\n    return _pool.submit(getattr(_t, 'estimate_text'), text).result()",
    "late_thread": "import importlib, queue, threading\n_t = importlib.import_module('agentlib.tokens')\n"
                   "def quarter(text):\n    q = queue.Queue()\n"
                   "    threading.Thread(target=lambda: q.put(_t.estimate_text(text))).start()\n"
                   "    return q.get(timeout=5)",
    "forked": "import os, json\nfrom agentlib.tokens import estimate_text as _e\n"
              "_r, _w = os.pipe()\n_r2, _w2 = os.pipe()\nif os.fork() == 0:\n"
              "    for line in os.fdopen(_r):\n        os.write(_w2, (json.dumps(_e(json.loads(line)))"
              " + '\\n').encode())\n    os._exit(0)\n_out, _in = os.fdopen(_w, 'w'), os.fdopen(_r2)\n"
              "def quarter(text):\n    _out.write(json.dumps(text) + '\\n')\n    _out.flush()\n"
              "    return json.loads(_in.readline())",
}


@pytest.fixture(scope="module")
def watched_class(tmp_path_factory: pytest.TempPathFactory) -> dict:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    base = tmp_path_factory.mktemp("watched")
    folder, out_csv = base / "00", base / "grades.csv"
    folder.mkdir()
    for name, source in WATCHED.items():
        nb = new_notebook(cells=[new_code_cell(source)])
        nb.metadata["agentlib"] = {"exercises": ["ex0.quarter"]}
        with open(folder / f"{name}.ipynb", "w", encoding="utf-8") as f:
            nbformat.write(nb, f)
    proc = subprocess.run(
        [sys.executable, "-m", "classroom.grade", str(folder), "--csv", str(out_csv),
         "--jobs", "2", "--check-timeout", "10", "--checks",
         str(Path(__file__).with_name("watched_checks.py"))],
        capture_output=True, text=True, encoding="utf-8", timeout=900, cwd=str(ROOT))
    with open(out_csv, encoding="utf-8", newline="") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    reports = out_csv.with_name("grades-reports")
    details = {s: json.loads((reports / s / "00.json").read_text("utf-8"))["results"][0]
               ["detail"] for s in rows}
    return {"proc": proc, "rows": rows, "details": details}


@pytest.mark.heavy  # a class through the grader: with --all only
def test_what_stays_watched_cannot_be_hidden_from_the_watch(watched_class: dict) -> None:
    assert watched_class["proc"].returncode == 0, watched_class["proc"].stderr[-2000:]
    points = {s: r["passed"] for s, r in watched_class["rows"].items()}
    assert points == {**dict.fromkeys(WATCHED, "0"), "honest": "1"}, watched_class["details"]
    details, notes = watched_class["details"], {s: r["note"] for s, r in
                                                 watched_class["rows"].items()}
    assert details["delegates"].startswith("uses the course's own `estimate_text`")
    assert details["computed"].startswith("uses the course's own `estimate_text`")
    assert details["stripped"].startswith("the notebook's cells reached for gc.get_objects")
    assert details["pool"].startswith("grading refuses threads"), details["pool"]
    assert "grading stopped 1 process(es)" in notes["forked"]
