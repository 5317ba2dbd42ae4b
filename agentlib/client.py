"""connect(): Claude when a key is set, else the course's offline stand-in.

Both are the real `anthropic.Anthropic` client, so an agent's code is the same either way;
`connect_async()` gives the same choice as an `anthropic.AsyncAnthropic` client. Every
client meters its requests (`client.usage`, priced with the catalog) and refuses to send
past the process's budget (`agentlib.meter`), through the `metering.Metering` middleware.

This is the one place the agent knows a stand-in exists: with no key, `connect()` imports
the `standin` package (the offline Messages API, a server of its own) and talks to it in
process. Take `agentlib/` to real Claude and that import is never made.
"""

from __future__ import annotations

import os

import anthropic

from agentlib import meter
from agentlib.metering import Metering
from agentlib.models import DEFAULT_MODEL, OFFLINE_MODEL, model_name

__all__ = ["DEFAULT_MODEL", "OFFLINE_MODEL", "connect", "connect_async", "is_offline",
           "model_name"]

OFFLINE_KEY = "offline-course-model-no-key-needed"
RETRIES = {"claude": 6, "standin": 2}  # the SDK's retries (exponential backoff, Retry-After)


def is_offline(offline: bool | None = None) -> bool:
    """Offline when asked, when AGENTLIB_OFFLINE=1, or when no ANTHROPIC_API_KEY is set."""
    if os.environ.get("AGENTLIB_OFFLINE", "").strip() not in ("", "0"):
        return True
    if offline is not None:
        return offline
    return not os.environ.get("ANTHROPIC_API_KEY")


def connect(offline: bool | None = None, *, model: str | None = None,
            max_retries: int | None = None, standin: dict | None = None,
            usage: meter.Meter | None = None, **client_options) -> anthropic.Anthropic:
    """A real `anthropic.Anthropic` client, talking to Claude or to the offline stand-in.

    `model`: the name `run_agent` asks for by default. `max_retries`: the SDK's retries
    (6 with Claude and with the unscripted stand-in, 2 with the scripted one). `standin`:
    options for the stand-in (`standin.in_process`: `context_window`, `faults`,
    `unscripted`, `seed`); it is reachable as `client.course_model`. `usage`: the meter
    (default: a new one under the process's, `client.usage`). Other options go to the SDK's
    client (`middleware=[...]` too).
    """
    return _connect(anthropic.Anthropic, False, offline, model, max_retries, standin, usage,
                    client_options)


def connect_async(offline: bool | None = None, *, model: str | None = None,
                  max_retries: int | None = None, standin: dict | None = None,
                  usage: meter.Meter | None = None,
                  **client_options) -> anthropic.AsyncAnthropic:
    """`connect()` for asyncio: a real `anthropic.AsyncAnthropic` client, same options."""
    return _connect(anthropic.AsyncAnthropic, True, offline, model, max_retries, standin,
                    usage, client_options)


def _connect(cls, asynchronous, offline, model, max_retries, standin_options, usage,
             options):
    course_model = http = None
    if is_offline(offline):
        import standin  # the seam: the course's offline Messages API, loaded only here

        course_model, http = standin.in_process(asynchronous=asynchronous, model=model,
                                                **(standin_options or {}))
    elif standin_options:
        raise ValueError("standin options are for the offline stand-in; with Claude leave "
                         "them out (or set AGENTLIB_OFFLINE=1 to use the stand-in)")
    double = course_model is not None and course_model.unscripted is not None
    if max_retries is None:
        max_retries = RETRIES["claude" if course_model is None or double else "standin"]
    if (course_model is None or double) and meter.process().budget is None \
            and not meter.budget_set():  # Claude, or its double: a cap before the first dollar
        meter.set_budget(meter.LIVE_DEFAULT_BUDGET)
    usage = usage if usage is not None else meter.Meter(parent=meter.process())
    middleware = [Metering(usage), *options.pop("middleware", ())]
    if course_model is None:
        client = cls(max_retries=max_retries, middleware=middleware, **options)
        client.agentlib_model = model
    else:
        client = cls(api_key=OFFLINE_KEY, base_url=standin.BASE_URL, http_client=http,
                     max_retries=max_retries, middleware=middleware, **options)
        client.course_model = course_model
    client.usage = usage
    return client
