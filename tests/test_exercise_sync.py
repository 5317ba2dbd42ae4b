"""exercises/ is generated from solutions/: the two never drift, and the generator is right."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parent.parent


def load_script():  # noqa: ANN201
    """scripts/make_exercises.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "scripts" / "make_exercises.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


make = load_script()


@pytest.mark.parametrize("edition", ["en", "ko"])
def test_exercises_are_generated_from_solutions(edition: str) -> None:
    sub = "" if edition == "en" else "ko"
    if edition == "ko":
        assert (ROOT / "solutions" / "ko").is_dir(), "the Korean edition has no solutions/ko"
    problems = make.drift(ROOT / "solutions" / sub, ROOT / "exercises" / sub)
    assert not problems, "\n".join(problems) + "\nrun: python3 course.py exercises"


def test_the_generator_writes_both_editions_by_default() -> None:
    assert make.folders(None, None) == [
        (ROOT / "solutions", ROOT / "exercises"),
        (ROOT / "solutions" / "ko", ROOT / "exercises" / "ko")]


def solution_notebook() -> nbformat.NotebookNode:
    code = new_code_cell(
        "def keep_last(messages, n):\n"
        '    """Keep the last n messages."""\n'
        "    ### BEGIN SOLUTION\n"
        "    if n <= 0:\n"
        "        return []\n"
        "    return messages[-n:]\n"
        "    ### END SOLUTION\n"
        "\n"
        "### BEGIN SOLUTION\n"
        "HELPER = 1\n"
        "### END SOLUTION",
        execution_count=3,
        outputs=[new_output("stream", name="stdout", text="hello\n")],
    )
    code.metadata["execution"] = {"iopub.status.busy": "2025-01-01T00:00:00Z"}
    answer = new_markdown_cell("Why?\n\n<!-- BEGIN SOLUTION -->\nBecause\nit splits pairs.\n"
                               "<!-- END SOLUTION -->\n\nNext.")
    hidden = new_code_cell("print('only in solutions')", metadata={"tags": ["solution-only"]})
    check = new_code_cell("from classroom.grading import check\ncheck('l02.keep_last')")
    return new_notebook(cells=[code, answer, hidden, check])


def test_solution_regions_become_stubs_at_their_indentation() -> None:
    ex = make.make_exercise(solution_notebook())
    assert ex.cells[0].source == (
        "def keep_last(messages, n):\n"
        '    """Keep the last n messages."""\n'
        "    # YOUR CODE HERE\n"
        "    raise NotImplementedError()\n"
        "\n"
        "# YOUR CODE HERE\n"
        "raise NotImplementedError()"
    )


def test_outputs_counts_and_timing_are_cleared() -> None:
    ex = make.make_exercise(solution_notebook())
    assert ex.cells[0].outputs == []
    assert ex.cells[0].execution_count is None
    assert "execution" not in ex.cells[0].metadata


def test_markdown_answers_are_replaced_and_solution_only_cells_dropped() -> None:
    ex = make.make_exercise(solution_notebook())
    assert ex.cells[1].source == "Why?\n\nYOUR ANSWER HERE\n\nNext."
    assert len(ex.cells) == 3
    assert all("only in solutions" not in c.source for c in ex.cells)


def test_exercise_list_is_declared_for_the_grader() -> None:
    nb = solution_notebook()
    assert make.make_exercise(nb).metadata["agentlib"]["exercises"] == ["l02.keep_last"]
    nb.metadata["agentlib"] = {"exercises": ["l02.a", "l02.b"]}
    assert make.make_exercise(nb).metadata["agentlib"]["exercises"] == ["l02.a", "l02.b"]


def test_the_solution_is_not_modified_and_output_is_deterministic() -> None:
    nb = solution_notebook()
    before = nbformat.writes(nb)
    first, second = make.render(make.make_exercise(nb)), make.render(make.make_exercise(nb))
    assert nbformat.writes(nb) == before
    assert first == second and first.endswith("}\n") and not first.endswith("\n\n")


@pytest.mark.parametrize("source, problem", [
    ("### BEGIN SOLUTION\nx = 1", "without `### END SOLUTION`"),
    ("x = 1\n### END SOLUTION", "without BEGIN"),
    ("### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION", "nested"),
])
def test_broken_markers_are_reported(source: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        make.strip_code(source, "demo.ipynb cell 1")


def test_check_mode_reports_stale_missing_and_extra_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    for name in ["a.ipynb", "b.ipynb"]:
        nbformat.write(solution_notebook(), str(solutions / name))
    args = ["--solutions", str(solutions), "--exercises", str(exercises)]
    assert make.main(args) == 0
    assert make.main([*args, "--check"]) == 0
    (exercises / "a.ipynb").write_text("{}", encoding="utf-8")
    (exercises / "b.ipynb").unlink()
    (exercises / "c.ipynb").write_text("{}", encoding="utf-8")
    capsys.readouterr()
    assert make.main([*args, "--check"]) == 1
    out = capsys.readouterr().out
    assert "stale: exercises/a.ipynb" in out
    assert "missing: exercises/b.ipynb" in out
    assert "extra: exercises/c.ipynb" in out
    assert make.main(args) == 0 and make.main([*args, "--check"]) == 0
