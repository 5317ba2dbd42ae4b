"""The cost/peak frontier: each strategy as a point, dollars against window, both as a
multiple of append-only's, success marked. The points nearest the origin that succeeded
are the ones worth choosing from; a bar chart cannot show that trade-off in one picture."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from coursekit.i18n import lang, localized, translate

# where a label may go around its point, nearest first: (distance in points, direction)
_PLACES = [(d, a) for d in (5, 14, 26, 40, 56, 74) for a in (0, 180, 30, -30, 150, -150,
                                                              60, -60, 120, -120, 90, -90)]


def _box(x: float, y: float, w: float, h: float, ha: str, va: str) -> tuple[float, ...]:
    left = x - (w if ha == "right" else w / 2 if ha == "center" else 0)
    bottom = y - (h if va == "top" else h / 2 if va == "center" else 0)
    return left, bottom, left + w, bottom + h


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _cross(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether segments a = (x1, y1, x2, y2) and b cross."""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    p1, p2, q1, q2 = a[:2], a[2:], b[:2], b[2:]
    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


def _place_labels(ax: Any, points: list[tuple[float, float, str]], fontsize: float = 7,
                  avoid: Sequence[tuple[float, ...]] = ()) -> None:
    """Write each (x, y, text) beside its point where it overlaps no other label, point,
    leader line or box in `avoid` (display pixels), with a thin line back to the point when
    it had to move; the most crowded points are placed first."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    px_per_pt = fig.dpi / 72
    frame = ax.get_window_extent(renderer)
    inside = (frame.x0 + 2, frame.y0 + 2, frame.x1 - 2, frame.y1 - 2)
    where = [tuple(ax.transData.transform((x, y))) for x, y, _ in points]
    mark = 5 * px_per_pt
    taken = [(px - mark, py - mark, px + mark, py + mark) for px, py in where] + list(avoid)
    for line in ax.lines:  # the dotted 1x lines: a label must not sit across one
        xs, ys = line.get_xdata(orig=False), line.get_ydata(orig=False)
        if len(xs) == 2 and (xs[0] == xs[1] or ys[0] == ys[1]):
            box = line.get_window_extent(renderer)
            taken.append((box.x0 - 1, box.y0 - 1, box.x1 + 1, box.y1 + 1))
    segments: list[tuple[float, ...]] = []
    near = 60 * px_per_pt
    order = sorted(range(len(points)), key=lambda i: -sum(
        math.dist(where[i], q) < near for q in where))
    for i in order:
        (x, y, text), (px, py) = points[i], where[i]
        probe = ax.text(0, 0, text, fontsize=fontsize)
        extent = probe.get_window_extent(renderer)
        probe.remove()
        w, h = extent.width + 3, extent.height + 3
        best = None
        for dist, angle in _PLACES:
            dx = dist * math.cos(math.radians(angle)) * px_per_pt
            dy = dist * math.sin(math.radians(angle)) * px_per_pt
            ha = "left" if dx > 0.5 else "right" if dx < -0.5 else "center"
            va = "bottom" if dy > 0.5 else "top" if dy < -0.5 else "center"
            box = _box(px + dx, py + dy, w, h, ha, va)
            out = (box[0] < inside[0] or box[1] < inside[1] or box[2] > inside[2]
                   or box[3] > inside[3])
            clash = sum(_overlap(box, t) for t in taken) + (1e9 if out else 0)
            line = []  # the leader line, sampled every pixel, from outside this point's marker
            if dist > 5:
                steps = max(2, int(dist * px_per_pt))
                line = [(px + dx * k / steps, py + dy * k / steps) for k in range(1, steps + 1)
                        if math.dist((0, 0), (dx * k / steps, dy * k / steps)) > mark]
                clash += 40 * sum(1 for q in line for t in taken
                                  if t[0] <= q[0] <= t[2] and t[1] <= q[1] <= t[3])
                clash += 1e4 * sum(_cross((px, py, px + dx, py + dy), seg) for seg in segments)
            clash += dist * 0.01  # nearer is better, all else equal
            if best is None or clash < best[0]:
                best = (clash, dist, dx, dy, ha, va, box, line)
        _, dist, dx, dy, ha, va, box, line = best
        taken.append(box)
        taken += [(qx - 1, qy - 1, qx + 1, qy + 1) for qx, qy in line]
        if line:
            segments.append((px, py, px + dx, py + dy))
        leader = {"arrowstyle": "-", "linewidth": 0.6, "color": "#777777",
                  "shrinkA": 0, "shrinkB": 4} if dist > 5 else None
        ax.annotate(text, (x, y), xytext=(dx / px_per_pt, dy / px_per_pt),
                    textcoords="offset points", fontsize=fontsize, ha=ha, va=va,
                    arrowprops=leader)


@localized
def plot_frontier(rows: Sequence[dict], ax: Any = None, *, title: str | None = None,
                  bars: tuple[float, float] | None = None, label: Sequence[str] = ()) -> Any:
    """Benchmark rows (with `peak_window_ratio`, `cost_usd_ratio`, `success`, `strategy`) as
    points on log axes: a dot for a run that succeeded, a red cross for one that did not.
    `bars` = (peak, cost) draws the target corner; `label` names the points to write out
    (default: all), each placed clear of the others. Returns the Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    if ax is None:
        _, ax = plt.subplots(figsize=(8.5, 5.2))
    named = set(label) if label else {r["strategy"] for r in rows}
    xs = [float(r["peak_window_ratio"]) for r in rows] + [1.0]
    ys = [float(r["cost_usd_ratio"]) for r in rows] + [1.0]
    low = (min(xs) / 2.2, min(ys) / 1.6)
    ax.set(xscale="log", yscale="log", xlim=(low[0], max(xs) * 2.2), ylim=(low[1], max(ys) * 1.6))
    for r in rows:
        x, y = float(r["peak_window_ratio"]), float(r["cost_usd_ratio"])
        if r["success"]:
            ax.plot(x, y, "o", color="tab:blue", markersize=6)
        else:
            ax.plot(x, y, "x", color="#d62728", markersize=8, markeredgewidth=2)
    ax.axhline(1, color="#555555", linestyle=":", linewidth=1)
    ax.axvline(1, color="#555555", linestyle=":", linewidth=1)
    avoid = []
    if bars:
        from matplotlib.patches import Rectangle

        ax.add_patch(Rectangle(low, bars[0] - low[0], bars[1] - low[1], color="tab:green",
                               alpha=0.12, label=f"the bar: peak <= {bars[0]:g}x, "
                                                 f"cost <= {bars[1]:g}x"))
        legend = ax.legend(fontsize=8, frameon=False, loc="upper left")
        ext = legend.get_window_extent(ax.figure.canvas.get_renderer())
        avoid.append((ext.x0, ext.y0, ext.x1, ext.y1))
    ax.set(xlabel="peak window (x append-only)", ylabel="cost with caching (x append-only)")
    fmt = FuncFormatter(lambda v, _: f"{v:g}")
    some = FuncFormatter(lambda v, _: f"{v:g}" if f"{v:.0e}"[0] in "25" else "")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(fmt)
        axis.set_minor_formatter(some)
    ax.grid(True, which="both", alpha=0.2)
    if title:
        ax.set_title(title)
    korean = lang() == "ko"  # measure each label as it will be shown
    _place_labels(ax, [(float(r["peak_window_ratio"]), float(r["cost_usd_ratio"]),
                        translate(r["strategy"]) if korean else r["strategy"])
                       for r in sorted(rows, key=lambda r: -float(r["cost_usd_ratio"]))
                       if r["strategy"] in named], avoid=avoid)
    return ax.figure


