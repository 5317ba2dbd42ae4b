"""Every figure a lesson's prose quotes is printed or computed by that notebook (issue 23).

Both editions. The reading rules are scripts/prose_figures.py's; a documented API constant
is allowed only where the notebook's metadata names its place in docs/api-facts.md and the
figure is there. A re-execution that moves a figure fails here until the prose follows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import prose_figures  # noqa: E402

LESSONS = prose_figures.lessons()


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_quoted_figure_is_shown_by_its_notebook(path):
    problems = [f"cell {i}: {figure}" for i, figure in prose_figures.missing(path)]
    problems += prose_figures.check_documented(path)
    assert not problems, (f"{path.relative_to(ROOT)} quotes figures it does not print or "
                          "compute: " + "; ".join(problems))


def notebook(markdown: str, printed: str, documented: dict | None = None) -> dict:
    return {"metadata": {"agentlib": {"documented_figures": documented or {}}},
            "cells": [{"cell_type": "markdown", "source": markdown},
                      {"cell_type": "code", "source": "run()",
                       "outputs": [{"output_type": "stream", "name": "stdout",
                                    "text": printed}]}]}


def quoted_and_missing(tmp_path, markdown, printed, documented=None):
    path = tmp_path / "probe.ipynb"
    path.write_text(json.dumps(notebook(markdown, printed, documented)), encoding="utf-8")
    return [f for _, f in prose_figures.missing(path)], prose_figures.check_documented(path)


def test_a_figure_not_printed_fails_and_a_rounded_one_passes(tmp_path):
    missing, _ = quoted_and_missing(
        tmp_path, "It drops to 2,000 to 2,600 tokens, 0.69× the cost, 87% of the window, "
        "4.51M input tokens, 55K.", "2,835 tokens; ratio 0.6874; share 0.873; 4,512,345; 55,012")
    assert missing == ["2,000", "2,600"]


def test_counts_identifiers_and_lesson_names_are_not_figures(tmp_path):
    missing, _ = quoted_and_missing(
        tmp_path, "In lesson 12, 3 tools, `clear_tool_uses_20250919`, claude-sonnet-4-5, "
        "Sonnet 5.5, 05b, [link](https://x.test/123456).", "nothing")
    assert missing == []


def test_korean_prose_is_read_too(tmp_path):
    missing, _ = quoted_and_missing(tmp_path, "요청은 8,812개 토큰이고 비용은 1.37배, 451만 토큰입니다.",
                                    "8812 tokens, 4,512,345")
    assert missing == ["1.37"]


def test_a_documented_figure_must_be_where_it_says(tmp_path):
    missing, problems = quoted_and_missing(
        tmp_path, "The default trigger is 100,000 input tokens; the window 999,999.", "",
        {"100,000": "| 6.2 |", "999,999": "| 6.2 |"})
    assert missing == [] and len(problems) == 1 and "999,999" in problems[0]


def test_a_cell_of_measured_figures_names_its_command(tmp_path):
    nb = notebook("Lesson 2 runs in 22 s.", "")
    nb["cells"][0]["metadata"] = {"agentlib": {"measured": "scripts/execute_notebooks.py --time-only"}}
    path = tmp_path / "probe.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert prose_figures.missing(path) == [] and prose_figures.check_documented(path) == []
    nb["cells"][0]["metadata"]["agentlib"]["measured"] = "scripts/no_such_script.py"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert prose_figures.missing(path) == []
    assert "not in the repo" in prose_figures.check_documented(path)[0]
    del nb["cells"][0]["metadata"]
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert [f for _, f in prose_figures.missing(path)] == ["22"]
