"""The Korean edition stays in step with the English one: same code cells (the English
lesson is the source), Korean prose for every markdown cell, re-translated when the English
changes. scripts/translations.py does the work; these tests hold it to that."""

from __future__ import annotations

import copy
import importlib.util
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_script():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("translations",
                                                  ROOT / "scripts" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


tr = load_script()
PAIRS = tr.pairs()


def test_every_english_notebook_has_a_korean_twin_in_step():
    out = io.StringIO()
    with redirect_stdout(out):
        status = tr.check()
    assert status == 0, out.getvalue() + "\nfix: python scripts/translations.py sync, then " \
        "translate what it reports and re-execute the Korean notebooks"
    assert len(PAIRS) >= 19 and all(ko.exists() for _, ko in PAIRS)


@pytest.fixture(scope="module")
def lesson():
    en, ko = next((e, k) for e, k in PAIRS if e.name.startswith("01_"))
    return tr.read(en), tr.read(ko)


def test_a_changed_english_code_cell_is_drift_until_synced(lesson):
    en, ko = lesson
    assert tr.drift(en, ko) == []
    changed = copy.deepcopy(en)
    code = next(c for c in changed.cells if c.cell_type == "code")
    code.source += "\nprint('a new line in the English lesson')"
    assert tr.drift(changed, ko) == [f"code cell {code.id} differs from the English one"]
    rebuilt, missing = tr.build(changed, ko)
    assert missing == [] and tr.drift(changed, rebuilt) == []
    kept = [c.source for c in rebuilt.cells if c.cell_type == "markdown"]
    assert kept == [c.source for c in ko.cells if c.cell_type == "markdown"]  # Korean kept
    assert rebuilt.metadata["agentlib"]["lang"] == "ko"


def test_a_new_or_changed_english_cell_needs_translating(lesson):
    import nbformat

    en, ko = lesson
    changed = copy.deepcopy(en)
    prose = next(c for c in changed.cells if c.cell_type == "markdown")
    prose.source += "\n\nOne more English sentence."
    problems = tr.drift(changed, ko)
    assert len(problems) == 1 and f"markdown cell {prose.id}: the English changed" in problems[0]
    changed.cells.insert(1, nbformat.v4.new_markdown_cell("A new English cell."))
    rebuilt, missing = tr.build(changed, ko)
    assert missing == [changed.cells[1].id]
    assert f"markdown cell {changed.cells[1].id} is not translated" in tr.drift(changed, rebuilt)


def test_korean_notebooks_carry_the_english_code_outputs_of_their_own_run(lesson):
    en, ko = lesson
    en_code = [c for c in en.cells if c.cell_type == "code"]
    ko_code = [c for c in ko.cells if c.cell_type == "code"]
    assert [c.source for c in en_code] == [c.source for c in ko_code]
    assert all(c.execution_count for c in ko_code), "run: python3 course.py execute"


def test_export_then_import_round_trips(tmp_path, monkeypatch):
    import shutil

    en_path, ko_path = PAIRS[0]
    for path in (en_path, ko_path):  # work on copies: the test never writes the repo
        copy_to = tmp_path / path.relative_to(ROOT)
        copy_to.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, copy_to)
    monkeypatch.setattr(tr, "ROOT", tmp_path)
    ko_copy = tmp_path / ko_path.relative_to(ROOT)
    out = io.StringIO()
    with redirect_stdout(out):
        tr.export(str(ko_copy))
    text = out.getvalue()
    assert text.count("<!-- cell ") == sum(
        c.cell_type == "markdown" for c in tr.read(ko_copy).cells)
    exported = tmp_path / "x.md"
    exported.write_text(text, encoding="utf-8")
    with redirect_stdout(io.StringIO()):
        assert tr.import_text(str(exported)) == 0
    assert ko_copy.read_bytes() == ko_path.read_bytes()  # the same notebook back
    exported.write_text(text.replace("<!-- cell ", "<!-- cell x", 1), encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert tr.import_text(str(exported)) == 1  # an unknown cell is reported, not skipped
    assert "no markdown cell with this id" in out.getvalue()
