"""Cutting a text to a budget and saying so: by characters, or a paged read at a line.

The two cuts `cap` (and `headtail`) build on. A cut that is announced ("truncated ...
continue with offset=N") lets the model read on; `silent=True` exists to show the failure.
"""

from __future__ import annotations

from agentlib import tokens
from agentlib.workspace import NOTICE_RE, split_lines, truncation_notice

NOTICE_ROOM = 160  # characters kept free for the notice itself


def _fits(text: str, max_chars: int | None, max_tokens: int | None) -> bool:
    return (max_chars is None or len(text) <= max_chars) and \
        (max_tokens is None or tokens.count_text(text) <= max_tokens)


def cap_text(text: str, max_chars: int | None = None, max_tokens: int | None = None, *,
             silent: bool = False, more: str = "narrow the query to see less at once") -> str:
    """Cut `text` to the budget; unless `silent`, end with a notice of what was left out."""
    if max_chars is None and max_tokens is None:
        raise ValueError("give max_chars or max_tokens")
    if _fits(text, max_chars, max_tokens):
        return text
    notice = f"\n[truncated: {len(text)} more characters not shown; {more}]"  # the longest
    room = 0 if silent else max(NOTICE_ROOM, len(notice))
    if max_chars is not None and max_chars <= room:
        raise ValueError(f"max_chars={max_chars} leaves no room for the {room}-character notice")
    limit = (max_chars if max_chars is not None else max_tokens * 4) - room
    cut = text[:max(0, limit)]
    while max_tokens is not None and cut and tokens.count_text(cut) > max_tokens - room // 4:
        cut = cut[: int(len(cut) * 0.9)]
    if silent:
        return cut
    return cut + f"\n[truncated: {len(text) - len(cut)} more characters not shown; {more}]"


def cap_lines(text: str, path: str, offset: int, max_chars: int | None = None,
              max_tokens: int | None = None, *, silent: bool = False) -> str:
    """Cut a paged file read at a line boundary; the notice names the next `offset`."""
    if _fits(text, max_chars, max_tokens):
        return text
    lines = split_lines(text)
    notice = NOTICE_RE.search(lines[-1]) if lines else None
    if notice:  # the tool already paged: keep its total, drop its notice
        total = int(notice.group("total"))
        lines = lines[:-1]
        if lines:
            lines[-1] = lines[-1].rstrip("\n") + "\n"
    else:
        total = offset + len(lines)
    longest = truncation_notice(path, offset, total, total) + "\n"
    room = 0 if silent else max(NOTICE_ROOM, len(longest))
    budget_chars = None if max_chars is None else max_chars - room
    budget_tokens = None if max_tokens is None else max_tokens - (0 if silent else 50)
    kept, chars, toks = [], 0, 0
    for line in lines:
        chars += len(line)
        toks += tokens.count_text(line) if budget_tokens is not None else 0
        if (budget_chars is not None and chars > budget_chars) or \
                (budget_tokens is not None and toks > budget_tokens):
            break
        kept.append(line)
    if not kept and lines:  # one very long line: cut inside it rather than return nothing
        return cap_text(text, max_chars, max_tokens, silent=silent,
                        more=f"read with a smaller limit from offset={offset}")
    body = "".join(kept).removesuffix("\n")  # keep blank lines: the notice counts them
    if silent:
        return body
    end = offset + len(kept)
    return body + "\n" + truncation_notice(path, offset, end, total)
