"""The cost/peak frontier: each strategy as a point, dollars against window, both as a
multiple of append-only's, success marked. The points nearest the origin that succeeded
are the ones worth choosing from; a bar chart cannot show that trade-off in one picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coursekit.i18n import localized


@localized
def plot_frontier(rows: Sequence[dict], ax: Any = None, *, title: str | None = None,
                  bars: tuple[float, float] | None = None, label: Sequence[str] = ()) -> Any:
    """Benchmark rows (with `peak_window_ratio`, `cost_usd_ratio`, `success`, `strategy`) as
    points on log axes: a dot for a run that succeeded, a red cross for one that did not.
    `bars` = (peak, cost) draws the target corner; `label` names the points to write out
    (default: all). Returns the Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 4.6))
    named = set(label) if label else {r["strategy"] for r in rows}
    xs = [float(r["peak_window_ratio"]) for r in rows] + [1.0]
    ys = [float(r["cost_usd_ratio"]) for r in rows] + [1.0]
    low = (min(xs) / 1.6, min(ys) / 1.6)
    ax.set(xscale="log", yscale="log", xlim=(low[0], max(xs) * 1.6), ylim=(low[1], max(ys) * 1.6))
    placed: list[tuple[float, float]] = []  # label anchors in display pixels, to avoid overlaps
    for r in sorted(rows, key=lambda r: -float(r["cost_usd_ratio"])):
        x, y = float(r["peak_window_ratio"]), float(r["cost_usd_ratio"])
        if r["success"]:
            ax.plot(x, y, "o", color="tab:blue", markersize=6)
        else:
            ax.plot(x, y, "x", color="#d62728", markersize=8, markeredgewidth=2)
        if r["strategy"] not in named:
            continue
        px, py = ax.transData.transform((x, y))
        dy = 3
        while any(abs(px - qx) < 90 and abs(py + dy - qy) < 10 for qx, qy in placed):
            dy -= 10
        placed.append((px, py + dy))
        ax.annotate(r["strategy"], (x, y), xytext=(5, dy), textcoords="offset points",
                    fontsize=7, arrowprops={"arrowstyle": "-", "linewidth": 0.4,
                                            "color": "#888888"} if dy < -5 else None)
    ax.axhline(1, color="#555555", linestyle=":", linewidth=1)
    ax.axvline(1, color="#555555", linestyle=":", linewidth=1)
    if bars:
        from matplotlib.patches import Rectangle

        ax.add_patch(Rectangle(low, bars[0] - low[0], bars[1] - low[1], color="tab:green",
                               alpha=0.12, label=f"the bar: peak <= {bars[0]:g}x, "
                                                 f"cost <= {bars[1]:g}x"))
        ax.legend(fontsize=8, frameon=False, loc="upper left")
    ax.set(xlabel="peak window (x append-only)", ylabel="cost with caching (x append-only)")
    fmt = FuncFormatter(lambda v, _: f"{v:g}")
    some = FuncFormatter(lambda v, _: f"{v:g}" if f"{v:.0e}"[0] in "25" else "")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(fmt)
        axis.set_minor_formatter(some)
    ax.grid(True, which="both", alpha=0.2)
    if title:
        ax.set_title(title)
    return ax.figure
