"""Context strategies, one module per mechanism (see agentlib.loop for the interface)."""

from .truncate import sliding_window, truncate

__all__ = ["sliding_window", "truncate"]
