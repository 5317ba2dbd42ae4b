"""connect(): the offline course model by default, Claude when a key is set.

Both are the real `anthropic.Anthropic` client, so a lesson's code is the same either way;
`connect_async()` gives the same choice as an `anthropic.AsyncAnthropic` client. Every
client carries a `guard.Guard` middleware: it meters each request (`client.usage`, priced
with the catalog), refuses to send past the budget (`AGENTLIB_BUDGET_USD`), and, for
Claude and the unscripted stand-in, enforces a `context_window` before sending.
"""

from __future__ import annotations

import os

import anthropic

from . import meter
from .guard import Guard
from .models import DEFAULT_MODEL, OFFLINE_MODEL, model_name
from .offline.server import CourseModel
from .offline.transport import BASE_URL, async_http_client, http_client
from .profile import is_live

__all__ = ["DEFAULT_MODEL", "OFFLINE_MODEL", "connect", "connect_async", "is_offline",
           "model_name"]

OFFLINE_KEY = "offline-course-model-no-key-needed"
RETRIES = {"offline": 2, "live": 6}  # the SDK's retries (exponential backoff, Retry-After)


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


def is_offline(offline: bool | None = None) -> bool:
    """Offline when asked, when AGENTLIB_OFFLINE=1, or when no ANTHROPIC_API_KEY is set."""
    if _flag("AGENTLIB_OFFLINE"):
        return True
    if offline is not None:
        return offline
    return not os.environ.get("ANTHROPIC_API_KEY")


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


def connect(offline: bool | None = None, *, context_window: int | None = None,
            faults: dict[int, int] | None = None, max_retries: int | None = None,
            model: str | None = None, unscripted: bool | None = None, seed: int | None = None,
            **client_options) -> anthropic.Anthropic:
    """A real `anthropic.Anthropic` client, talking to the offline model or to Claude.

    `context_window` (tokens): offline, the course model's window (it replaces every
    model's own, 200,000 for "course-model-1"); with Claude or the unscripted stand-in the
    client enforces it before sending (`guard.Guard`). `unscripted=True` (or
    AGENTLIB_UNSCRIPTED=1) gives the unscripted stand-in, the test double for Claude: it
    varies what a real model may vary, deterministically from `seed` (or AGENTLIB_SEED),
    and answers as the default Claude model would (its thinking, its window).
    Offline options: `faults` ({call number: HTTP status}, e.g. {2: 529}). `model`: the
    name `run_agent` asks for by default. `max_retries`: the SDK's retries, 2 offline and
    6 in the live profile or unscripted by default. The offline model is reachable as
    `client.course_model`, the meter as `client.usage`.
    """
    return _connect(anthropic.Anthropic, http_client, offline, context_window, faults,
                    max_retries, model, unscripted, seed, client_options)


def connect_async(offline: bool | None = None, *, context_window: int | None = None,
                  faults: dict[int, int] | None = None, max_retries: int | None = None,
                  model: str | None = None, unscripted: bool | None = None,
                  seed: int | None = None, **client_options) -> anthropic.AsyncAnthropic:
    """`connect()` for asyncio: a real `anthropic.AsyncAnthropic` client, same options."""
    return _connect(anthropic.AsyncAnthropic, async_http_client, offline, context_window,
                    faults, max_retries, model, unscripted, seed, client_options)


def _connect(cls, make_http, offline, context_window, faults, max_retries, model,
             unscripted, seed, options):
    seed = unscripted_seed(unscripted, seed)
    if seed is not None and offline is False:
        raise ValueError("unscripted=True is the offline stand-in; it cannot be used with "
                         "offline=False (unset AGENTLIB_UNSCRIPTED to call Claude)")
    live = not is_offline(True if seed is not None else offline)
    if max_retries is None:
        max_retries = RETRIES["live" if live or seed is not None or is_live() else "offline"]
    free = not live and seed is None and is_live()  # the course model in a live pass: free
    usage = meter.Meter(parent=None if free else meter.process(), billed=not free)
    client_window = context_window if live or seed is not None else None
    middleware = [Guard(usage, client_window), *options.pop("middleware", ())]
    if live:
        client = cls(max_retries=max_retries, middleware=middleware, **options)
        client.agentlib_model = model
    else:
        if seed is not None:  # the double for Claude: the default model's rules and window
            model = model or model_name()
        course_model = CourseModel(context_window=None if seed is not None else context_window,
                                   faults=faults, model=model, unscripted=seed)
        client = cls(api_key=OFFLINE_KEY, base_url=BASE_URL,
                     http_client=make_http(course_model), max_retries=max_retries,
                     middleware=middleware, **options)
        client.course_model = course_model
    client.usage = usage
    client.context_window = context_window
    return client
