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

from agentlib import i18n, viz  # noqa: E402

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


def figures():
    runs = {"추가만 하기": fake_run("추가만 하기", error_at=4), "비우기": fake_run("비우기")}
    yield viz.plot_tokens(runs, window=450, estimates=True)
    yield viz.plot_window_fill(fake_run("비우기"), window=450, marks=True)
    for run in runs.values():
        for s in run.steps:
            s.cache_read, s.cache_write = s.input_tokens // 2, s.input_tokens // 4
    yield viz.plot_cache(runs, ratios=(0.1, 1.25))
    yield viz.plot_bars({"가": {"성공": 1, "토큰": 3}, "나": {"성공": 0, "토큰": 2}},
                        ["성공", "토큰"])
    yield viz.plot_estimate_error({"감사": {"usage": [100, 120], "chars/4": [90, 100]}})


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


def test_the_window_viewer_speaks_korean(korean):
    html = viz.show_step(fake_run("비우기"), window=450).html
    assert "메시지" in html and "시스템 프롬프트" in html and "messages ·" not in html
