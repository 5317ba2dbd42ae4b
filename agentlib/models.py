"""Which model a request names: the course model offline, else $AGENTLIB_MODEL or the default.

Kept apart from `client` so that strategies (which take a client) can name a model
without importing the client, and through it the offline server.
"""

from __future__ import annotations

import os
from typing import Any

DEFAULT_MODEL = "claude-sonnet-4-6"  # tested 2026-11; override with $AGENTLIB_MODEL
OFFLINE_MODEL = "course-model-1"


def model_name(client: Any = None) -> str:
    """The model to ask for: the course model offline, else $AGENTLIB_MODEL or the default."""
    if client is not None and hasattr(client, "course_model"):
        return client.course_model.model or OFFLINE_MODEL
    if getattr(client, "agentlib_model", None):
        return client.agentlib_model
    return os.environ.get("AGENTLIB_MODEL", DEFAULT_MODEL)
