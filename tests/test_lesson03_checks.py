"""Lesson 03's checks pass the right answers and fail the known wrong ones.

The mistakes the lesson is about each have a check that must catch them: a silent cut
(`text[:n]`, no notice), a notice that pushes the result over the budget (cut to the full
budget, then append the notice), and a wrong next offset in a page's notice.
"""

import functools
import json

import pytest
from checktools import statuses

from agentlib.context.cap import cap
from agentlib.workspace import truncation_notice

# ---------------------------------------------------------------- ex3.cap_text


def notice(n, more):
    return f"\n[truncated: {n} more characters not shown; {more}]"


def right_cap(text, max_chars, more="narrow the query"):
    if len(text) <= max_chars:
        return text
    keep = max_chars - len(notice(len(text), more))
    return text[:keep] + notice(len(text) - keep, more)


def silent_cap(text, max_chars, more="narrow the query"):
    return text[:max_chars]


def over_budget(text, max_chars, more="narrow the query"):
    """The most common mistake: cut to the full budget, then add the notice."""
    if len(text) <= max_chars:
        return text
    return text[:max_chars] + notice(len(text) - max_chars, more)


def counts_the_total(text, max_chars, more="narrow the query"):
    if len(text) <= max_chars:
        return text
    keep = max_chars - len(notice(len(text), more))
    return text[:keep] + notice(len(text), more)


def keeps_nothing(text, max_chars, more="narrow the query"):
    if len(text) <= max_chars:
        return text
    return notice(len(text), more).lstrip("\n")


def always_notes(text, max_chars, more="narrow the query"):
    keep = max(0, max_chars - len(notice(len(text), more)))
    return text[:keep] + notice(len(text) - keep, more)


def ignores_more(text, max_chars, more="narrow the query"):
    return right_cap(text, max_chars)


def digits_guess(text, max_chars, more="narrow the query"):
    """Reserves room for the notice as if N were the part beyond the budget: too little
    when N has more digits than len(text) - max_chars."""
    if len(text) <= max_chars:
        return text
    keep = max_chars - len(notice(len(text) - max_chars, more))
    return text[:keep] + notice(len(text) - keep, more)


def test_cap_text_right_answer_passes():
    assert set(statuses("ex3.cap_text", cap_text=right_cap).values()) == {"pass"}


@pytest.mark.parametrize("wrong, title", [
    (silent_cap, "a cut text ends with a notice, never silently"),
    (over_budget, "the whole result, notice included, fits the budget"),
    (digits_guess, "the whole result, notice included, fits the budget"),
    (counts_the_total, "the notice counts the characters left out"),
    (keeps_nothing, "keeps as much of the text as fits"),
    (always_notes, "returns a text that fits unchanged"),
    (ignores_more, "a cut text ends with a notice, never silently"),
])
def test_cap_text_known_mistakes_fail(wrong, title):
    got = statuses("ex3.cap_text", cap_text=wrong)
    assert got[title] == "fail", got


def test_cap_text_silent_cut_fails_only_where_a_notice_is_needed():
    got = statuses("ex3.cap_text", cap_text=silent_cap)
    assert got["returns a text that fits unchanged"] == "pass"
    assert got["the whole result, notice included, fits the budget"] == "pass"


# ---------------------------------------------------------------- ex3.page_notice


def right_notice(path, offset, shown, total):
    end = offset + shown
    return truncation_notice(path, offset, end, total) if end < total else ""


def with_next(next_offset):
    """A notice right in every way but the offset it names to continue from."""
    def page_notice(path, offset, shown, total):
        end = offset + shown
        if end >= total:
            return ""
        return (f"[truncated: lines {offset + 1}-{end} of {total} shown; {total - end} more "
                f"lines not shown; continue with read_file(path="
                f"{json.dumps(path, ensure_ascii=False)}, offset={next_offset(offset, shown)})]")
    return page_notice


def zero_based(path, offset, shown, total):
    end = offset + shown
    if end >= total:
        return ""
    return right_notice(path, offset, shown, total).replace(
        f"lines {offset + 1}-{end}", f"lines {offset}-{end - 1}")


def remaining_from_start(path, offset, shown, total):
    end = offset + shown
    if end >= total:
        return ""
    return right_notice(path, offset, shown, total).replace(
        f"{total - end} more lines", f"{total - shown} more lines")


def notice_at_the_end(path, offset, shown, total):
    return truncation_notice(path, offset, offset + shown, total)


def naive_quotes(path, offset, shown, total):
    end = offset + shown
    if end >= total:
        return ""
    return (f"[truncated: lines {offset + 1}-{end} of {total} shown; {total - end} more "
            f'lines not shown; continue with read_file(path="{path}", offset={end})]')


