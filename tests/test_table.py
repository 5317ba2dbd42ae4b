"""Printed tables line up in both editions (issue 33 item 2): Hangul counted at double width,
by one helper (coursekit.table) that every lesson uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

from coursekit import i18n
from coursekit.table import cols, pad, table

ROOT = Path(__file__).resolve().parent.parent


def test_hangul_takes_two_columns():
    assert cols("abc") == 3
    assert cols("한국어") == 6
    assert cols("추가 전용, 8K 윈도우") == 20
    assert pad("한국어", 8) == "한국어  "
    assert pad("한국어", 8, right=True) == "  한국어"
    assert pad("x", 4, center=True) == " x  "


def lines_end_together(text: str) -> bool:
    return len({cols(line) for line in text.splitlines()}) == 1


def test_a_korean_table_lines_up(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    rows = [["append-only, 8K window", "400", False, 13, 7_789],
            ["clearing, 8K window", "answered", True, 16, 4_669]]
    out = table(rows, ["", "stopped", "success", "calls", "peak"])
    assert "추가 전용, 8K 윈도우" in out and "답함" in out and "7,789" in out, out
    assert lines_end_together(out), out
    starts = [cols(line[:line.index("400" if "400" in line else "답함")]) for line in
              out.splitlines()[1:]]
    assert starts[0] + cols("400") == starts[1] + cols("답함")  # right-aligned, by columns


def test_an_english_table_is_as_before(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "en")
    out = table({"keep 4": [6, 0.33]}, ["", "calls", "recall"])
    assert out.splitlines() == ["        calls  recall", "keep 4      6    0.33"]


def test_a_template_pads_text_by_columns(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    a = i18n.fill("{x:10}|", x="한국어")
    b = i18n.fill("{x:10}|", x="abc")
    assert cols(a) == cols(b) == 11


def code_cells() -> list[tuple[str, str, str]]:
    found = []
    for folder in ("lessons", "solutions"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] == "code":
                    found.append((path.name, cell["id"], "".join(cell["source"])))
    return found


def test_every_lesson_aligns_with_the_one_helper():
    """No notebook measures text width on its own (a `cols`/`pad` of its own, or
    east_asian_width): coursekit.table does it for all."""
    bad = [f"{name} {cell}" for name, cell, code in code_cells()
           if re.search(r"def (cols|pad)\(|east_asian_width", code)]
    assert not bad, bad


def test_no_lesson_pads_a_label_by_characters():
    """A text column padded with an f-string width (`{label:30}`) counts characters: a
    Korean label then runs out of line. Tables go through coursekit.table.table."""
    pattern = re.compile(r"\{(label|name|say\([^)]*\)|run\.label|r\['set-up'\]|kind|who|way)"
                         r"(!s)?:[<>^]?\d+\}")
    fstrings = re.compile(r"\bf(\"[^\"\n]*\"|'[^'\n]*')")  # say() templates pad by columns
    bad = [f"{name} {cell}: {m.group(0)}" for name, cell, code in code_cells()
           for literal in fstrings.findall(code) for m in pattern.finditer(literal)]
    assert not bad, bad
