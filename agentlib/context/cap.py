"""Capping tool results at the source: limit what a tool returns, and say how to get more.

A tool result is most of a long run's bulk, so the cheapest place to save tokens is where
the result enters the history. The cut must be announced: a result that ends with a
notice ("truncated ... continue with offset=N") lets the model page on, while a silent
cut makes it believe it saw everything (lesson 03 shows the wrong answer that follows).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

from agentlib.context.cut import NOTICE_ROOM, cap_lines, cap_text  # noqa: F401 (re-exported)
from agentlib.context.headtail import head_tail_lines, head_tail_text


def cap(tool: Callable, max_chars: int | None = None, max_tokens: int | None = None, *,
        silent: bool = False, tail: bool = False) -> Callable:
    """Wrap a tool so that its results are capped as they enter the history.

    A tool with `path` and `offset` parameters (like `read_file`) is cut at a line and
    told where to continue; any other tool is cut by characters and told to narrow its
    query. `silent=True` drops the notice: it exists only to show the failure.
    `tail=True` keeps the end too (`headtail.py`: the notice goes in the middle).
    """
    if max_chars is None and max_tokens is None:
        raise ValueError("cap needs max_chars or max_tokens")
    if tail and (max_chars is None or max_tokens is not None or silent):
        raise ValueError("tail=True takes max_chars only, with its notice (not silent)")
    signature = inspect.signature(tool)
    paged = {"path", "offset"} <= set(signature.parameters)

    @functools.wraps(tool)
    def capped(*args, **kwargs):
        out = str(tool(*args, **kwargs))
        if paged:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            path, offset = bound.arguments["path"], bound.arguments["offset"] or 0
            if tail:
                return head_tail_lines(out, path, offset, max_chars)
            return cap_lines(out, path, offset, max_chars, max_tokens, silent=silent)
        if tail:
            return head_tail_text(out, max_chars)
        return cap_text(out, max_chars, max_tokens, silent=silent)

    return capped
