"""agentlib: the small library the course builds, one idea per module.

`agentlib.connect` is imported lazily, so importing a small part of the library (the
exercise checks, the tokenizer) does not pay for the anthropic SDK.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentlib.client import connect, connect_async

__all__ = ["connect", "connect_async"]


def __getattr__(name: str):
    if name in ("connect", "connect_async"):
        from agentlib import client

        return getattr(client, name)
    raise AttributeError(f"module 'agentlib' has no attribute {name!r}")
