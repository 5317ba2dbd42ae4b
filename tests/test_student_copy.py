"""`course.py student-copy DIR`: the course to hand out, without the answers and without the
teacher's tools: the agent, the kit and `check()` with the exercises' checks (the
learner's feedback), but no class grader, no sandbox, no exports, and an install that
brings no nbgrader."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_course(folder: Path, name: str):  # noqa: ANN201
    spec = importlib.util.spec_from_file_location(name, folder / "course.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("student") / "for-students"
    course = load_course(ROOT, "course_for_copy")
    assert course.student_copy(Path(sys.executable), [str(target)]) == 0
    return target


def test_the_student_copy_has_the_course_but_no_answers(copy: Path) -> None:
    course = load_course(ROOT, "course_for_copy")
    assert not (copy / "solutions").exists()
    assert sorted(p.name for p in (copy / "tests").iterdir()) == ["conftest.py",
                                                                   "nbval_sanitize.cfg"]
    for folder in ("lessons", "exercises"):
        assert sorted(p.name for p in (copy / folder).glob("*.ipynb")) == sorted(
            p.name for p in (ROOT / folder).glob("*.ipynb"))
    assert not list(copy.rglob("__pycache__"))
    with pytest.raises(SystemExit, match="already exists"):
        course.student_copy(Path(sys.executable), [str(copy)])


def test_it_has_the_agent_the_kit_and_the_checks_but_no_grader(copy: Path) -> None:
    for package in ("agentlib", "apiwire", "standin", "coursekit"):
        assert sorted(p.relative_to(copy) for p in (copy / package).rglob("*.py")) == sorted(
            p.relative_to(ROOT) for p in (ROOT / package).rglob("*.py")), package
    classroom = sorted(str(p.relative_to(copy / "classroom"))
                       for p in (copy / "classroom").rglob("*.py"))
    assert classroom == sorted(
        str(p.relative_to(ROOT / "classroom")) for p in (ROOT / "classroom").rglob("*.py")
        if "grader" not in p.relative_to(ROOT / "classroom").parts and p.name != "grade.py")
    assert {"grading.py", "ownwork.py", "harness.py", "checks/lesson02.py",
            "checks/ko.py"} <= set(classroom)
    assert not (copy / "classroom" / "grader").exists()  # the grader, its sandbox, nbgrader
    assert not (copy / "classroom" / "grade.py").exists()
    assert not (copy / "bench" / "grading.py").exists()
    assert (copy / "bench" / "agent_steps.py").exists()


def test_check_works_in_the_copy_without_the_grader(copy: Path) -> None:
    probe = subprocess.run(
        [sys.executable, "-P", "-c",
         "from classroom.grading import check\n"
         "from agentlib.messages import blocks\n"
         "def find_split(messages):\n"
         "    for i, m in enumerate(messages):\n"
         "        before = blocks(messages[i - 1]) if i > 0 else []\n"
         "        called = {b['id'] for b in before if b['type'] == 'tool_use'}\n"
         "        if any(b['type'] == 'tool_result' and b['tool_use_id'] not in called\n"
         "               for b in blocks(m)):\n"
         "            return i\n"
         "check('ex2.find_split')\n"
         "import importlib.util\n"
         "print('grader:', importlib.util.find_spec('classroom.grader'))"],
        capture_output=True, text=True, cwd=str(copy), timeout=300,
        env={**os.environ, "PYTHONPATH": str(copy), "AGENTLIB_OFFLINE": "1",
             "AGENTLIB_LANG": "en"})
    assert "3/3 checks passed" in probe.stdout, probe.stdout + probe.stderr
    assert probe.stdout.strip().endswith("grader: None")


def test_its_install_brings_no_nbgrader(copy: Path) -> None:
    course = load_course(copy, "course_in_copy")
    extras = tomllib.loads((copy / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    for command in ("lab", "test", "execute", "live-check"):
        wanted = course.extras_for(command)
        assert not any("nbgrader" in req for e in wanted for req in extras[e]), command
    with pytest.raises(SystemExit, match="not part of this copy"):
        course.teacher_tool(Path(sys.executable), "classroom.grade", [])
