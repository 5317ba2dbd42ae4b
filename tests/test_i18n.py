"""The Korean edition's plumbing: which language a notebook reads, Hangul in plots with a
real font, every word the library draws or prints has its Korean, every check too."""

from __future__ import annotations

import re
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from test_viz import fake_run  # noqa: E402

from coursekit import i18n, viz  # noqa: E402

HANGUL = re.compile(r"[\uac00-\ud7a3]")
KEPT_AS_IS = {"tool_use", "tool_result"}  # the API's own names stay as they are


@pytest.fixture
def korean(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")


def test_the_language_comes_from_the_variable_or_the_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("AGENTLIB_LANG", raising=False)
    (tmp_path / "ko").mkdir()
    monkeypatch.chdir(tmp_path)
    assert i18n.lang() == "en"
    monkeypatch.chdir(tmp_path / "ko")  # where Jupyter starts a Korean notebook's kernel
    assert i18n.lang() == "ko"
    monkeypatch.setenv("AGENTLIB_LANG", "en")
    assert i18n.lang() == "en"
    monkeypatch.setenv("AGENTLIB_LANG", "fr")
    with pytest.raises(ValueError, match="AGENTLIB_LANG must be one of en, ko"):
        i18n.lang()


def test_templates_translate_filled_in_text(korean):
    assert i18n.translate("window (8,000)") == "윈도우 (8,000)"
    assert i18n.translate("what fills the window: 감사") == "윈도우를 채우는 것: 감사"
    assert i18n.translate("something the catalog lacks") == "something the catalog lacks"
    assert i18n.say("{passed}/{total} checks passed", passed=2, total=3) == "검사 3개 중 2개 통과"


def test_a_korean_font_is_installed_with_the_course():
    assert i18n.korean_font_file() is not None, "koreanize-matplotlib is a dependency"


def figures(a="추가만 하기", b="비우기", ok="성공", tok="토큰"):
    runs = {a: fake_run(a, error_at=4), b: fake_run(b)}
    yield viz.plot_tokens(runs, window=450, estimates=True)
    yield viz.plot_window_fill(fake_run(b), window=450, marks=True)
    for run in runs.values():
        for s in run.steps:
            s.cache_read, s.cache_write = s.input_tokens // 2, s.input_tokens // 4
    yield viz.plot_cache(runs, ratios=(0.1, 1.25))
    yield viz.plot_bars({a: {ok: 1, tok: 3}, b: {ok: 0, tok: 2}}, [ok, tok])
    yield viz.plot_estimate_error({b: {"usage": [100, 120], "chars/4": [90, 100]}})


def texts(fig) -> list[str]:
    found = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        found += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel(),
                  *(t.get_text() for t in ax.texts)]
        legend = ax.get_legend()
        found += [t.get_text() for t in legend.get_texts()] if legend else []
    return [t for t in found if t]


def test_plots_speak_korean_with_no_missing_glyphs(korean):
    for fig in figures():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig.canvas.draw()
        assert [str(w.message) for w in caught if "Glyph" in str(w.message)] == []
        english = [t for t in texts(fig) if re.search(r"[A-Za-z]{3,}", t)
                   and not HANGUL.search(t) and t not in KEPT_AS_IS]
        assert english == [], f"untranslated plot text: {english}"
        plt.close(fig)


def test_english_plots_stay_english(monkeypatch, tmp_path):
    monkeypatch.delenv("AGENTLIB_LANG", raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(tmp_path)
    for fig in figures("append-only", "clearing", "success", "tokens"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig.canvas.draw()
        assert [str(w.message) for w in caught if "Glyph" in str(w.message)] == []
        assert not [t for t in texts(fig) if HANGUL.search(t)]  # events stay English too
        plt.close(fig)


def test_the_window_viewer_speaks_korean(korean):
    html = viz.show_step(fake_run("비우기"), window=450).html
    assert "메시지" in html and "시스템 프롬프트" in html and "messages ·" not in html


def test_a_notebook_declares_its_language_in_its_metadata(monkeypatch, tmp_path):
    monkeypatch.delenv("AGENTLIB_LANG", raising=False)
    monkeypatch.chdir(tmp_path)
    notebook = tmp_path / "moved_out_of_ko.ipynb"
    notebook.write_text('{"metadata": {"agentlib": {"lang": "ko"}}, "cells": []}',
                        encoding="utf-8")
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))  # what Jupyter tells the kernel
    assert i18n.lang() == "ko"
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "gone.ipynb"))
    assert i18n.lang() == "en"


