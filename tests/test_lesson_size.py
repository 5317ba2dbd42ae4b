"""Every lesson fits a sitting in practice, not only by the 40-minute estimate: at most 250
non-blank lines of code and 120 lines of printed text per lesson notebook, both editions
(issue 32 item 4). Counted as the before-stop checklist counts them: every non-blank line of
every code cell; every line of stream output, and of plain-text results that are not a
figure's text beside its image.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_CODE_LINES = 250
MAX_PRINTED_LINES = 120
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb")) + sorted((ROOT / "lessons" / "ko").glob("*.ipynb"))

# Lessons over a limit today, each in both editions, to be split by issue 32 item 4 together
# with issue 38; lesson 9 waits for that pass (lesson 7 is split into 07 and 07b). The test
# fails when one of them already fits, so that this list only shrinks: delete its name then.
PENDING = {
    "09_tools_in_the_window.ipynb": "issue 32 item 4 / issue 38: 253 code lines",
}


def size(path: Path) -> tuple[int, int]:
    """(non-blank code lines, printed lines) of a notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = printed = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        code += sum(1 for line in source.splitlines() if line.strip())
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                text = out["text"]
            elif "text/plain" in out.get("data", {}) and "image/png" not in out["data"]:
                text = out["data"]["text/plain"]
            else:
                continue
            printed += len(("".join(text) if isinstance(text, list) else text).splitlines())
    return code, printed


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_lesson_fits_a_sitting(path: Path) -> None:
    code, printed = size(path)
    fits = code <= MAX_CODE_LINES and printed <= MAX_PRINTED_LINES
    if path.name in PENDING:
        assert not fits, (f"{path.relative_to(ROOT)} fits now ({code} code lines, {printed} "
                          "printed): delete it from PENDING in tests/test_lesson_size.py")
        pytest.xfail(PENDING[path.name])
    assert fits, (f"{path.relative_to(ROOT)}: {code} non-blank code lines (at most "
                  f"{MAX_CODE_LINES}), {printed} printed lines (at most {MAX_PRINTED_LINES}): "
                  "split the lesson or trim it")


def test_the_count_reads_code_and_printed_lines_as_the_checklist_does(tmp_path: Path) -> None:
    nb = {"cells": [
        {"cell_type": "markdown", "source": "x = 1\n"},
        {"cell_type": "code", "source": ["a = 1\n", "\n", "  \n", "print(a)\n"], "outputs": [
            {"output_type": "stream", "name": "stdout", "text": ["1\n", "2\n"]},
            {"output_type": "execute_result", "data": {"text/plain": "3\n4"}},
            {"output_type": "display_data", "data": {"image/png": "...", "text/plain": "<Figure>"}},
        ]}]}
    path = tmp_path / "probe.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert size(path) == (2, 4)