def with_newline(path, offset, shown, total):
    text = right_notice(path, offset, shown, total)
    return "\n" + text if text else text


def test_page_notice_right_answer_passes():
    assert set(statuses("ex3.page_notice", page_notice=right_notice).values()) == {"pass"}


OFFSET_CHECK = "names the next offset: the first line not shown"
PAGING_CHECK = "an agent following the notices reads the file exactly once"


@pytest.mark.parametrize("next_offset", [
    lambda offset, shown: shown,  # forgets where the page started
    lambda offset, shown: offset + shown + 1,  # skips a line
    lambda offset, shown: offset + shown - 1,  # repeats a line
    lambda offset, shown: offset,  # sends the agent back to the same page
], ids=["shown", "plus-one", "minus-one", "same-page"])
def test_page_notice_wrong_next_offset_fails(next_offset):
    got = statuses("ex3.page_notice", page_notice=with_next(next_offset))
    assert got[OFFSET_CHECK] == "fail", got
    assert got[PAGING_CHECK] == "fail", got


@pytest.mark.parametrize("wrong, title", [
    (zero_based, "counts lines from 1 and says how many remain"),
    (remaining_from_start, "counts lines from 1 and says how many remain"),
    (notice_at_the_end, "says nothing when nothing is left"),
    (notice_at_the_end, PAGING_CHECK),
    (naive_quotes, "writes the path so that any path reads back"),
    (with_newline, "is one line in the notice format the model reads"),
])
def test_page_notice_known_mistakes_fail(wrong, title):
    got = statuses("ex3.page_notice", page_notice=wrong)
    assert got[title] == "fail", got


# ---------------------------------------------------------------- ex3.capped_tool


def right_wrapper(tool, max_chars):
    @functools.wraps(tool)
    def capped(*args, **kwargs):
        return right_cap(str(tool(*args, **kwargs)), max_chars)
    return capped


def no_wraps(tool, max_chars):
    def capped(*args, **kwargs):
        return right_cap(str(tool(*args, **kwargs)), max_chars)
    return capped


def silent_wrapper(tool, max_chars):
    @functools.wraps(tool)
    def capped(*args, **kwargs):
        return str(tool(*args, **kwargs))[:max_chars]
    return capped


def uncapped_wrapper(tool, max_chars):
    return tool


def positional_only(tool, max_chars):
    @functools.wraps(tool)
    def capped(*args, **kwargs):
        return right_cap(str(tool(*args)), max_chars)
    return capped


def no_str(tool, max_chars):
    @functools.wraps(tool)
    def capped(*args, **kwargs):
        out = tool(*args, **kwargs)
        return right_cap(out, max_chars) if isinstance(out, str) else out
    return capped


def calls_twice(tool, max_chars):
    @functools.wraps(tool)
    def capped(*args, **kwargs):
        if len(str(tool(*args, **kwargs))) <= max_chars:
            return str(tool(*args, **kwargs))
        return right_cap(str(tool(*args, **kwargs)), max_chars)
    return capped


def test_capped_tool_right_answer_passes():
    ns = {"capped_tool": right_wrapper, "cap_text": right_cap}
    assert set(statuses("ex3.capped_tool", **ns).values()) == {"pass"}


def test_capped_tool_with_agentlib_cap_passes():
    def capped_tool(tool, max_chars):
        return cap(tool, max_chars=max_chars)

    assert set(statuses("ex3.capped_tool", capped_tool=capped_tool).values()) == {"pass"}


@pytest.mark.parametrize("wrong, title", [
    (no_wraps, "the model sees the same tool: name, description, parameters"),
    (silent_wrapper, "cuts a long result to the budget and says so"),
    (uncapped_wrapper, "cuts a long result to the budget and says so"),
    (positional_only, "passes every argument through, short results unchanged"),
    (no_str, "caps the text of any result, in a Toolbox too"),
    (calls_twice, "calls the tool once per call"),
])
def test_capped_tool_known_mistakes_fail(wrong, title):
    got = statuses("ex3.capped_tool", capped_tool=wrong)
    assert got[title] == "fail", got


def test_capped_tool_with_an_unwritten_cap_text_is_todo():
    def todo(*args, **kwargs):
        raise NotImplementedError

    def capped_tool(tool, max_chars):
        @functools.wraps(tool)
        def capped(*args, **kwargs):
            return todo(str(tool(*args, **kwargs)), max_chars)
        return capped

    got = statuses("ex3.capped_tool", capped_tool=capped_tool)
    assert got["the model sees the same tool: name, description, parameters"] == "pass"
    assert got["cuts a long result to the budget and says so"] == "todo"
    assert got["caps the text of any result, in a Toolbox too"] == "todo"
