"""Pictures of a run: what fills the window (`window`) and how tokens grow (`plots`): the
lessons draw with these, so their cells hold the measurement, not the matplotlib."""

from coursekit.viz.plots import (
    FILL_GROUPS,
    plot_bars,
    plot_cache,
    plot_estimate_error,
    plot_sweep,
    plot_tokens,
    plot_window_fill,
)
from coursekit.viz.window import (
    KINDS,
    WindowView,
    block_kind,
    kind_tokens,
    show_step,
    show_window,
    step_caption,
    window_html,
    window_viewer,
)

__all__ = ["FILL_GROUPS", "KINDS", "WindowView", "block_kind", "kind_tokens", "plot_bars",
           "plot_cache", "plot_estimate_error", "plot_sweep", "plot_tokens", "plot_window_fill",
           "show_step", "show_window", "step_caption", "window_html", "window_viewer"]

from coursekit.i18n import install_figure_hook

install_figure_hook()  # in a Korean notebook, a lesson's own figure labels are Korean too
