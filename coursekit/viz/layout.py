"""What is wrong with where a figure's words sit, measured with matplotlib's renderer: a
legend or a note outside its axes (it runs off the plot or over a neighbour), two labels
on top of each other, a reference line (a window, a 1x line) drawn across a note.

`problems(fig)` lists them; a Korean kernel records the list with each figure it shows
(coursekit.i18n), and tests/test_korean_figures.py asserts it is empty, so every figure a
lesson draws is held, new cells included.
"""

from __future__ import annotations

from typing import Any

PAD = 1.0  # pixels a box may poke out of its axes or into a neighbour (antialiasing)


def _inside(box: Any, frame: Any) -> bool:
    return (box.x0 >= frame.x0 - PAD and box.y0 >= frame.y0 - PAD
            and box.x1 <= frame.x1 + PAD and box.y1 <= frame.y1 + PAD)


def _overlap(a: Any, b: Any) -> bool:
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > PAD
            and min(a.y1, b.y1) - max(a.y0, b.y0) > PAD)


def _said(text: Any) -> str:
    return " ".join(text.get_text().split())


def _labels(fig: Any, ax: Any, renderer: Any) -> list[tuple[str, Any]]:
    """(what, window extent) of each label of an axes that must stand clear of the others:
    its title, axis labels, tick labels, legend and notes."""
    found = []
    for text in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label):
        if text.get_visible() and text.get_text().strip():
            found.append((f"label {_said(text)!r}", text.get_window_extent(renderer)))
    for axis in (ax.xaxis, ax.yaxis):
        for tick in axis.get_ticklabels():
            if tick.get_visible() and tick.get_text().strip():
                found.append((f"tick {_said(tick)!r}", tick.get_window_extent(renderer)))
    legend = ax.get_legend()
    if legend is not None and legend.get_visible():
        found.append(("legend", legend.get_window_extent(renderer)))
    from matplotlib.text import Text

    for text in ax.texts:  # the words only, not a note's leader line (Annotation adds it)
        if text.get_visible() and text.get_text().strip():
            found.append((f"note {_said(text)!r}", Text.get_window_extent(text, renderer)))
    return found


def _reference_lines(ax: Any) -> list[Any]:
    """Straight lines drawn across the axes (axhline, axvline): two points, one coordinate
    shared."""
    found = []
    for line in ax.lines:
        xs, ys = line.get_xdata(orig=False), line.get_ydata(orig=False)
        if len(xs) == 2 and (xs[0] == xs[1] or ys[0] == ys[1]) and line.get_visible():
            found.append(line)
    return found


def problems(fig: Any) -> list[str]:
    """Every misplaced word of `fig`, as a sentence naming it."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found: list[str] = []
    everything: list[tuple[str, Any]] = []
    suptitle = getattr(fig, "_suptitle", None)
    if suptitle is not None and suptitle.get_text().strip():
        everything.append((f"title {_said(suptitle)!r}", suptitle.get_window_extent(renderer)))
    for n, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        frame = ax.get_window_extent(renderer)
        labels = _labels(fig, ax, renderer)
        for what, box in labels:
            if what == "legend" or what.startswith("note"):
                if not _inside(box, frame):
                    found.append(f"axes {n}: the {what} runs outside its axes")
        for line in _reference_lines(ax):
            path = line.get_transform().transform_path(line.get_path())
            for what, box in labels:
                if what.startswith("note") and path.intersects_bbox(box, filled=False):
                    found.append(f"axes {n}: a reference line crosses the {what}")
        everything += [(f"axes {n}: {what}", box) for what, box in labels]
    for i, (a, box_a) in enumerate(everything):
        for b, box_b in everything[i + 1:]:
            ticks = " tick " in a and " tick " in b
            if not ticks and _overlap(box_a, box_b):
                found.append(f"{a} overlaps {b}")
    return found
