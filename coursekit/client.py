"""The bench's client: `agentlib.connect()` plus what a lesson's demo needs around it.

`context_window=N` gives a lesson its small window on any model: offline the stand-in
enforces it; with Claude, and with the unscripted stand-in (its test double), the client
enforces it before sending (`guard.WindowGuard`). `faults`, `unscripted` and `seed` are
the stand-in's. The scripted course model's calls in a live pass are not billed.
"""

from __future__ import annotations

import anthropic

import agentlib
import standin
from agentlib import meter
from agentlib.client import is_offline
from agentlib.models import model_name
from coursekit import profile
from coursekit.guard import WindowGuard


def connect(offline: bool | None = None, *, context_window: int | None = None,
            faults: dict[int, int] | None = None, max_retries: int | None = None,
            model: str | None = None, unscripted: bool | None = None, seed: int | None = None,
            asynchronous: bool = False, thinking_summaries: bool = False,
            **client_options) -> anthropic.Anthropic:
    """A client from `agentlib.connect` with the lesson's window (tokens), faults and
    stand-in; `client.context_window` says which window the lesson asked for.
    `thinking_summaries=True`: offline, `between_tools` notes shown summarized show a
    summary, as Claude's do (docs/api-facts.md 9.6); with Claude it changes nothing."""
    chosen = standin.unscripted_seed(unscripted, seed)
    if chosen is not None and offline is False:
        raise ValueError("unscripted=True is the offline stand-in; it cannot be used with "
                         "offline=False (unset AGENTLIB_UNSCRIPTED to call Claude)")
    live = not is_offline(True if chosen is not None else offline)
    middleware = list(client_options.pop("middleware", ()))
    if context_window is not None and (live or chosen is not None):
        middleware.append(WindowGuard(context_window))
    options = None
    if not live:
        options = {"context_window": None if chosen is not None else context_window,
                   "faults": faults, "unscripted": chosen is not None, "seed": chosen}
        if thinking_summaries:
            options["thinking_summaries"] = True
        if chosen is not None:
            model = model or model_name()
    free = not live and chosen is None and profile.is_live()  # the course model in a live pass
    usage = meter.Meter(parent=None, billed=False) if free else None
    make = agentlib.connect_async if asynchronous else agentlib.connect
    client = make(offline=not live, model=model, max_retries=max_retries, standin=options,
                  usage=usage, middleware=middleware, **client_options)
    client.context_window = context_window
    return client
