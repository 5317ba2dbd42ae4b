"""Tests for coursekit.viz: token plots and the context-window viewer, on fake runs."""

from __future__ import annotations

import re
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from agentlib import models, tokens  # noqa: E402
from agentlib.messages import SUMMARY_MARK, TRUNCATION_MARK  # noqa: E402
from coursekit import viz

SYSTEM = "You audit service configs. Answer with every service whose timeout_s > 30."
TOOLS = [
    {"name": "read_file", "description": "Read a file.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
    {"name": "list_files", "description": "List files.",
     "input_schema": {"type": "object", "properties": {}}},
]


def use(i: int, path: str) -> dict:
    return {"type": "tool_use", "id": f"toolu_{i:02d}", "name": "read_file",
            "input": {"path": path}}


def result(i: int, content, **kw) -> dict:
    return {"type": "tool_result", "tool_use_id": f"toolu_{i:02d}", "content": content, **kw}


def history() -> list[dict]:
    """Ten messages with one block of every kind the viewer colours."""
    return [
        {"role": "user", "content": f"{SUMMARY_MARK}\nGoal: audit. Found svc-01=45."},
        {"role": "assistant", "content": [{"type": "text", "text": "Reading the next file."},
                                          use(1, "svc-03.conf")]},
        {"role": "user", "content": [result(1, "timeout_s = 45\n" + "log line\n" * 80)]},
        {"role": "assistant", "content": [use(2, "svc-04.conf")]},
        {"role": "user", "content": [result(2, [{"type": "text",
                                                 "text": "[cleared: re-run the tool]"}])]},
        {"role": "assistant", "content": [use(3, "missing.conf")]},
        {"role": "user", "content": [result(3, "no such file", is_error=True)]},
        {"role": "assistant", "content": [{"type": "compaction", "content": "Earlier: 3 files."}]},
        {"role": "user", "content": [{"type": "text",
                                      "text": TRUNCATION_MARK + ": 12 messages]"},
                                     {"type": "text", "text": "<script>alert('x')</script>"}]},
        {"role": "assistant", "content": "svc-01 (45), svc-03 (45)."},
    ]


def step(i: int, n: int, *, error: str | None = None, events=(), sent=None):
    return SimpleNamespace(index=i, input_tokens=0 if error else n, output_tokens=20,
                           estimate=n, events=list(events), error=error,
                           sent=sent if sent is not None else history()[: 2 * i + 1])


def fake_run(label: str = "append-only", n: int = 5, error_at: int | None = None):
    steps = [step(i, 100 * (i + 1), error="prompt is too long" if i == error_at else None,
                  events=["cleared 1 results (-120 tokens)"] if i == 2 else ()) for i in range(n)]
    return SimpleNamespace(steps=steps, system=SYSTEM, tools=TOOLS, history=history(),
                           label=label)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ---------------------------------------------------------------- plots


def test_plot_tokens_two_panels_lines_window_and_errors(capsys):
    runs = [fake_run("append-only", error_at=4), fake_run("clearing")]
    fig = viz.plot_tokens(runs, window=450, title="tokens")
    assert len(fig.axes) == 2
    per_step, total = fig.axes
    labels = [line.get_label() for line in per_step.get_lines()]
    assert "append-only" in labels and "clearing" in labels
    assert [line.get_gid() for line in per_step.get_lines()].count("window") == 1
    errors = [line for line in per_step.get_lines() if line.get_gid() == "error"]
    assert len(errors) == 1 and list(errors[0].get_xdata()) == [4]
    assert errors[0].get_markerfacecolor() and errors[0].get_marker() == "x"
    assert len(total.get_lines()) == 2
    cumulative = total.get_lines()[1].get_ydata()
    assert list(cumulative) == [100, 300, 600, 1000, 1500]
    assert capsys.readouterr().out == ""


def test_plot_tokens_accepts_one_run_a_dict_and_one_panel():
    fig = viz.plot_tokens(fake_run(), cumulative=False)
    assert len(fig.axes) == 1
    fig = viz.plot_tokens({"a": fake_run(), "b": fake_run()})
    assert {line.get_label() for line in fig.axes[0].get_lines()} >= {"a", "b"}
    fig, ax = plt.subplots()
    assert viz.plot_tokens(fake_run(), ax=ax) is fig


def test_plot_bars_panels_and_grouped():
    table = {"append-only": {"tokens": 12000, "success": 1.0},
             "clearing": {"tokens": 5000, "success": 0.5}}
    fig = viz.plot_bars(table, ["tokens", "success"])
    assert len(fig.axes) == 2 and all(len(ax.patches) == 2 for ax in fig.axes)
    fig, ax = plt.subplots()
    assert viz.plot_bars(table, ["tokens", "success"], ax=ax) is fig
    assert len(ax.patches) == 4


def test_plot_window_fill_stacks_every_group():
    fig = viz.plot_window_fill(fake_run(), window=2000)
    ax = fig.axes[0]
    assert len(ax.collections) == len(viz.FILL_GROUPS)
    assert [line.get_gid() for line in ax.get_lines()] == ["window"]


def test_plot_window_fill_draws_what_is_outside_and_marks_the_strategies():
    run = fake_run()
    run.steps[3].events = ["compacted 4 messages"]
    fig = viz.plot_window_fill(run, window=2000, outside={"notes file": [0, 5, 9, 14, 20]},
                               marks=True)
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert "notes file (outside the window)" in labels
    assert "clearing acted" in labels and "compaction acted" in labels
    marks = {line.get_label(): list(line.get_xdata()) for line in fig.axes[0].get_lines()}
    assert marks["clearing acted"] == [2] and marks["compaction acted"] == [3]


def test_plot_tokens_with_estimates_draws_a_dotted_line_per_run():
    fig = viz.plot_tokens(fake_run("a"), cumulative=False, estimates=True)
    dotted = [line for line in fig.axes[0].get_lines() if line.get_label() == "a, chars/4"]
    assert len(dotted) == 1 and dotted[0].get_linestyle() == ":"


def test_plot_estimate_error_in_percent_per_estimate():
    table = {"audit": {"usage": [100, 200], "chars/4": [50, 150], "calibrated": [50, 198]}}
    fig = viz.plot_estimate_error(table)
    lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].get_lines()}
    assert lines["audit: chars/4"] == [-50.0, -25.0]
    assert lines["audit: calibrated"] == pytest.approx([-50.0, -1.0])


