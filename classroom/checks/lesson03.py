"""Checks for lesson 3's exercises: ex3.cap_text, ex3.page_notice, ex3.capped_tool.

- ex3.cap_text: cut a text to a budget of characters and end it with a notice that says
  how much was left out and how to get more; the notice counts against the budget.
- ex3.page_notice: the one-line notice of a paged file read, in the words of
  `agentlib.workspace.truncation_notice`, naming the offset to continue from.
- ex3.capped_tool: a wrapper that caps any tool's output as it enters the history and
  keeps the definition the model sees.

The checks target the mistakes the lesson is about: a silent cut (no notice), a notice
appended after cutting to the full budget (over the budget), and a wrong next offset
(tests/test_lesson03_checks.py proves that each is caught).
"""

from __future__ import annotations

import json
import random
import re
import reprlib
from collections.abc import Callable

from agentlib.tools import Toolbox
from agentlib.workspace import NOTICE_RE, parse_notice, split_lines
from classroom.grading import drawn, is_drawn, own_work, register, seed

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex3", "agentlib.context.cut", "agentlib.context.cap", "agentlib.context.headtail")
own_work("ex3.page_notice", "agentlib.workspace:truncation_notice",
         cells="served")  # the workload's paged reads write it in the setup cell

# ---------------------------------------------------------------- shared data

WORDS = ["cache", "retry", "deploy", "pool", "gateway", "ledger", "timeout", "health"]


def _log(n_lines: int, number: int = 0) -> str:
    """A log-like text of n_lines lines, each ending in a newline: the same every time in a
    learner's kernel, drawn at grading time by the grader."""
    lines, r = [], random.Random(seed(number)) if is_drawn() else None
    for i in range(n_lines):
        k = (i * 7 + number * 13) % 97 if r is None else r.randrange(97)
        shift = number if r is None else r.randrange(97)
        word = WORDS[(i + shift) % len(WORDS)]
        lines.append(f"2026-03-{k % 28 + 1:02d}T{k % 24:02d}:{k % 60:02d}:00Z INFO {word} "
                     f"step {i} took {k * 3}ms" + " ." * (k % 5) + "\n")
    return "".join(lines)


CUT_RE = re.compile(r"\n\[truncated: (\d+) more characters not shown; (.*)\]\Z", re.S)


def _cut_notice(n: int, more: str) -> str:
    return f"\n[truncated: {n} more characters not shown; {more}]"


