"""Every figure of a Korean lesson speaks Korean and is finished: no Latin-script word in a
title, legend, axis label, tick label or note (except code names, API names and units), no
legend or note outside its axes, no two labels on top of each other, no reference line
across a note, no scientific notation on a count axis, → and thousands separators in notes.

The words and the placement are read from the saved notebook: in a Korean kernel
coursekit.i18n records each figure's texts, after translation, in the image output's
metadata (`agentlib.figure_texts`), and what coursekit.viz.layout.problems found with
matplotlib's renderer (`agentlib.layout`), so this test needs no kernel and no drawing. A
figure saved without that record (a notebook not re-executed since) fails as such. The
plotting functions are also drawn here, in Korean, and measured the same way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coursekit import bench, i18n

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "lessons" / "ko").glob("*.ipynb"))

# Latin words a Korean figure may show: names from the code (parameters, strategies,
# workloads, classes, tools), API names, and units.
KEPT = {
    # parameters and values from the code
    "keep", "trigger", "cache", "True", "False", "max_tokens", "down_to", "at_least",
    # strategy and class names (agentlib, coursekit.bench)
    "cap", "clear", "compact", "notes", "memory", "Clearing", "BatchClearing", "Compactor",
    "LowWaterCompactor", "SlidingWindow", "Notes", "Team", "delegate",
    # workloads and tools
    "audit", "needle", "constraints", "read_file", "list_files", "search",
    # API names
    "tool_use", "tool_result", "usage", "input_tokens", "clear_tool_uses_20250919",
    "compact_20260112", "memory_20250818", "Claude", "Sonnet", "Haiku", "API",
    # units and marks
    "K", "M", "x", "s", "ms",
}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_0-9.-]*")

# The benchmark's strategy names ("cache-aware, no bp", "server clear+bp") are names from the
# code (`coursekit.bench.strategies`), shown as they are; "append-only" has its Korean.
STRATEGY_NAMES = sorted({name for size in bench.SIZES.values()
                         for name in bench.strategies(size, None, ".")} - {"append-only"},
                        key=len, reverse=True)

# Korean lessons whose saved figures predate the catalog (name -> why).
NOT_YET: dict[str, str] = {}


def figures(path: Path, key: str = "figure_texts") -> list[tuple[str, list[str] | None]]:
    """(cell id, the figure's record `key` or None if unrecorded) for each image output."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}):
                record = out.get("metadata", {}).get("agentlib", {})
                found.append((cell["id"], record.get(key)))
    return found


def foreign(text: str) -> list[str]:
    words = []
    text = re.sub(r"\d(?:\.\d+)?e[+-]?\d+", " ", text)  # 1e+06 is a number
    for name in STRATEGY_NAMES:
        text = text.replace(name, " ")
    for word in LATIN_WORD.findall(text):
        bare = word.strip(".-")
        if not bare or bare in KEPT or any(ch.isdigit() for ch in bare) or "_" in bare:
            continue
        if re.fullmatch(r"[A-Z]{1,3}", bare):  # K, M, MB, RAM-like units and marks
            continue
        words.append(bare)
    return words


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_korean_figures_have_no_english_words(path):
    if path.name in NOT_YET:
        pytest.xfail(NOT_YET[path.name])
    bad, unrecorded = [], []
    for cell_id, texts in figures(path):
        if texts is None:
            unrecorded.append(cell_id)
            continue
        for text in texts:
            if foreign(text):
                bad.append(f"{cell_id}: {text!r} ({', '.join(foreign(text))})")
    assert not unrecorded, (f"{path.name}: figures saved without their texts (re-execute the "
                            f"notebook): cells {unrecorded}")
    assert not bad, f"{path.name}: English in a Korean figure:\n" + "\n".join(bad)


def test_a_template_never_matches_inside_another_phrase(monkeypatch):
    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    assert i18n.translate("8,000 tokens") == "토큰 8,000개"
    assert i18n.translate("input tokens") == "입력 토큰"  # not "토큰 input개"
    assert i18n.translate("step 12") == "12단계"
    assert i18n.translate("step slider") == "step slider"  # no number, no template


def test_tick_labels_are_translated(monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    fig, ax = plt.subplots()
    ax.barh(["team: everything", "team: 60 tokens by feel"], [1, 2])
    i18n.localize_figure(fig)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    plt.close(fig)
    assert labels == ["팀: 전부", "팀: 감으로 60 토큰"]
    assert not any(foreign(label) for label in labels)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_korean_figures_have_their_words_in_place(path):
    """Legends and notes inside their axes, no label over another, no reference line across
    a note (coursekit.viz.layout.problems, recorded when the figure was shown)."""
    bad, unrecorded = [], []
    for cell_id, found in figures(path, "layout"):
        if found is None:
            unrecorded.append(cell_id)
        bad += [f"{cell_id}: {problem}" for problem in found or []]
    assert not unrecorded, f"{path.name}: figures saved without their layout (re-execute): " \
                           f"{unrecorded}"
    assert not bad, f"{path.name}: words out of place:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_korean_figures_write_numbers_and_arrows_as_koreans_read_them(path):
    """No 1e+06 on a count axis, no "->" in a note, and thousands separated (~45,726)."""
    bad = []
    for cell_id, texts in figures(path):
        for text in texts or []:
            numbers = re.sub(r"\S*[A-Za-z_(]\S*", " ", text)  # names with digits: audit(100)
            if re.search(r"\de[+-]\d", text) or "->" in text or \
                    re.search(r"(?<![\d,.])\d{4,}(?![\d,])", numbers):
                bad.append(f"{cell_id}: {text!r}")
    assert not bad, f"{path.name}:\n" + "\n".join(bad)


def test_the_layout_check_can_fail(monkeypatch):
    """A legend pushed outside its axes and two notes on one spot are found."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coursekit.viz.layout import problems

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.annotate("note one", (0.5, 0.5))
    ax.annotate("note two", (0.5, 0.5))
    ax.axhline(0.5)
    found = problems(fig)
    plt.close(fig)
    assert any("legend runs outside" in p for p in found), found
    assert any("note 'note one' overlaps" in p for p in found), found
    assert any("reference line crosses" in p for p in found), found


def test_the_course_plots_lay_out_korean_words(monkeypatch):
    """The plotting functions, drawn in Korean with notes, legends and long labels: nothing
    out of place."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from test_i18n import figures as course_figures

    from coursekit.viz.layout import problems

    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    found = []
    for fig in course_figures():
        found += problems(fig)
        plt.close(fig)
    assert not found, found


def test_a_count_axis_has_no_scientific_notation(monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coursekit import viz

    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    fig = viz.plot_bars({"a": {"input tokens": 812_069}, "b": {"input tokens": 1_250_000}},
                        ["input tokens"])
    fig.canvas.draw()
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    plt.close(fig)
    assert "1,000,000" in ticks and not any("e+" in t for t in ticks), ticks
