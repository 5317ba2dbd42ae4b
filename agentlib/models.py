"""Which model to ask for, and how little thinking it accepts; the catalog itself (windows,
prices, rules) is `apiwire.models`, data shared with the stand-in, re-exported here."""

from __future__ import annotations

import os
from typing import Any

from apiwire.models import (  # noqa: F401 (re-exported: agentlib.models.get, .prices, ...)
    ALL_THINKING,
    CATALOG,
    DEFAULT_MODEL,
    OFFLINE_MODEL,
    Model,
    Prices,
    get,
    prices,
    tool_prompt_tokens,
)


def quiet_thinking(model: str) -> dict:
    """The least thinking a model accepts, stated explicitly so requests do not depend on
    the model's default: disabled where allowed, else between_tools, else adaptive."""
    row = get(model)
    types = row.thinking_types if row else frozenset({"disabled"})
    for kind in ("disabled", "between_tools", "adaptive"):
        if kind in types:
            return {"type": kind}
    return {"type": "adaptive"}


def model_name(client: Any = None) -> str:
    """The model to ask for: the course model offline, else $AGENTLIB_MODEL or the default."""
    if client is not None and hasattr(client, "course_model"):
        return client.course_model.model or OFFLINE_MODEL
    if getattr(client, "agentlib_model", None):
        return client.agentlib_model
    return os.environ.get("AGENTLIB_MODEL", DEFAULT_MODEL)
