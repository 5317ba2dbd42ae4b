"""Aligned text tables, in any language the course prints.

In a monospace font a Hangul character takes two columns (its East Asian width is "W"), so
padding with `f"{label:38}"` counts characters and leaves a Korean table out of line.
`cols` counts the columns the eye sees, `pad` pads to them, and `table` lays out rows with
them: its headings and text cells go through `coursekit.i18n.say`, so the same code cell
prints an English table in an English notebook and a Korean one in a Korean notebook.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence


def cols(text: object) -> int:
    """The columns `text` takes in a monospace font: two for a wide (Hangul, CJK) or
    full-width character, none for a combining mark, one for the rest."""
    width = 0
    for ch in str(text):
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return width


def pad(text: object, n: int, right: bool = False, center: bool = False) -> str:
    """`text` padded with spaces to `n` columns: on the right (left-aligned), or on the left
    with `right=True`, or on both sides with `center=True`."""
    text = str(text)
    space = max(0, n - cols(text))
    if center:
        return " " * (space // 2) + text + " " * (space - space // 2)
    return " " * space + text if right else text + " " * space


def cell(value: object) -> str:
    """A value as a table shows it: an int with thousands separators, text in the
    learner's language (`say`), anything else as `str` (format floats before)."""
    from coursekit.i18n import say  # noqa: PLC0415 (i18n imports this module)

    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str):
        return say(value)
    return str(value)


def table(rows: Iterable[Sequence] | Mapping[str, Sequence], heads: Sequence[str] | None = None,
          *, left: int = 1, gap: int = 2) -> str:
    """`rows` (lists of cells, or label -> cells) as aligned lines under `heads`.

    The first `left` columns align left, the others right; columns are `gap` spaces apart
    (two or more, so a column's words never run into the next one's)."""
    if isinstance(rows, Mapping):
        rows = [[label, *values] for label, values in rows.items()]
    lines = [[cell(v) for v in row] for row in rows]
    if heads is not None:
        lines.insert(0, [cell(h) for h in heads])
    if not lines:
        return ""
    n = max(len(line) for line in lines)
    widths = [max((cols(line[i]) for line in lines if i < len(line)), default=0)
              for i in range(n)]
    out = []
    for line in lines:
        parts = [pad(v, widths[i], right=i >= left) for i, v in enumerate(line)]
        out.append((" " * gap).join(parts).rstrip())
    return "\n".join(out)
