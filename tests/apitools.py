"""Helpers for the tests of the stand-in's API behaviour (tests/test_api_*.py).

Every request goes through the real `anthropic` SDK to the offline course model; the
`no_network` fixture (import it into a test module) refuses every socket connection.
"""

import socket

import anthropic
import pytest

import coursekit
from agentlib.messages import user

MODEL = "course-model-1"
SONNET = "claude-sonnet-5-5"  # the current Sonnet: thinks by default, binds its thinking
TASK = "Read `incident.log` and report the confirmed root cause of the incident."
LOG_TOOL = {"name": "read_file", "description": "Read a file.",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                             "required": ["path"]}}


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"a test tried to use the network: {args[1:]!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def connect(**kw) -> anthropic.Anthropic:
    return coursekit.connect(offline=True, max_retries=0, **kw)


def ask(c, messages=None, *, beta: bool = False, **kw):
    """One create call with the course defaults (a short task and its tool)."""
    params = {"model": MODEL, "max_tokens": 512, "tools": [LOG_TOOL],
              "messages": messages or [user(TASK)], **kw}
    return (c.beta.messages if beta else c.messages).create(**params)


def refused(call, status: int = 400) -> anthropic.APIStatusError:
    """Run `call`, which must fail with `status`; return the SDK's exception."""
    with pytest.raises(anthropic.APIStatusError) as info:
        call()
    e = info.value
    assert e.status_code == status, (e.status_code, e.body)
    assert e.response.headers["x-should-retry"] == "false"
    return e


def message(e: anthropic.APIStatusError) -> str:
    return e.body["error"]["message"]


def as_param(reply) -> dict:
    """A reply as the assistant message to send back (the SDK's own conversion)."""
    return {"role": "assistant", "content": [b.to_dict() for b in reply.content]}
