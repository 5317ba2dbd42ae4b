"""Head and tail: cap a long output by keeping its start and its end, and say what is between.

A plain cap keeps the start of a result. Many long outputs say the most at both ends: an
error's first lines name the command, its last lines the failure; a log starts with its
setup and ends with its conclusion. Cutting out the middle keeps both (seed 003, step 4).
The notice in the middle says how many lines are missing and where to read them, in the
words of `read_file`'s own notice, so a model that pages can read on from there.
"""

from __future__ import annotations

import json

from agentlib.context.cut import NOTICE_ROOM, cap_lines, cap_text
from agentlib.workspace import NOTICE_RE, split_lines


def middle_notice(path: str, first: int, last: int, total: int) -> str:
    """The notice for lines [first, last) of `total` (0-based) left out in the middle."""
    return (f"[truncated: {last - first} more lines not shown (lines {first + 1}-{last} of "
            f"{total}); continue with read_file(path={json.dumps(path, ensure_ascii=False)}, "
            f"offset={first})]")


def head_tail_lines(text: str, path: str, offset: int, max_chars: int) -> str:
    """A file read cut to `max_chars` at line boundaries: the first and the last lines, each
    about half the budget, and between them the notice. A read that the tool itself cut
    (it ends with read_file's notice: more lines follow) keeps only its head, as `cap`."""
    lines = split_lines(text)
    if len(text) <= max_chars or (lines and NOTICE_RE.search(lines[-1])):
        return cap_lines(text, path, offset, max_chars)
    total = offset + len(lines)
    longest = middle_notice(path, offset, total, total)
    room = (max_chars - max(NOTICE_ROOM, len(longest) + 1)) // 2
    head, used = 0, 0
    while head < len(lines) and used + len(lines[head]) <= room:
        used, head = used + len(lines[head]), head + 1
    tail, used = len(lines), 0
    while tail > head and used + len(lines[tail - 1]) <= room:
        used, tail = used + len(lines[tail - 1]), tail - 1
    if head == 0 or tail == len(lines):  # a very long first or last line: cut the start only
        return cap_lines(text, path, offset, max_chars)
    notice = middle_notice(path, offset + head, offset + tail, total)
    return "".join(lines[:head]) + notice + "\n" + "".join(lines[tail:])


def head_tail_text(text: str, max_chars: int) -> str:
    """Any other output cut to `max_chars`: its start and its end around a notice."""
    if len(text) <= max_chars:
        return text
    room = (max_chars - NOTICE_ROOM) // 2
    if room <= 0:
        return cap_text(text, max_chars)
    left_out = len(text) - 2 * room
    return (text[:room] + f"\n[truncated: {left_out} characters not shown in the middle; "
            f"narrow the query to see them]\n" + text[-room:])
