"""`course.py live-check`: every lesson in the live profile against the unscripted
stand-in, in a temporary folder, with its metered cost and the budget for the pass.

The tests here run the command on small notebooks of their own, and check the budget on
the lessons themselves. The full pass over every lesson for three seeds takes several
minutes, so CI runs it as its own step after the tests (.ci/run: `course.py live-check
--seed 1 --jobs 2`, 2 and 3); here it is opt-in: AGENTLIB_LIVE_CHECK=1 python3 course.py test
tests/test_live_check.py
"""

import contextlib
import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import warm_kernels

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "live_check.py"

RUN = """\
import agentlib
import coursekit
from coursekit import profile, workloads
from agentlib.loop import run_agent
P = profile.sizes()
client = coursekit.connect(context_window=P.window)
run = run_agent(client, workloads.audit(P.audit), max_steps=P.max_steps)
print(P.profile, profile.scripted(client), client.course_model.unscripted.seed, run.stopped)
"""


def notebook(path: Path, *cells: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    return path


# The command as `python3 scripts/live_check.py ARGS` runs it, its kernels started warm as
# every kernel of the tests is (tests/warm_kernels.py), by this worker's zygote.
WARM = ("import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); import warm_kernels; "
        "warm_kernels.install(); sys.argv.pop(0); runpy.run_path(sys.argv[0], run_name='__main__')")


def live_check(*args, env=None):
    env = {**os.environ, **warm_kernels.shared_env(), **(env or {})}
    env.pop("AGENTLIB_BUDGET_USD", None)
    return subprocess.run([sys.executable, "-c", WARM, str(ROOT / "tests"), str(SCRIPT),
                           *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    d = tmp_path_factory.mktemp("books")
    return {"ok": notebook(d / "a_runs.ipynb", RUN),
            "bad": notebook(d / "b_fails.ipynb", "x = 1", "raise KeyError('text')", "x + 1"),
            "after": notebook(d / "c_after.ipynb", "print('ran')")}


def test_a_pass_runs_in_the_live_profile_on_the_unscripted_stand_in(books, tmp_path):
    before = books["ok"].read_bytes()
    out = live_check(books["ok"], "--seed", "2", "--out", tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "against the unscripted stand-in, seed 2" in out.stdout
    assert "metered cost of the pass: $0.0" in out.stdout and "no error cell" in out.stdout
    executed = nbformat.read(tmp_path / "a_runs.ipynb", as_version=4)
    printed = executed.cells[0].outputs[0]["text"]
    assert printed.startswith("live False 2 ")  # live sizes, not scripted, the seed asked
    assert books["ok"].read_bytes() == before  # never over the notebook itself


def test_an_error_cell_fails_the_pass_and_is_named(books, tmp_path):
    out = live_check(books["bad"], books["after"], "--out", tmp_path)
    assert out.returncode == 1
    assert "cell 1: KeyError: 'text'" in out.stdout
    assert "1 notebook(s) with error cells: b_fails.ipynb" in out.stdout


def test_the_budget_stops_the_pass_cleanly_in_the_first_notebook_over_it(books, tmp_path):
    out = live_check(books["ok"], books["after"], "--budget", "0.01", "--out", tmp_path)
    assert out.returncode == 3, out.stdout
    assert "the budget stopped the pass in a_runs.ipynb" in out.stdout
    assert "AGENTLIB_BUDGET_USD" in out.stdout and "c_after" not in out.stdout


def rows(stdout: str) -> list[str]:
    """The per-notebook lines of a pass, without their times."""
    return [line.rsplit(" ", 2)[0] for line in stdout.splitlines() if ".ipynb " in line]


@pytest.mark.heavy  # the same passes twice, one and two at a time (CI's live-check: --jobs 2)
def test_two_jobs_give_the_same_report_in_the_same_order(books, tmp_path):
    one = live_check(books["ok"], books["bad"], books["after"], "--seed", "2",
                     "--out", tmp_path / "one")
    two = live_check(books["ok"], books["bad"], books["after"], "--seed", "2", "--jobs", "2",
                     "--out", tmp_path / "two")
    assert (one.returncode, two.returncode) == (1, 1), two.stdout + two.stderr
    assert rows(two.stdout) == rows(one.stdout) and len(rows(one.stdout)) == 3
    assert "cell 1: KeyError: 'text'" in two.stdout


def in_process(*args) -> tuple[int, str]:
    """The command's refusals, which stop before any kernel: its main() called here, not
    in a Python of its own (same code, without a process start and its imports)."""
    spec = importlib.util.spec_from_file_location("live_check_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = module.main([str(a) for a in args])
    return code, out.getvalue()


def test_claude_needs_a_key_and_says_so(books, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, printed = in_process(books["after"], "--claude")
    assert code == 2 and "needs ANTHROPIC_API_KEY" in printed


def test_jobs_are_for_the_stand_in_only(books, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-a-real-key")
    code, printed = in_process(books["after"], "--claude", "--jobs", "2")
    assert code == 2 and "--jobs" in printed


def test_it_refuses_to_write_over_the_lessons(books):
    code, printed = in_process(books["after"], "--out", ROOT / "lessons")
    assert code == 2 and "never writes over lessons/" in printed


@pytest.mark.heavy  # the real lessons in the live profile (CI's live-check runs them all)
def test_a_budget_of_five_cents_stops_the_lessons_cleanly_in_the_first_over_it(tmp_path):
    """AGENTLIB_BUDGET_USD=0.05: lesson 0 sends nothing, lesson 1 (about $0.13 live) meets
    the cap; the pass stops there with the budget's message and runs no later lesson."""
    lessons = [ROOT / "lessons" / name for name in (
        "00_start_here.ipynb", "01_append_only_growth.ipynb", "02_truncation_and_the_400.ipynb")]
    env = {**os.environ, "AGENTLIB_BUDGET_USD": "0.05"}
    out = subprocess.run([sys.executable, str(SCRIPT), *map(str, lessons), "--seed", "1",
                          "--out", str(tmp_path)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 3, out.stdout + out.stderr
    assert "budget $0.05 for the pass" in out.stdout
    assert "the budget stopped the pass in 01_append_only_growth.ipynb" in out.stdout
    assert "budget reached: this kernel has spent $0.0" in out.stdout
    assert "AGENTLIB_BUDGET_USD" in out.stdout
    assert "02_truncation" not in out.stdout  # no lesson after it
    executed = nbformat.read(tmp_path / "01_append_only_growth.ipynb", as_version=4)
    errors = [o for c in executed.cells for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert errors[0]["ename"] == "BudgetExceeded"  # the first error is the budget, not a crash


@pytest.mark.skipif(not os.environ.get("AGENTLIB_LIVE_CHECK"),
                    reason="minutes per seed: CI runs it after the tests (AGENTLIB_LIVE_CHECK=1)")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_lesson_passes_live_check(seed, tmp_path):
    out = live_check("--seed", seed, "--out", tmp_path)
    assert out.returncode == 0, out.stdout
