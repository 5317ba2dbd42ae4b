"""Plots of a run's trace: tokens per request and their running total, what fills the
window at each step, how far an estimate is from the usage, where the prompt cache paid,
parameter sweeps, and bar charts that compare strategies.

A run is duck-typed: it needs `.steps` (each with `.index`, `.input_tokens`, `.events`,
`.error`, `.sent`), `.system`, `.tools` and `.label`. Each function returns the Figure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agentlib import tokens
from coursekit.i18n import lang, localize_figure, localized, translate
from coursekit.viz.window import _hidden, _sent, _short, kind_tokens


def _as_runs(runs: Any) -> dict[str, Any]:
    """One run, a list of runs (named by `.label`) or a dict label -> run, as a dict."""
    if isinstance(runs, Mapping):
        return dict(runs)
    if not isinstance(runs, list | tuple):
        runs = [runs]
    out: dict[str, Any] = {}
    for i, run in enumerate(runs):
        label = str(getattr(run, "label", None) or f"run {i}")
        name, k = label, 2
        while name in out:  # two runs with one label stay two lines
            name, k = f"{label} ({k})", k + 1
        out[name] = run
    return out


def _integer_steps(ax: Any) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.grid(True, alpha=0.3)
    ax.set_xlabel("step")


@localized
def plot_tokens(runs: Any, *, cumulative: bool = True, window: int | None = None,
                ax: Any = None, title: str | None = None, events: bool = True,
                estimates: bool = False, note_chars: int | None = 26) -> Any:
    """Input tokens per request and their running total, one line per run.

    Left: `input_tokens` of each step (what was re-sent), a dashed line at `window`, a
    red x where a step failed (drawn at the tokens it tried to send, counted with
    `tokens.count` plus the API's tool-use prompt when the run knows its model, since a
    failed call reports no usage), small notes where a context strategy acted
    (`events`), and with `estimates` a dotted line per run for the characters / 4
    estimate the loop made before each request (`Step.estimate`); a note is cut at
    `note_chars` characters (None: whole). Right
    (with `cumulative`): the running sum, i.e. the input tokens paid for so far.
    `ax` may be one Axes (the left panel only) or a pair. Returns the Figure; with
    the notebook's inline backend, `fig = plot_tokens(...)` displays it once.
    """
    import matplotlib.pyplot as plt

    named = _as_runs(runs)
    if ax is None:
        ncols = 2 if cumulative else 1
        fig, axes = plt.subplots(1, ncols, figsize=(5.5 * ncols, 3.8), squeeze=False)
        axes = list(axes[0])
    else:
        axes = list(ax) if isinstance(ax, Iterable) else [ax]
        fig = axes[0].figure
    per_step = axes[0]
    total_ax = axes[1] if cumulative and len(axes) > 1 else None

    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    error_labelled = False
    noted = []  # (steps, colour) of each run whose strategy notes are written after the legend
    for r, (label, run) in enumerate(named.items()):
        colour = colours[r % len(colours)]
        steps = list(run.steps)
        xs = [s.index for s in steps]
        ys = [s.input_tokens if not s.error else float("nan") for s in steps]
        marker = "o" if len(steps) <= 60 else None
        per_step.plot(xs, ys, marker=marker, markersize=3.5, linewidth=1.5, color=colour,
                      label=label)
        if estimates:
            per_step.plot(xs, [s.estimate for s in steps], linestyle=":", linewidth=1.5,
                          color=colour, label=f"{label}, chars/4")
        failed = [s for s in steps if s.error]
        if failed:
            tools = getattr(run, "tools", None)
            sizes = [tokens.count(_sent(s), system=getattr(run, "system", None), tools=tools)
                     + _hidden(getattr(run, "model", None), tools) for s in failed]
            per_step.plot([s.index for s in failed], sizes,
                          linestyle="none", marker="x", markersize=8, markeredgewidth=2,
                          color="#d62728", gid="error",
                          label="_error" if error_labelled else "error (what it tried to send)")
            error_labelled = True
        if events:
            noted.append((steps, colour))
        if total_ax is not None:
            running, acc = [], 0
            for s in steps:
                acc += s.input_tokens or 0
                running.append(acc)
            total_ax.plot(xs, running, linewidth=1.8, color=colour, label=label)

    if window:
        per_step.axhline(window, linestyle="--", color="#555555", linewidth=1,
                         label=f"window ({window:,})", gid="window")
    per_step.set_ylabel("input tokens per request")
    _integer_steps(per_step)
    handles, labels = per_step.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i].startswith(("window", "error")))
    if total_ax is not None:
        total_ax.set_ylabel("cumulative input tokens")
        total_ax.set_ylim(bottom=0)
        _integer_steps(total_ax)
    if title:
        fig.suptitle(title)
    if ax is None:
        _tight(fig)
    _legend_inside(per_step, [handles[i] for i in order], [labels[i] for i in order])
    for steps, colour in noted:
        _annotate_events(per_step, steps, colour, chars=note_chars)
    return fig


def _tight(fig: Any) -> None:
    """tight_layout, leaving room at the top for a figure title (suptitle), which
    tight_layout alone lets sit on the top tick labels."""
    suptitle = getattr(fig, "_suptitle", None)
    if suptitle is None or not suptitle.get_text():
        fig.tight_layout()
        return
    height = fig.get_figheight() * 72  # points
    fig.tight_layout(rect=(0, 0, 1, 1 - 2.2 * suptitle.get_fontsize() / height))


def _legend_inside(ax: Any, handles: list, labels: list, **kw: Any) -> None:
    """A legend at the upper left, inside the axes: as many columns as fit the width, and as
    much headroom above the data as its height needs (measured in the words it will show)."""
    fig = ax.figure
    top = ax.get_ylim()[1]
    for ncols in (2, 1):
        for room in (1.3, 1.5, 1.8, 2.2, 2.8):
            ax.set_ylim(0, top * room)
            legend = ax.legend(handles, labels, fontsize=8, loc="upper left", frameon=False,
                               ncols=ncols, **kw)
            localize_figure(fig)  # its words as they will be shown, before measuring
            renderer = fig.canvas.get_renderer()
            box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
            data_top = ax.transData.transform((0, top))[1]
            if box.x1 <= frame.x1 and box.y0 >= data_top:
                return
    # nothing fits above the data: the last try (two rows of room, one column) stays


# Where a note may go, in points from its point: right and up first, then further up, then
# below, then to the left.
NOTE_PLACES = [(5, dy) for dy in (4, 15, 26, 37, 48, 59, 70)] + \
    [(5, dy) for dy in (-11, -22)] + [(-5, dy) for dy in (4, 15, 26, 37, -11)]


def _annotate_events(ax: Any, steps: list, colour: str, max_notes: int = 6,
                     chars: int | None = 26) -> None:
    """Ring the points where a strategy acted; write each kind of note once (the first
    "cleared 5 results" stands for the later "cleared 2 results") inside the axes, where it
    covers no other note, the legend or a tick label; a note with no such place is left out
    (its ring still marks the step)."""
    marked = [s for s in steps if s.events and not s.error]
    if not marked:
        return
    ax.plot([s.index for s in marked], [s.input_tokens for s in marked], linestyle="none",
            marker="o", markersize=8, markerfacecolor="none", markeredgecolor=colour,
            alpha=0.6, gid="events", label="_events")
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    placed = getattr(ax, "_agentlib_notes", None)  # boxes already on this axis
    if placed is None:
        legend = ax.get_legend()
        placed = [legend.get_window_extent(renderer)] if legend is not None else []
        placed += [line.get_window_extent(renderer) for line in ax.lines
                   if line.get_gid() == "window"]
    kinds: set[str] = set()
    for s in marked:
        said = [translate(e) for e in s.events] if lang() == "ko" else s.events
        note = _short("; ".join(said), chars or 10**6)
        kind = re.sub(r"[\d,.]+", "#", note)
        if kind in kinds or len(kinds) >= max_notes:
            continue
        for dx, dy in NOTE_PLACES:
            label = ax.annotate(note, (s.index, s.input_tokens), xytext=(dx, dy),
                                textcoords="offset points", ha="left" if dx > 0 else "right",
                                fontsize=6.5, color=colour,
                                bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none",
                                      "alpha": 0.75})
            box = label.get_window_extent(renderer)
            inside = (box.x0 >= frame.x0 + 1 and box.x1 <= frame.x1 - 1
                      and box.y0 >= frame.y0 + 1 and box.y1 <= frame.y1 - 1)
            if inside and not any(box.overlaps(other) for other in placed):
                placed.append(box)
                kinds.add(kind)
                break
            label.remove()
    ax._agentlib_notes = placed


@localized
def plot_bars(table: Mapping[str, Mapping[str, float]], metrics: Sequence[str],
              ax: Any = None, *, title: str | None = None) -> Any:
    """Compare strategies (label -> metric -> value) on a few metrics, with value labels.

    Metrics differ in scale (tokens, calls, a success rate), so by default each metric
    gets its own small panel with one bar per strategy. Given one Axes, all metrics are
    drawn there as groups of bars (one colour per strategy); given a list of Axes, one
    metric goes in each. Missing values are left out. Returns the Figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    labels = list(table)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    def value(label: str, metric: str) -> float:
        v = table[label].get(metric)
        return float("nan") if v is None else float(v)

    if ax is not None and not isinstance(ax, Iterable):
        width = 0.8 / max(len(labels), 1)
        for i, label in enumerate(labels):
            xs = [m + (i - (len(labels) - 1) / 2) * width for m in range(len(metrics))]
            bars = ax.bar(xs, [value(label, m) for m in metrics], width,
                          color=colours[i % len(colours)], label=label)
            ax.bar_label(bars, fmt=_fmt, fontsize=7, padding=1)
        ax.set_xticks(range(len(metrics)), metrics)
        ax.margins(y=0.15)  # room for the tallest bar's value
        ax.legend(fontsize=8, frameon=False)
        ax.grid(True, axis="y", alpha=0.3)
        if title:
            ax.set_title(title)
        return ax.figure

    if ax is None:
        fig, axes = plt.subplots(1, len(metrics), figsize=(max(3.2 * len(metrics), 4), 3.4),
                                 squeeze=False)
        axes = list(axes[0])
    else:
        axes = list(ax)
        fig = axes[0].figure
    for a, metric in zip(axes, metrics, strict=False):
        bars = a.bar(range(len(labels)), [value(label, metric) for label in labels],
                     color=[colours[i % len(colours)] for i in range(len(labels))])
        upright = len(labels) > 5  # many narrow bars: their values stand up, side by side
        a.bar_label(bars, fmt=_fmt, fontsize=7, padding=2, rotation=90 if upright else 0)
        a.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
        a.set_title(metric, fontsize=10)
        a.grid(True, axis="y", alpha=0.3)
        a.margins(y=0.3 if upright else 0.15)
        a.yaxis.set_major_formatter(FuncFormatter(lambda v, _: count(v)))
    if title:
        fig.suptitle(title)
    if ax is None:
        _tight(fig)
    for a in axes:
        _values_inside(a)
    return fig


