"""agentlib: the small library the course builds, one idea per module.

`agentlib.connect` is imported lazily, so importing a small part of the library (the
exercise checks, the tokenizer) does not pay for the anthropic SDK.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .client import connect

__all__ = ["connect"]


def __getattr__(name: str):
    if name == "connect":
        from .client import connect

        return connect
    raise AttributeError(f"module 'agentlib' has no attribute {name!r}")