def test_plot_sweep_shades_failures_and_marks_the_refused_size():
    rows = {k: {"total": 100 * k, "peak": 50 * k, "failed": k == 3} for k in (1, 2, 3)}
    fig = viz.plot_sweep(rows, ["total", "peak"], xlabel="keep", window=120)
    total, peak = fig.axes
    assert list(total.get_lines()[0].get_xdata()) == [1, 2]  # the failed run is not a point
    assert any(list(line.get_xdata()) == [3] and line.get_marker() == "x"
               for line in peak.get_lines())
    assert total.patches  # the shaded span


def test_plot_cache_stacks_reads_writes_and_the_rest():
    run = fake_run()
    for i, s in enumerate(run.steps):
        s.cache_read, s.cache_write = 10 * i, 5
    fig = viz.plot_cache({"cached": run}, ratios=(0.05, 1.25))
    ax = fig.axes[0]
    assert len(ax.patches) == 3 * len(run.steps)
    assert "cache read (0.05x)" in [t.get_text() for t in ax.get_legend().get_texts()]


# ---------------------------------------------------------------- the window viewer


def test_window_html_escapes_content():
    page = viz.window_html(history())
    assert "<script>" not in page
    assert "&lt;script&gt;" in page


def test_window_html_has_every_kind():
    page = viz.window_html(history(), system=SYSTEM, tools=TOOLS, window=4000,
                           model="course-model-1")
    for kind in viz.KINDS:
        if kind != "other":
            assert f'class="cw-box cw-{kind}"' in page, kind
    for kind in viz.KINDS:
        assert f"cw-key cw-{kind}" in page  # the legend


def test_block_kind():
    assert viz.block_kind({"type": "text", "text": "hi"}, "assistant") == "assistant"
    assert viz.block_kind(result(1, "[cleared]")) == "cleared"
    assert viz.block_kind(result(1, "boom", is_error=True)) == "error"
    assert viz.block_kind({"type": "image"}) == "other"


def widths(page: str) -> list[float]:
    return [float(w) for w in re.findall(r'class="cw-box[^"]*" style="[^"]*?width:([\d.]+)px',
                                         page)]