def pareto(points: Sequence[dict]) -> list[dict]:
    """The points no other point beats: none solves as many runs or more for fewer dollars
    (or more runs for as many), sorted by dollars."""
    front = [p for p in points if not any(
        q["solved"] >= p["solved"] and q["dollars"] <= p["dollars"]
        and (q["solved"] > p["solved"] or q["dollars"] < p["dollars"]) for q in points)]
    return sorted(front, key=lambda p: (p["dollars"], -p["solved"]))


@localized
def plot_capstone(points: Sequence[dict], *, runs: int, cap: float, ax: Any = None,
                  title: str | None = None) -> Any:
    """The capstone's frontier: runs solved against dollars (cache on), one point per setup
    (`label`, `solved`, `dollars`, `kind`: "reference" drawn as a grey square, any other
    as a dot), the frontier of the points no other beats as a step line. Returns the Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 4.4))
    front = pareto(points)
    if len(front) > 1:
        xs, ys = [], []
        for p in front:
            xs += [p["dollars"], p["dollars"]] if xs else [p["dollars"]]
            ys += [ys[-1], p["solved"]] if ys else [p["solved"]]
        ax.plot(xs, ys, "-", color="tab:green", linewidth=1.2, alpha=0.6,
                label="the frontier: no setup solves more for less")
    for p in points:  # the references under the students' points
        if p.get("kind") == "reference":
            ax.plot(p["dollars"], p["solved"], "s", color="#555555", markersize=9, zorder=2)
        else:
            ax.plot(p["dollars"], p["solved"], "o", color="tab:blue", markersize=6, zorder=3)
    top = max([p["dollars"] for p in points] + [cap * 0.25])
    ax.set(xlim=(0, top * 1.25), ylim=(-0.5, runs + 0.8),
           xlabel="dollars, all runs (cache on)", ylabel=f"runs solved (of {runs})")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"${v:g}"))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, alpha=0.2)
    ax.set_title(title or "the capstone: runs solved against dollars")
    avoid = []
    if len(front) > 1:
        legend = ax.legend(fontsize=8, frameon=False, loc="lower right")
        ext = legend.get_window_extent(ax.figure.canvas.get_renderer())
        avoid.append((ext.x0, ext.y0, ext.x1, ext.y1))
    korean = lang() == "ko"
    _place_labels(ax, [(p["dollars"], p["solved"],
                        translate(p["label"]) if korean else p["label"]) for p in points],
                  avoid=avoid)
    return ax.figure