def _values_inside(ax: Any) -> None:
    """Raise the top of the axes until every value written above a bar is inside it."""
    from matplotlib.text import Text

    fig = ax.figure
    for _ in range(8):
        localize_figure(fig)
        renderer = fig.canvas.get_renderer()
        top = ax.get_window_extent(renderer).y1
        if all(Text.get_window_extent(t, renderer).y1 <= top - 1 for t in ax.texts):
            return
        low, high = ax.get_ylim()
        ax.set_ylim(low, high + (high - low) * 0.15)


def count(v: float) -> str:
    """An axis value as people write counts: 1,000,000 (never 1e+06), 0.25, 1.5."""
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.6g}"


def _fmt(v: float) -> str:
    if v != v:  # NaN: a missing value
        return ""
    return f"{v:,.0f}" if abs(v) >= 10 else f"{v:.2g}"


# What `plot_window_fill` stacks: a few groups of kinds, bottom to top.
FILL_GROUPS: dict[str, tuple[str, ...]] = {
    "system + tools": ("hidden", "system", "tools"),
    "text": ("user", "assistant", "other"),
    "tool_use": ("tool_use",),
    "tool_result": ("tool_result", "error"),
    "cleared": ("cleared",),
    "summary": ("summary", "compaction", "truncation"),
}
FILL_COLOURS = {"system + tools": "#90a4ae", "text": "#90caf9", "tool_use": "#ffb74d",
                "tool_result": "#fdd835", "cleared": "#bdbdbd", "summary": "#ba68c8"}


