"""`course.py student-copy DIR`: the course to hand out, without the answers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_student_copy_has_the_course_but_no_answers(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        import course
    finally:
        sys.path.remove(str(ROOT))
    target = tmp_path / "for-students"
    assert course.student_copy(Path(sys.executable), [str(target)]) == 0
    assert not (target / "solutions").exists()
    assert sorted(p.name for p in (target / "tests").iterdir()) == ["conftest.py",
                                                                     "nbval_sanitize.cfg"]
    for folder in ("lessons", "exercises"):
        assert sorted(p.name for p in (target / folder).glob("*.ipynb")) == sorted(
            p.name for p in (ROOT / folder).glob("*.ipynb"))
    assert (target / "agentlib" / "checks" / "lesson02.py").exists()
    assert not list(target.rglob("__pycache__"))
    with pytest.raises(SystemExit, match="already exists"):
        course.student_copy(Path(sys.executable), [str(target)])