def _text_cases() -> list[tuple[str, int]]:
    """(text, max_chars) pairs where the text is longer than the budget.

    Budgets from 120 to 5,000 characters; text lengths chosen so that the number of
    characters left out has fewer digits than the text's length, and the same number.
    """
    cases = []
    for n_lines, number in ((8, 1), (30, 2), (120, 3), (400, 4)):
        text = _log(n_lines, number)
        for max_chars in (120, 200, 333, 1000, 2500, 5000):
            if len(text) > max_chars:
                cases.append((text, max_chars))
    korean = "에이전트는 요청마다 대화 전체를 다시 보낸다. " * 40  # characters, not bytes
    cases += [(korean, 300), ("x" * 1001, 1000), ("y" * 10_050, 10_000)]
    for r in drawn(1, 4):
        budget = r.randrange(170, 6_000)
        cases.append((_log(r.randrange(budget // 40 + 2, budget // 10 + 60), r.randrange(97)),
                      budget))
    return [(text, budget) for text, budget in cases if len(text) > budget]


def _as_text(got, name: str) -> str:
    assert isinstance(got, str), f"{name} should return a str, got {type(got).__name__}"
    return got


# ---------------------------------------------------------------- ex3.cap_text

CAP_HINT = ("if len(text) <= max_chars return it; else keep = max_chars - len(notice) and "
            "return text[:keep] + notice, where notice = "
            "f'\\n[truncated: {len(text) - keep} more characters not shown; {more}]'")


def _cap(ns: dict, text: str, max_chars: int, more: str | None = None) -> str:
    kwargs = {} if more is None else {"more": more}
    return _as_text(ns["cap_text"](text, max_chars, **kwargs), "cap_text")


def _capped(ns: dict):
    """(text, max_chars, what the learner's cap_text returned) for every case."""
    for text, max_chars in _text_cases():
        yield text, max_chars, _cap(ns, text, max_chars)


def _where(text: str, max_chars: int) -> str:
    return f"for a text of {len(text):,} characters and max_chars={max_chars:,}"


def _parse_cut(got: str, text: str, max_chars: int) -> tuple[str, int, str]:
    """(kept text, number said to be left out, how to get more) of a cut result."""
    match = CUT_RE.search(got)
    assert match, (f"cap_text {_where(text, max_chars)} returned a result without the notice "
                   "'\\n[truncated: N more characters not shown; ...]' at its end: a silent "
                   "cut makes the model take the part for the whole; it ends with "
                   f"{got[-40:]!r}")
    return got[:match.start()], int(match.group(1)), match.group(2)


@register("ex3.cap_text", "returns a text that fits unchanged", hint=CAP_HINT,
          needs=("cap_text",))
def _cap_fits(ns: dict) -> None:
    for text, max_chars in [("", 100), ("short", 100), ("z" * 100, 100), (_log(10), 2000),
                            (_log(10), len(_log(10)))]:
        got = _cap(ns, text, max_chars)
        assert got == text, (f"cap_text {_where(text, max_chars)} should return the text "
                             "unchanged (it fits; no notice either), got "
                             f"{len(got):,} characters")


@register("ex3.cap_text", "a cut text ends with a notice, never silently", hint=CAP_HINT,
          needs=("cap_text",))
def _cap_notice(ns: dict) -> None:
    for text, max_chars, got in _capped(ns):
        _, _, more = _parse_cut(got, text, max_chars)
        assert more.strip(), "the notice should say how to get more (the `more` text)"
    text, more = _log(50), "search for a narrower pattern"
    got = _cap(ns, text, 1200, more)
    _, _, said = _parse_cut(got, text, 1200)
    assert said == more, (f"with more={more!r} the notice should end with it, got {said!r}")


@register("ex3.cap_text", "the whole result, notice included, fits the budget",
          hint="the notice counts against max_chars: cut the text to max_chars minus the "
               "notice's length, not to max_chars", needs=("cap_text",))
def _cap_budget(ns: dict) -> None:
    for text, max_chars, got in _capped(ns):
        assert len(got) <= max_chars, (
            f"cap_text {_where(text, max_chars)} returned {len(got):,} characters, "
            f"{len(got) - max_chars:,} over the budget: the notice must fit inside it")


@register("ex3.cap_text", "the notice counts the characters left out",
          hint="N is len(text) minus the characters you kept, and the kept part is "
               "text[:keep]", needs=("cap_text",))
def _cap_count(ns: dict) -> None:
    for text, max_chars, got in _capped(ns):
        kept, said, _ = _parse_cut(got, text, max_chars)
        assert text.startswith(kept), (f"cap_text {_where(text, max_chars)}: the part before "
                                       "the notice should be the start of the text, unchanged")
        assert said == len(text) - len(kept), (
            f"cap_text {_where(text, max_chars)} kept {len(kept):,} characters, so "
            f"{len(text) - len(kept):,} were left out; the notice says {said:,}")


@register("ex3.cap_text", "keeps as much of the text as fits",
          hint="the notice takes only its own length: keep max_chars - len(notice) "
               "characters of the text", needs=("cap_text",))
def _cap_keeps(ns: dict) -> None:
    for text, max_chars, got in _capped(ns):
        kept, _, more = _parse_cut(got, text, max_chars)
        room = max_chars - len(_cut_notice(len(text), more))
        assert len(kept) >= room - 10, (
            f"cap_text {_where(text, max_chars)} kept {len(kept):,} characters of the text; "
            f"{room:,} fit beside the notice")


# ---------------------------------------------------------------- ex3.page_notice

NOTICE_HINT = ("end = offset + shown; return '' if end >= total, else f'[truncated: lines "
               "{offset + 1}-{end} of {total} shown; {total - end} more lines not shown; "
               "continue with read_file(path={json.dumps(path, ensure_ascii=False)}, "
               "offset={end})]'")
PAGES = [("incident.log", 0, 53, 400), ("incident.log", 53, 53, 400),
         ("services/auth.conf", 10, 5, 41), ("a.txt", 0, 1, 2), ("logs/big.log", 990, 9, 1000),
         ("x.md", 7, 20, 100)]
PATHS = ["incident.log", "services/api.conf", "logs/app-2026.log", "메모/회의.md",
         'notes/"draft".txt', "dir\\file.txt", "a b/c.txt"]


def _pages() -> list[tuple[str, int, int, int]]:
    """PAGES, and pages drawn at grading time (some lines left after each)."""
    drawn_pages = []
    for r in drawn(2, 4):
        total = r.randrange(3, 5_000)
        offset = r.randrange(0, total - 1)
        drawn_pages.append((r.choice(PATHS), offset, r.randrange(1, total - offset), total))
    return PAGES + drawn_pages


def _notice(ns: dict, path: str, offset: int, shown: int, total: int) -> str:
    return _as_text(ns["page_notice"](path, offset, shown, total), "page_notice")


def _parsed(ns: dict, path: str, offset: int, shown: int, total: int) -> re.Match:
    got = _notice(ns, path, offset, shown, total)
    match = NOTICE_RE.fullmatch(got)
    assert match, (f"page_notice({path!r}, {offset}, {shown}, {total}) returned a text that "
                   "is not one line in the course's notice format (see "
                   "agentlib.workspace.truncation_notice), so the course model could not read "
                   f"it: {got!r}")
    return match


@register("ex3.page_notice", "is one line in the notice format the model reads",
          hint=NOTICE_HINT, needs=("page_notice",))
def _notice_format(ns: dict) -> None:
    for page in _pages():
        match = _parsed(ns, *page)
        assert json.loads(match.group("path")) == page[0], "the notice names another path"


@register("ex3.page_notice", "counts lines from 1 and says how many remain",
          hint="lines offset+1 to offset+shown (1-based, inclusive); total - (offset + shown) "
               "remain", needs=("page_notice",))
def _notice_counts(ns: dict) -> None:
    for path, offset, shown, total in _pages():
        m = _parsed(ns, path, offset, shown, total)
        got = (int(m["first"]), int(m["last"]), int(m["total"]), int(m["remaining"]))
        want = (offset + 1, offset + shown, total, total - offset - shown)
        assert got == want, (
            f"page_notice({path!r}, {offset}, {shown}, {total}) says lines {got[0]}-{got[1]} "
            f"of {got[2]} shown, {got[3]} more; expected lines {want[0]}-{want[1]} of "
            f"{want[2]}, {want[3]} more")


@register("ex3.page_notice", "names the next offset: the first line not shown",
          hint="offsets count from 0, so the next one is offset + shown (not shown, not "
               "offset + shown + 1)", needs=("page_notice",))
def _notice_offset(ns: dict) -> None:
    for path, offset, shown, total in _pages():
        m = _parsed(ns, path, offset, shown, total)
        assert int(m["offset"]) == offset + shown, (
            f"page_notice({path!r}, {offset}, {shown}, {total}) says continue at "
            f"offset={m['offset']}; lines {offset}..{offset + shown - 1} (0-based) were "
            f"shown, so the next offset is {offset + shown}")


@register("ex3.page_notice", "says nothing when nothing is left",
          hint="when offset + shown >= total, return '' (a notice would send the agent "
               "past the end)", needs=("page_notice",))
def _notice_end(ns: dict) -> None:
    ends = [(r.choice(PATHS), (t := r.randrange(2, 900)) - (n := r.randrange(1, 40)), n
             + r.randrange(0, 3), t) for r in drawn(3, 3)]
    for path, offset, shown, total in [("a.txt", 0, 2, 2), ("incident.log", 371, 29, 400),
                                       ("b.txt", 0, 1, 1), *ends]:
        got = _notice(ns, path, offset, shown, total)
        assert got == "", (f"page_notice({path!r}, {offset}, {shown}, {total}): the page "
                           f"reaches the end, so return '', got {got!r}")


@register("ex3.page_notice", "an agent following the notices reads the file exactly once",
          hint=NOTICE_HINT, needs=("page_notice",))
def _notice_paging(ns: dict) -> None:
    length = next((r.randrange(90, 190) for r in drawn(4)), 137)
    text = _log(length, 5)
    lines = split_lines(text)
    for page_size in (1, 10, 25, length - 1, length, 200):
        offset, got, pages = 0, [], 0
        while True:
            shown = lines[offset:offset + page_size]
            got += shown
            pages += 1
            notice = _notice(ns, "logs/app.log", offset, len(shown), len(lines))
            found = parse_notice(notice)
            if found is None:
                break
            assert pages < 200, "the notices never stop: the agent would read forever"
            assert found[1] > offset, (f"after the page at offset {offset} the notice sends "
                                       f"the agent back to offset {found[1]}")
            offset = found[1]
        assert "".join(got) == text, (
            f"reading a {len(lines)}-line file {page_size} lines at a time by following "
            f"your notices gave {len(got)} lines instead of {len(lines)}: "
            + ("lines were repeated" if len(got) > len(lines) else "lines were skipped"))


@register("ex3.page_notice", "writes the path so that any path reads back",
          hint="json.dumps(path, ensure_ascii=False) quotes and escapes the path",
          needs=("page_notice",))
def _notice_path(ns: dict) -> None:
    extra = ["".join(r.choice('ab "/\\\'메모_.') for _ in range(r.randrange(3, 20))) + ".txt"
             for r in drawn(5, 2)]
    for path in ['notes/meeting "draft".txt', "회의 메모.md", "dir\\file.txt", *extra]:
        got = _notice(ns, path, 0, 3, 10)
        found = parse_notice(got)
        assert found is not None and found[0] == path, (
            f"page_notice({path!r}, 0, 3, 10): parse_notice reads back "
            f"{found[0] if found else None!r} as the path of the notice it returned, {got!r}")


# ---------------------------------------------------------------- ex3.capped_tool

WRAP_HINT = ("@functools.wraps(tool) def capped(*args, **kwargs): return "
             "cap_text(str(tool(*args, **kwargs)), max_chars)")


def _sample_tool(calls: list) -> Callable:
    def lookup(query: str, limit: int = 5, exact: bool = False) -> str:
        """Look up log lines that mention a word.

        Args:
            query: the word to look for.
            limit: the most lines to return.
            exact: match the whole word only.
        """
        calls.append((query, limit, exact))
        return "".join(line for line in split_lines(_log(300, 7)) if query in line)
    return lookup


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60


def _brief(value) -> str:
    """A short repr of one field of a tool definition."""
    return _REPR.repr(value)


def _wrap(ns: dict, tool: Callable, max_chars: int) -> Callable:
    got = ns["capped_tool"](tool, max_chars)
    assert callable(got), f"capped_tool should return a function, got {type(got).__name__}"
    return got


def _ends_with_a_notice(out: str) -> bool:
    last = split_lines(out)[-1] if out else ""
    return bool(CUT_RE.search(out) or NOTICE_RE.fullmatch(last.strip()))


@register("ex3.capped_tool", "the model sees the same tool: name, description, parameters",
          hint="decorate the wrapper with @functools.wraps(tool); Toolbox reads the name, "
               "docstring and signature from it", needs=("capped_tool",))
def _wrap_definition(ns: dict) -> None:
    tool = _sample_tool([])
    wrapped = _wrap(ns, tool, 500)
    try:
        got = Toolbox([wrapped]).definitions
    except (TypeError, ValueError) as e:
        raise AssertionError(f"Toolbox cannot build a definition from the wrapper: {e}") from None
    want = Toolbox([tool]).definitions
    if got != want:
        g, w = (got[0] if got else {}), want[0]
        fields = [k for k in dict.fromkeys([*w, *g]) if g.get(k) != w.get(k)]
        first = fields[0]
        raise AssertionError(
            f"the wrapper's tool definition differs from the tool's in {', '.join(fields)}: "
            f"its {first} is {_brief(g.get(first))}, expected {_brief(w.get(first))}")


@register("ex3.capped_tool", "passes every argument through, short results unchanged",
          hint="call tool(*args, **kwargs) with exactly what the wrapper received",
          needs=("capped_tool",))
def _wrap_arguments(ns: dict) -> None:
    calls: list = []
    tool = _sample_tool(calls)
    wrapped = _wrap(ns, tool, 100_000)
    for args, kwargs, want in [(("pool",), {}, ("pool", 5, False)),
                               (("retry", 3), {}, ("retry", 3, False)),
                               ((), {"query": "deploy", "limit": 2, "exact": True},
                                ("deploy", 2, True))]:
        calls.clear()
        try:
            out = wrapped(*args, **kwargs)
        except TypeError as e:
            raise AssertionError(f"wrapper(*{args}, **{kwargs}) failed with TypeError: {e}; "
                                 "the model's tool calls arrive as keyword arguments") from None
        assert calls, f"wrapper(*{args}, **{kwargs}) did not call the tool, expected {want}"
        assert calls[-1] == want, (
            f"wrapper(*{args}, **{kwargs}) called the tool with {calls[-1]}, expected {want}")
        assert out == tool(*args, **kwargs), ("a result that fits the budget should come back "
                                              "unchanged")


@register("ex3.capped_tool", "cuts a long result to the budget and says so",
          hint="pass the tool's output through cap_text (exercise 1) before returning it",
          needs=("capped_tool",))
def _wrap_caps(ns: dict) -> None:
    tool = _sample_tool([])
    for max_chars in (300, 1000):
        out = _wrap(ns, tool, max_chars)("step")
        full = tool("step")
        assert isinstance(out, str), f"the wrapper should return a str, got {type(out).__name__}"
        assert len(out) <= max_chars, (f"with max_chars={max_chars} the wrapper returned "
                                       f"{len(out):,} characters of a {len(full):,}-character "
                                       "result")
        assert _ends_with_a_notice(out), (
            f"the result was cut from {len(full):,} to {len(out):,} characters without a "
            "notice: a silent cut makes the model take the part for the whole")
        assert full.startswith(out[:50]), "the cut result should start as the tool's output does"


@register("ex3.capped_tool", "caps the text of any result, in a Toolbox too",
          hint="turn the result into text with str(...) before cutting it",
          needs=("capped_tool",))
def _wrap_toolbox(ns: dict) -> None:
    def list_ids(prefix: str) -> list:
        """List the record ids that start with a prefix.

        Args:
            prefix: the start of the ids.
        """
        return [f"{prefix}-{i:05d}" for i in range(400)]

    box = Toolbox([_wrap(ns, list_ids, 400)])
    block = box.run({"type": "tool_use", "id": "toolu_ex3", "name": "list_ids",
                     "input": {"prefix": "rec"}})
    if block.get("is_error") and "NotImplementedError" in block["content"]:
        raise NotImplementedError  # a part of the exercise is not written yet
    assert not block.get("is_error"), f"the tool call failed: {block['content']}"
    content = block["content"]
    assert len(content) <= 400 and _ends_with_a_notice(content), (
        f"a tool returning a list of 400 ids gave a tool_result of {len(content):,} "
        "characters; cap str(result) to 400 characters, with a notice")


@register("ex3.capped_tool", "calls the tool once per call",
          hint="call the tool once, keep its output in a variable, then cut that",
          needs=("capped_tool",))
def _wrap_once(ns: dict) -> None:
    calls: list = []
    wrapped = _wrap(ns, _sample_tool(calls), 300)
    wrapped("step")
    assert len(calls) == 1, (f"one call to the wrapper ran the tool {len(calls)} times; a "
                             "tool may be slow, cost money or change something")