def test_widths_are_proportional_to_tokens():
    small = {"role": "user", "content": "word " * 10}
    large = {"role": "user", "content": "word " * 100}
    assert tokens.count(large["content"]) >= 9 * tokens.count(small["content"])
    w_small, w_large = widths(viz.window_html([small, large]))
    assert w_large > 8 * w_small
    assert max(widths(viz.window_html([{"role": "user", "content": "x"}, large]))) <= 900


def test_header_and_fill_bar():
    msgs = history()
    total = tokens.count(msgs, system=SYSTEM, tools=TOOLS)
    page = viz.window_html(msgs, system=SYSTEM, tools=TOOLS, window=2 * total)
    assert f"{total:,} / {2 * total:,} tokens (50%)" in page
    assert 'class="cw-fill"' in page
    assert "over by" in viz.window_html(msgs, window=10)
    assert "cw-fill" not in viz.window_html(msgs)


def test_with_a_model_the_window_shows_the_apis_tool_prompt():
    """The API adds a tool-use system prompt to a request with tools; the picture says so
    (a row of its own), and its total is then what usage.input_tokens reports."""
    msgs = history()
    sent = tokens.count(msgs, system=SYSTEM, tools=TOOLS)
    hidden = models.tool_prompt_tokens("course-model-1", TOOLS)
    assert hidden > 0
    page = viz.window_html(msgs, system=SYSTEM, tools=TOOLS, model="course-model-1")
    assert f"{sent + hidden:,} tokens" in page and "cw-box cw-hidden" in page
    assert "cw-box cw-hidden" not in viz.window_html(msgs, system=SYSTEM, tools=TOOLS)
    assert "cw-box cw-hidden" not in viz.window_html(msgs, model="course-model-1")  # no tools
    assert viz.kind_tokens(msgs, tools=TOOLS, model="course-model-1")["hidden"] == hidden


def test_output_is_deterministic():
    a = viz.window_html(history(), system=SYSTEM, tools=TOOLS, window=5000)
    b = viz.window_html(history(), system=SYSTEM, tools=TOOLS, window=5000)
    assert a == b
    assert repr(viz.show_window(history())) == repr(viz.show_window(history()))
    assert " at 0x" not in repr(viz.show_window(history()))


def test_long_history_is_cut_in_the_middle():
    msgs = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"}
            for i in range(50)]
    page = viz.window_html(msgs, max_rows=10)
    assert len(re.findall(r'class="cw-row[ "]', page)) == 11  # 5 first, the gap, 5 last
    assert "… 40 messages" in page
    assert "#4 user" in page and "#45 assistant" in page and "#5 assistant" not in page


def test_show_window_displays_html():
    view = viz.show_window(history(), window=3000)
    assert view._repr_html_().startswith('<div class="cw"')
    assert repr(view).startswith("WindowView(10 messages")


def test_window_viewer_slider_spans_the_steps(capsys):
    run = fake_run(n=4, error_at=3)
    viewer = viz.window_viewer(run, window=3000)
    slider, caption, page = viewer.widget.children
    assert slider.max - slider.min + 1 == len(run.steps)
    assert "error: prompt is too long" in caption.value
    slider.value = 0
    assert "step 0" in caption.value
    assert viz.window_html(run.steps[0].sent, system=SYSTEM, tools=TOOLS,
                           window=3000) in page.value
    assert "overflow-y:auto" in page.value  # its own scroll area, opening at the newest rows
    assert capsys.readouterr().out == ""


def test_a_saved_viewer_shows_the_last_step_and_how_to_get_the_slider():
    run = fake_run(n=4)
    bundle = viz.window_viewer(run, window=3000)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle  # live: the widget
    assert "VBox" not in bundle["text/plain"] and "run the cells above" in bundle["text/plain"]
    last = viz.window_html(run.steps[-1].sent, system=SYSTEM, tools=TOOLS, window=3000)
    assert last in bundle["text/html"] and "run the cells above" in bundle["text/html"]


def test_window_viewer_without_ipywidgets(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_widgets(name, *args, **kw):
        if name == "ipywidgets":
            raise ImportError(name)
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_widgets)
    run = fake_run(n=3)
    bundle = viz.window_viewer(run)._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/plain"}
    assert viz.window_html(run.steps[-1].sent, system=SYSTEM, tools=TOOLS) in bundle["text/html"]