def all_checks():
    import importlib
    import pkgutil

    import classroom.checks as package
    from classroom import grading

    for module in pkgutil.iter_modules(package.__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"classroom.checks.{module.name}")
    return [(exercise, c) for exercise, checks in grading.CHECKS.items() for c in checks
            if c.fn.__module__.startswith("classroom.checks.")]  # not a test's own checks


def test_every_check_speaks_both_languages():
    from classroom.checks.ko import CHECKS_KO

    checks = all_checks()
    assert len(checks) > 100
    missing = [f"{ex}: {c.title}" for ex, c in checks if (ex, c.title) not in CHECKS_KO]
    assert not missing, "no Korean in classroom/checks/ko.py for:\n" + "\n".join(missing)
    for ex, c in checks:
        title, hint = CHECKS_KO[ex, c.title]
        assert HANGUL.search(title), f"{ex}: {c.title}: the Korean title has no Hangul"
        assert not c.hint or HANGUL.search(hint), f"{ex}: {c.title}: the hint is not in Korean"
    stale = set(CHECKS_KO) - {(ex, c.title) for ex, c in checks}
    assert not stale, f"classroom/checks/ko.py has entries for checks that do not exist: {stale}"


def test_check_lines_follow_the_notebook(korean):
    from classroom import grading
    from classroom.checks.ko import CHECKS_KO

    (exercise, title), (korean_title, _) = next(iter(CHECKS_KO.items()))
    result = grading.Result(exercise, title, "fail", "it returned 3", "the hint")
    line = result.line()
    assert korean_title in line and "실패" in line and "it returned 3" in line
    assert "실패" not in result.line(language="en")


def CHECKS_KO_TITLE(exercise, title):  # noqa: N802
    from classroom.checks.ko import CHECKS_KO
    return CHECKS_KO[exercise, title][0]


def test_the_grader_reports_in_the_teachers_language(tmp_path):
    from classroom.grader import feedback
    from classroom.grader.gradebook import Graded

    (exercise, c), *_ = all_checks()
    g = Graded("kim", "01", "01_append_only_growth.ipynb", "0" * 64, [(exercise, c.title, 1.0)],
               results=[{"exercise": exercise, "check": c.title, "status": "fail",
                         "detail": "returned None", "hint": c.hint}])
    english = feedback.markdown(g, "en")
    assert "Assignment 01: kim" in english and c.title in english and not HANGUL.search(english)
    korean = feedback.markdown(g, "ko")
    assert "과제 01: kim" in korean and "실패" in korean and "힌트" in korean
    assert c.title not in korean and "returned None" in korean  # details are data, kept
    g.results[0]["detail"] = "not attempted yet"
    assert "아직 시도하지 않았습니다" in feedback.markdown(g, "ko")
    from classroom.grade import table
    assert CHECKS_KO_TITLE(exercise, c.title) in table([g], "ko")
    feedback.write_reports(tmp_path, g, "ko")
    page = (tmp_path / "kim" / "01.html").read_text(encoding="utf-8")
    assert '<html lang="ko">' in page and "과제 01: kim" in page
    feedback.write_summary(tmp_path, [g], "ko")
    assert "| 학생 | 과제 01 | 합계 |" in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_a_lessons_own_figure_is_translated_before_jupyter_draws_it(korean):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.events.register("post_execute", lambda: None)  # e.g. the backend's flush, first
        assert i18n.install_figure_hook()
        assert shell.events.callbacks["post_execute"][0] is i18n.localize_open_figures
        fig, ax = plt.subplots()
        ax.set_title("audit(12): the history only grows")
        ax.bar(["a"], [1], label="silent cut")
        ax.legend()
        ax.set_xlabel("requests")
        shell.events.trigger("post_execute")
        assert ax.get_title() == "audit(12): 히스토리는 커지기만 한다"
        assert ax.xaxis.label.get_text() == "요청 수"
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["말없이 자르기"]
        plt.close(fig)
    finally:
        InteractiveShell.clear_instance()
