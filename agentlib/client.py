"""connect(): the offline course model by default, Claude when a key is set.

Both are the real `anthropic.Anthropic` client, so a lesson's code is the same either way.
"""

from __future__ import annotations

import os

import anthropic

from .models import DEFAULT_MODEL, OFFLINE_MODEL, model_name
from .offline.server import CourseModel
from .offline.transport import http_client

__all__ = ["DEFAULT_MODEL", "OFFLINE_MODEL", "connect", "is_offline", "model_name"]

OFFLINE_KEY = "offline-course-model-no-key-needed"


def is_offline(offline: bool | None = None) -> bool:
    """Offline when asked, when AGENTLIB_OFFLINE=1, or when no ANTHROPIC_API_KEY is set."""
    if os.environ.get("AGENTLIB_OFFLINE", "").strip() not in ("", "0"):
        return True
    if offline is not None:
        return offline
    return not os.environ.get("ANTHROPIC_API_KEY")


def connect(offline: bool | None = None, *, context_window: int = 200_000,
            faults: dict[int, int] | None = None, max_retries: int = 2,
            model: str | None = None, **client_options) -> anthropic.Anthropic:
    """A real `anthropic.Anthropic` client, talking to the offline model or to Claude.

    Offline options: `context_window` (tokens), `faults` ({call number: HTTP status},
    e.g. {2: 529}) and `model`, the name `run_agent` asks for by default (offline:
    "course-model-1"). The offline model is reachable as `client.course_model`.
    """
    if not is_offline(offline):
        client = anthropic.Anthropic(max_retries=max_retries, **client_options)
        client.agentlib_model = model  # type: ignore[attr-defined]
        return client
    course_model = CourseModel(context_window=context_window, faults=faults, model=model)
    client = anthropic.Anthropic(api_key=OFFLINE_KEY, base_url="http://offline.invalid",
                                 http_client=http_client(course_model),
                                 max_retries=max_retries, **client_options)
    client.course_model = course_model  # type: ignore[attr-defined]
    return client