@localized
def plot_window_fill(run: Any, window: int | None = None, *, ax: Any = None,
                     title: str | None = None, outside: Mapping[str, Sequence[int]] | None = None,
                     marks: bool = False, outside_panel: bool = False) -> Any:
    """What fills the window at each step, stacked by kind of block. Returns the Figure.

    `outside` adds a line per series of token counts kept out of the window (for example a
    notes file, one value per step); with `outside_panel` those lines go in a panel of
    their own below the window's (`ax` may then be a pair), so nothing outside the window
    is drawn inside it. `marks` puts a marker above each step where a strategy cleared or
    compacted (from the steps' events).

    Counted exactly from each step's `sent` messages plus the system prompt, the tools
    and the tool-use prompt the API adds (when the run knows its model); message framing
    is counted with text so the stack adds up to the request's size.
    """
    import matplotlib.pyplot as plt

    steps = list(run.steps)
    series = {group: [] for group in FILL_GROUPS}
    for step in steps:
        sent = _sent(step)
        model = getattr(run, "model", None)
        by_kind = kind_tokens(sent, system=run.system, tools=run.tools, model=model)
        framing = tokens.count(sent, system=run.system, tools=run.tools) + \
            _hidden(model, run.tools) - sum(by_kind.values())
        by_kind["other"] += framing
        for group, kinds in FILL_GROUPS.items():
            series[group].append(sum(by_kind[k] for k in kinds))

    low = None  # the panel below for what is outside the window (with `outside_panel`)
    if ax is None and outside and outside_panel:
        fig, (ax, low) = plt.subplots(2, 1, figsize=(8, 4.9), sharex=True,
                                      height_ratios=[3, 1.2])
    elif ax is None:
        fig, ax = plt.subplots(figsize=(8, 3.8))
    else:
        if isinstance(ax, list | tuple):
            ax, low = ax
        fig = ax.figure
    colours = [FILL_COLOURS[group] for group in FILL_GROUPS]
    xs = [s.index for s in steps]
    ax.stackplot(xs, *series.values(), labels=list(series), colors=colours,
                 edgecolor="white", linewidth=0.3)
    if window:
        ax.axhline(window, linestyle="--", color="#555555", linewidth=1,
                   label=f"window ({window:,})", gid="window")
    for (name, values), style in zip((outside or {}).items(), ("-", "--", ":"), strict=False):
        (low if low is not None else ax).plot(xs, list(values), color="#212121", linewidth=1.8,
                                              linestyle=style,
                                              label=f"{name} (outside the window)")
    if marks:
        top = [sum(values) for values in zip(*series.values(), strict=True)]
        for word, marker, colour in (("cleared", "v", "#757575"), ("compact", "D", "#8e24aa")):
            hit = [i for i, s in enumerate(steps) if any(word in e for e in s.events)]
            if hit:
                ax.plot([xs[i] for i in hit], [top[i] * 1.04 for i in hit], linestyle="none",
                        marker=marker, markersize=5, color=colour,
                        label=f"{'clearing' if word == 'cleared' else 'compaction'} acted")
    ax.set_ylabel("tokens sent")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.55)  # headroom: the legend sits inside, at the top
    _integer_steps(ax)
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], labels[::-1], fontsize=7.5, loc="upper left", frameon=False,
              ncols=4)
    ax.set_title(title or f"what fills the window: {getattr(run, 'label', '')}".rstrip(": "),
                 fontsize=10)
    if low is not None:
        ax.set_xlabel("")
        low.set_ylabel("tokens")
        low.set_ylim(0, low.get_ylim()[1] * 1.6)
        _integer_steps(low)
        low.legend(fontsize=7.5, loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


@localized
def plot_estimate_error(table: Mapping[str, Mapping[str, Sequence[float]]], *,
                        truth: str = "usage", ax: Any = None, title: str | None = None) -> Any:
    """How far each estimate is from the truth, step by step, in percent.

    `table[label]` maps series names to one value per step: `truth` (the API's usage) and
    any estimates (for example "chars/4" and "calibrated"). One colour per label, one line
    style per estimate; 0% is exact, below it an estimate would let a budget overflow.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 3.6))
    else:
        fig = ax.figure
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    styles = ["-", "--", ":", "-."]
    for r, (label, series) in enumerate(table.items()):
        real = list(series[truth])
        names = [name for name in series if name != truth]
        for k, name in enumerate(names):
            errors = [100 * (e / t - 1) if t else float("nan")
                      for e, t in zip(series[name], real, strict=True)]
            ax.plot(range(len(errors)), errors, linestyle=styles[k % len(styles)],
                    marker="o", markersize=3, color=colours[r % len(colours)],
                    label=f"{label}: {name}")
    ax.axhline(0, color="#555555", linewidth=1)
    ax.set_ylabel(f"estimate vs {truth}")
    _integer_steps(ax)  # (it formats y as thousands: percent after it)
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.legend(fontsize=8, frameon=False, loc="lower right", ncols=2)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


@localized
def plot_sweep(rows: Mapping[Any, Mapping[str, Any]], metrics: Sequence[str], *,
               xlabel: str, window: int | None = None, axes: Any = None,
               labels: Sequence[str] | None = None) -> Any:
    """One panel per metric over a swept parameter (`rows[x][metric]`), x in order.

    A row with `failed` true is shaded (its totals compare nothing) and, on the "peak"
    panel, drawn as a red x at the size that was refused, under a dashed `window` line.
    `labels` are the panels' y labels (default: the metric names). Returns the Figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    if axes is None:
        fig, axes = plt.subplots(1, len(metrics), figsize=(4 * len(metrics), 3.2),
                                 squeeze=False)
        axes = list(axes[0])
    fig = axes[0].figure
    thousands = FuncFormatter(lambda v, _: f"{v:,.0f}")
    xs = list(rows)
    ok = [x for x in xs if not rows[x].get("failed")]
    bad = [x for x in xs if rows[x].get("failed")]
    step = (xs[1] - xs[0]) if len(xs) > 1 else 1
    for ax, metric, ylabel in zip(axes, metrics, labels or metrics, strict=True):
        ax.plot(ok, [rows[x][metric] for x in ok], marker="o", markersize=4)
        if bad:  # a failed run has no total worth comparing: shade it
            ax.axvspan(min(bad) - step / 2, max(bad) + step / 2, color="#d62728", alpha=0.12,
                       label="over the window")
            ax.legend(fontsize=8, frameon=False, loc="upper left")
        if metric == "peak" and window:
            ax.axhline(window, linestyle="--", color="#555555", linewidth=1)
            ax.plot(bad, [rows[x]["peak"] for x in bad], "x", color="#d62728", markersize=8,
                    markeredgewidth=2)
        ax.set(xlabel=xlabel, ylabel=ylabel)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
        ax.grid(True, alpha=0.3)
        ax.xaxis.set_major_formatter(thousands)
        ax.yaxis.set_major_formatter(thousands)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    return fig


@localized
def plot_cache(runs: Any, *, ratios: tuple[float, float] | None = None,
               title: str | None = None) -> Any:
    """Input tokens of each request split into cache reads, cache writes and uncached
    input, one panel per run (bars per step, same scale). `ratios` (read, write), in
    units of the input price, go into the legend. Returns the Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    named = _as_runs(runs)
    fig, axes = plt.subplots(1, len(named), figsize=(5.5 * len(named), 3.4), sharey=True,
                             squeeze=False)
    axes = list(axes[0])
    read_name, write_name = "cache read", "cache write"
    if ratios:
        read_name, write_name = f"cache read ({ratios[0]:g}x)", f"cache write ({ratios[1]:g}x)"
    for ax, (label, run) in zip(axes, named.items(), strict=True):
        xs = [s.index for s in run.steps]
        read = [s.cache_read for s in run.steps]
        write = [s.cache_write for s in run.steps]
        fresh = [s.input_tokens - s.cache_read - s.cache_write for s in run.steps]
        ax.bar(xs, read, color="#81c784", label=read_name)
        ax.bar(xs, write, bottom=read, color="#e57373", label=write_name)
        ax.bar(xs, fresh, bottom=[a + b for a, b in zip(read, write, strict=True)],
               color="#90a4ae", label="uncached (1x)")
        ax.set(title=label, xlabel="step")
        ax.grid(True, axis="y", alpha=0.3)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: count(v)))
    axes[0].set_ylabel("input tokens per request")
    if title:
        fig.suptitle(title)
    _tight(fig)
    _legend_inside(axes[0], *axes[0].get_legend_handles_labels())
    return fig
