"""connect(): the offline course model by default, Claude when a key is set.

Both are the real `anthropic.Anthropic` client, so a lesson's code is the same either way;
`connect_async()` gives the same choice as an `anthropic.AsyncAnthropic` client.
"""

from __future__ import annotations

import os

import anthropic

from .models import DEFAULT_MODEL, OFFLINE_MODEL, model_name
from .offline.server import CourseModel
from .offline.transport import BASE_URL, async_http_client, http_client

__all__ = ["DEFAULT_MODEL", "OFFLINE_MODEL", "connect", "connect_async", "is_offline",
           "model_name"]

OFFLINE_KEY = "offline-course-model-no-key-needed"


def is_offline(offline: bool | None = None) -> bool:
    """Offline when asked, when AGENTLIB_OFFLINE=1, or when no ANTHROPIC_API_KEY is set."""
    if os.environ.get("AGENTLIB_OFFLINE", "").strip() not in ("", "0"):
        return True
    if offline is not None:
        return offline
    return not os.environ.get("ANTHROPIC_API_KEY")


def connect(offline: bool | None = None, *, context_window: int | None = None,
            faults: dict[int, int] | None = None, max_retries: int = 2,
            model: str | None = None, **client_options) -> anthropic.Anthropic:
    """A real `anthropic.Anthropic` client, talking to the offline model or to Claude.

    Offline options: `context_window` (tokens; replaces every model's own window, which is
    200,000 for "course-model-1"), `faults` ({call number: HTTP status}, e.g. {2: 529})
    and `model`, the name `run_agent` asks for by default (offline: "course-model-1").
    The offline model is reachable as `client.course_model`.
    """
    return _connect(anthropic.Anthropic, http_client, offline, context_window, faults,
                    max_retries, model, client_options)


def connect_async(offline: bool | None = None, *, context_window: int | None = None,
                  faults: dict[int, int] | None = None, max_retries: int = 2,
                  model: str | None = None, **client_options) -> anthropic.AsyncAnthropic:
    """`connect()` for asyncio: a real `anthropic.AsyncAnthropic` client, same options."""
    return _connect(anthropic.AsyncAnthropic, async_http_client, offline, context_window,
                    faults, max_retries, model, client_options)


def _connect(cls, make_http, offline, context_window, faults, max_retries, model, options):
    if not is_offline(offline):
        client = cls(max_retries=max_retries, **options)
        client.agentlib_model = model
        return client
    course_model = CourseModel(context_window=context_window, faults=faults, model=model)
    client = cls(api_key=OFFLINE_KEY, base_url=BASE_URL, http_client=make_http(course_model),
                 max_retries=max_retries, **options)
    client.course_model = course_model
    return client
