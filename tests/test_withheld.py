"""The class grader withholds the course's own code for what an assignment asks.

classroom/grader/withhold.py rewrites each assignment's copy of the agent and the kit for
the sandbox; classroom/grader/equivalents.py finds course functions that still do an
exercise's work by replaying the solution's calls on every function of the copy. Every day:
the rewriter on a small module and on the course (stubs on disk and in memory, served
functions refused outside the grader, texts replaced), and a probe that the search finds
the course's references where nothing is withheld (so the heavy test, which searches
every assignment's withheld copy and allows no finding, can fail).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from classroom import grade, grading
from classroom.grader import assignments, equivalents, withhold

ROOT = Path(__file__).resolve().parent.parent
COURSE = sorted(assignments.course_assignments())
"""The course's assignments (a teacher's own, ex0 in other tests, are not searched here)."""


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The pristine copies of one run, and the withheld kernel of assignments 02 and 05."""
    run = tmp_path_factory.mktemp("withheld")
    site, kernel, box = grade.pristine_copy(run)
    course = assignments.course_assignments()
    kernels = {a: grade.kernel_for(run, kernel, a, course[a]) for a in ("02", "05")}
    return {"run": run, "site": site, "kernel": kernel, "box": box, "kernels": kernels}


def in_kernel(kernel: Path, source: str) -> subprocess.CompletedProcess:
    """Run `source` in a fresh Python whose only course is `kernel` (as the sandbox's)."""
    return subprocess.run([sys.executable, "-P", "-c", source], capture_output=True, text=True,
                          cwd=str(kernel.parent), timeout=120,
                          env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(kernel),
                               "PYTHONNOUSERSITE": "1", "AGENTLIB_OFFLINE": "1",
                               "HOME": str(kernel.parent)})


