"""The offline Messages API: a deterministic stand-in for Claude, written as a server.

It answers real HTTP requests in the API's own shape, in process (`in_process`, what
`agentlib.connect()` uses with no key) or over HTTP (`python3 course.py serve`). It
imports nothing of the agent (`agentlib`); what both sides share is the model catalog
(`apiwire.models`, data only).
"""

from __future__ import annotations

import os

from standin.server import CourseModel
from standin.transport import BASE_URL, OfflineTransport, async_http_client, http_client

__all__ = ["BASE_URL", "CourseModel", "OfflineTransport", "in_process", "unscripted_seed"]


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


def unscripted_seed(unscripted: bool | None = None, seed: int | None = None) -> int | None:
    """The unscripted stand-in's seed, or None for the scripted one: asked for here, or by
    AGENTLIB_UNSCRIPTED=1 (seed: `seed`, else $AGENTLIB_SEED, else 0)."""
    if unscripted is None:
        unscripted = _flag("AGENTLIB_UNSCRIPTED")
    if not unscripted:
        return None
    if seed is None:
        raw = os.environ.get("AGENTLIB_SEED", "0").strip() or "0"
        try:
            seed = int(raw)
        except ValueError:
            raise ValueError(f"AGENTLIB_SEED must be an integer, got {raw!r}") from None
    return seed


def in_process(*, asynchronous: bool = False, context_window: int | None = None,
               faults: dict[int, int] | None = None, model: str | None = None,
               unscripted: bool | None = None, seed: int | None = None,
               thinking_summaries: bool = False):
    """(the stand-in, an httpx client whose only destination is it), for the SDK's
    `http_client=`. `context_window` replaces every model's window (tokens); `faults`:
    {call number: HTTP status}, e.g. {2: 529}; `unscripted=True` (or AGENTLIB_UNSCRIPTED=1):
    the unscripted stand-in, the test double for Claude, varied from `seed` (or
    AGENTLIB_SEED), answering as the default Claude model would (its thinking, its window);
    `thinking_summaries=True`: `between_tools` notes shown summarized show a summary."""
    from apiwire.models import DEFAULT_MODEL

    chosen = unscripted_seed(unscripted, seed)
    if chosen is not None:
        model = model or os.environ.get("AGENTLIB_MODEL", DEFAULT_MODEL)
    course_model = CourseModel(context_window=context_window, faults=faults, model=model,
                               unscripted=chosen, thinking_summaries=thinking_summaries)
    make = async_http_client if asynchronous else http_client
    return course_model, make(course_model)