def test_the_rewriter_leaves_names_and_nothing_of_the_bodies(tmp_path: Path) -> None:
    module = tmp_path / "pkg" / "mod.py"
    module.parent.mkdir()
    (module.parent / "__init__.py").write_text("", encoding="utf-8")
    module.write_text('''"""A module."""
import functools

PROMPT = "Summarize: goal, progress."  # a text
LIMIT = 3


def cut(messages, keep=LIMIT):
    """Keep the newest."""
    # a comment about the algorithm
    return messages[-keep:]


class Window:
    """A strategy."""
    size = 2

    def __init__(self, keep):
        self.keep = keep

    @property
    def doubled(self):
        return self.keep * 2

    class Inner:
        def go(self):
            return "secret"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)


class Other:
    @staticmethod
    def helper(x):
        return x + 1

    @functools.lru_cache(maxsize=None)
    def kept(self, x):
        return x * 7
''', encoding="utf-8")
    done = withhold.withhold(tmp_path, {"pkg.mod:cut": ("ex9.cut", False),
                                        "pkg.mod:Window": ("ex9.window and ex9.cut", False),
                                        "pkg.mod:Other.helper": ("ex9.cut", True),
                                        "pkg.mod:PROMPT": ("ex9.prompt", False)})
    assert done == ["pkg.mod:Other.helper", "pkg.mod:PROMPT", "pkg.mod:Window", "pkg.mod:cut"]
    source = module.read_text(encoding="utf-8")
    for gone in ("messages[-keep:]", "self.keep * 2", '"secret"', "x + 1", "goal, progress",
                 "a comment about the algorithm"):
        assert gone not in source, gone
    for kept in ('"""Keep the newest."""', "LIMIT = 3", "size = 2", "x * 7",
                 "super().__init_subclass__"):
        assert kept in source, kept
    probe = subprocess.run(
        [sys.executable, "-c", "import pkg.mod as m\nclass Sub(m.Window):\n    pass\n"
         "print(m.Other().kept(2), m.PROMPT)\n"
         "for call in (lambda: m.cut([1, 2]), lambda: m.Window(1), lambda: m.Other.helper(1)):\n"
         "    try:\n        call()\n    except RuntimeError as e:\n"
         "        print(type(e).__name__, e)"],
        capture_output=True, text=True, cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": f"{tmp_path}:{ROOT}"})
    assert probe.stdout.splitlines() == [
        "14 [PROMPT is not available while ex9.prompt is graded: it is what that exercise asks "
        "you to write]",
        "Withheld `cut` (pkg.mod) is not available while ex9.cut is graded: it is what that "
        "exercise asks you to write yourself",
        "Withheld `Window.__init__` (pkg.mod) is not available while ex9.window and ex9.cut "
        "are graded: they ask you to write it yourself",
        "Withheld `Other.helper` (pkg.mod) is not available while ex9.cut is graded: it is "
        "what that exercise asks you to write yourself"], probe.stderr
    with pytest.raises(LookupError, match="names nothing"):
        withhold.withhold(tmp_path, {"pkg.mod:nothing": ("ex9.cut", False)})


def test_an_assignments_copy_holds_stubs_on_disk_and_in_memory(copies: dict) -> None:
    kernel = copies["kernels"]["02"]
    truncate = (kernel / "agentlib" / "context" / "truncate.py").read_text(encoding="utf-8")
    assert "starts_with_tool_result(messages[start])" not in truncate
    assert "messages[start].get('role')" not in truncate
    messages = (kernel / "agentlib" / "messages.py").read_text(encoding="utf-8")
    assert "def validate(*args, **kwargs):" in messages and "unexpected `tool_use_id`" not in \
        messages.split("def validate")[1].split("\ndef ")[0]
    probe = in_kernel(kernel, """
import inspect, json
from agentlib.context import truncate, safe_start, SlidingWindow
from agentlib.context.textfold import text_cut
from agentlib.messages import validate, blocks
out = {"source": "messages[" in inspect.getsource(safe_start)}
for name, call in (("truncate", lambda: truncate([], 1)), ("safe_start", lambda: safe_start([], 0)),
                   ("window", lambda: SlidingWindow(3)), ("text_cut", lambda: text_cut([], 1)),
                   ("validate", lambda: validate([]))):
    try:
        call()
        out[name] = "ran"
    except Exception as e:
        out[name] = type(e).__name__ + ": " + str(e)
out["blocks"] = blocks({"role": "user", "content": "hi"})
print(json.dumps(out))
""")
    out = json.loads(probe.stdout)
    assert out["source"] is False, "the copy still holds safe_start's body"
    assert out["truncate"] == ("Withheld: `truncate` (agentlib.context.truncate) is not "
                               "available while ex2.find_split, ex2.safe_truncate and "
                               "ex2.pin_task are graded: they ask you to write it yourself")
    assert out["window"].startswith("Withheld: `SlidingWindow.__init__`")
    assert out["text_cut"].startswith("Withheld: `text_cut` (agentlib.context.textfold)")
    # served while a notebook's cells run in the grader; outside it, nothing answers
    assert out["validate"] == ("Withheld: `validate` (agentlib.messages) is not available "
                               "while ex2.find_split is graded: it is what that exercise asks "
                               "you to write yourself")
    assert out["blocks"] == [{"type": "text", "text": "hi"}]  # the rest of the agent works
    prompt = in_kernel(copies["kernels"]["05"], "from agentlib.context.summary import "
                       "STRUCTURED_PROMPT\nprint(STRUCTURED_PROMPT)")
    assert prompt.stdout.startswith("[STRUCTURED_PROMPT is not available while "
                                    "ex5.structured_prompt is graded"), prompt.stderr


def test_the_kernels_stand_in_is_only_a_door_to_the_grader(copies: dict) -> None:
    probe = in_kernel(copies["kernel"], "import agentlib\ntry:\n    agentlib.connect()\n"
                      "except RuntimeError as e:\n    print(e)")
    assert probe.stdout.strip() == ("this stand-in answers only inside the class grader's "
                                    "sandbox"), probe.stderr


def test_every_declaration_names_course_code() -> None:
    from classroom.ownwork import Watch

    every = {s for ex in grading.CHECKS for s in grading.declared_for(ex)}
    assert Watch(every).unresolved == []
    modes = {grading.cells_mode(ex, s) for ex in grading.CHECKS for s in grading.declared_for(ex)}
    assert modes <= {"withheld", "served"}, "no course exercise needs the weaker watch"
    assert set(grading.OPEN_BOOK) == {"ex7.pipeline"}


def test_the_search_finds_the_courses_references_where_nothing_is_withheld() -> None:
    """The probe: on the course as it is (nothing withheld), the search finds what lesson 2
    declares, and the text fold's cut it did not declare at first."""
    namespace: dict = {}
    exec(equivalents.CELL, namespace)  # noqa: S102 (the search's own cell, in this process)
    namespace["_FOUND"] = {k: v for k, v in namespace["_FOUND"].items()
                           if k.startswith(("agentlib.messages", "agentlib.context"))}
    from classroom.grader.wire import Codec

    solution = equivalents.solution_namespace("02")
    found = {}
    for exercise in ("ex2.find_split", "ex2.safe_truncate"):
        records = Codec().decode(equivalents.record(exercise, solution))
        answers = namespace["_search"](records, list(equivalents.SHAPES))
        trivial = [set(v) for k, v in answers.items() if k.startswith("~")]
        found[exercise] = sorted(k for k, v in answers.items() if not k.startswith("~")
                                 and not any(set(v) <= t for t in trivial))
    assert "agentlib.messages:validate raised" in found["ex2.find_split"]
    assert {"agentlib.context.truncate:safe_start slice_back",
            "agentlib.context.textfold:text_cut slice"} <= set(found["ex2.safe_truncate"])


@pytest.mark.heavy  # a sandbox per assignment, every course function on every check
@pytest.mark.parametrize("assignment", COURSE)
def test_no_course_function_left_in_the_sandbox_does_an_exercises_work(
        copies: dict, assignment: str) -> None:
    exercises = assignments.course_assignments()[assignment]
    kernel = grade.kernel_for(copies["run"], copies["kernel"], f"s{assignment}", exercises)
    findings = equivalents.search(exercises, kernel, copies["box"])
    assert findings == [], "withhold these (own_work in classroom/checks): " + "; ".join(
        f"{f.exercise}: {f.candidate} ({f.shape})" for f in findings)


@pytest.mark.heavy  # every module of every assignment's copy, imported
def test_every_module_of_every_withheld_copy_imports(copies: dict) -> None:
    course = assignments.course_assignments()
    for assignment in COURSE:
        exercises = course[assignment]
        kernel = grade.kernel_for(copies["run"], copies["kernel"], f"i{assignment}", exercises)
        probe = in_kernel(kernel, "import importlib, pkgutil\nfor p in ('agentlib', 'coursekit',"
                          " 'apiwire'):\n    root = importlib.import_module(p)\n    for m in "
                          "pkgutil.walk_packages(root.__path__, p + '.'):\n        "
                          "importlib.import_module(m.name)\nprint('ok')")
        assert probe.stdout.strip() == "ok", (assignment, probe.stderr[-2000:])


def test_an_installed_copy_of_the_course_is_hidden_from_the_sandbox(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A regular `pip install` puts the course's source in site-packages, which the sandbox
    shows read-only: the sandbox covers those folders (an editable install has none there)."""
    import site

    from classroom.grader import sandbox

    packages = tmp_path / "lib" / "site-packages"
    for name in ("agentlib", "standin", "numpy"):
        (packages / name).mkdir(parents=True)
    monkeypatch.setattr(site, "getsitepackages", lambda: [str(packages)])
    monkeypatch.setattr(site, "getusersitepackages", lambda: str(tmp_path / "user"))
    real = os.path.realpath(packages)
    assert sandbox.hidden_copies([os.path.realpath(tmp_path / "lib")]) == [
        f"{real}/agentlib", f"{real}/standin"]
    assert sandbox.hidden_copies(["/usr"]) == []  # not shown: nothing to hide
