"""A Korean notebook prints Korean (issue 33): every word in the saved outputs of lessons/ko
and solutions/ko (and so exercises/ko, generated from them) is Korean, a number, code, or
one of a few listed tokens. The code cells are the English ones; what they print as words
goes through `coursekit.i18n` (`say`, `coursekit.table.table`, agentlib's `print(run)`), so
a new cell is held by this test as soon as its Korean notebook is executed.

Each line of a stream or text output is read in three steps:

1. A line that is not the lesson's own words is skipped, whole or from a marker on: what the
   model, a tool or the API says, quoted as it is (NOT_OURS, each kind with why). The course
   model answers in English as Claude would to English tasks; the tasks, tools and errors
   are the API's strings.
2. Code is taken out (`code_removed`): backtick spans, quoted strings, Python literals in
   brackets, a call's name (its arguments are read), `key=value`, and every token shaped like code or data: with `_`, `.`,
   `/`, `+`, `=`, digits, all capitals (API, GB, BAD-DEPLOY), inner capitals
   (BadRequestError), or a hyphen (cache-aware, ledger-writer; but the glossary's own
   hyphenated words, append-only, are words).
3. Every Latin word left must be in WORDS, each with why.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coursekit import bench

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted([*(ROOT / "lessons" / "ko").glob("*.ipynb"),
                    *(ROOT / "solutions" / "ko").glob("*.ipynb")])

# 1. Lines, or the rest of a line after a marker, that are not the lesson's own words.
NOT_OURS = {
    # the API's own words (lessons/ko/STYLE.md: API error strings stay as the API says them)
    r"prompt is too long|BadRequestError|invalid_request_error|^\s*messages(\.\d+)+|"
    r"context_management\.edits|must have non-empty content|`tool_use` ids|`tool_use_id`|"
    r"All tools have defer_loading set|Invalid `signature`|unexpected `tool_use_id`|"
    r"The block is bound to a different conversation": "an API error string",
    r"^x-should-retry: ": "an HTTP header of the API's response, as it is",
    # what a tool returns to the model, which the model reads (English like the tools)
    r"^…|\[(truncated|cut to the|cleared to save context|Earlier turns removed)|"
    r"^\s*\[\d+ more (matches|lines)|Error: \w*Error: |File created successfully|"
    r"The file /memories|^\s*-> is_error=|^services/\S+ \(\d+ lines\)$|"
    r"(^|: )\d+ invoices, total: ": "a tool result (or a script's output, which the model reads)",
    r"^\s*(services/[\w/-]+\.conf:\d+: |\d{4}-\d\d-\d\dT\d\d:)|(^|: )(# \w+: |\[(settings|recent "
    r"log)\]|\w+ = \w+$)|RESOLVED postmortem|^services$": "a line of the workload's files (or of "
                                                           "a search result cut at its budget)",
    r"^\s*hint: a cut or a deletion": "agentlib's HistoryError, worded as the API's 400",
    r"^\s*ValueError: notes filename": "agentlib's error message (English, like the API's)",
    # the model's words: its replies, summaries, notes and scripts
    r"^(답: |모델의 답: |모델의 응답: |마지막 응답: |USER: |ASSISTANT: |TOOL (CALL|RESULT)|"
    r"<summary>|## |\[Summary of earlier turns\])|(^|: )(I |Noted|Plan: |Answer:|"
    r"The (log|result|user) |Understood|\d+ tool calls made|Along the way|[\w-]+: \d+$)|"
    r"^(import |\w+ = |print\()": "the model's words (its reply, summary or script)",
    # what is sent to the model: tasks, the user's turns, prompts, tool definitions
    r"(^|\s)(과제: |사용자 턴 \d+: |이어서: |마지막 턴: |준비됨: )|^첫 도구: \w+ - |"
    r"(^|: )(Audit the service|Read `incident\.log`|I'm buying|a few models|User constraint|"
    r"The user's limits|my (hard limits|preferences)|and (it must|ideally)|"
    r"You (have|summarize|are)|Summarize the conversation|Incident INC-\d+ is open|"
    r"\{'name': |The user asked)": "a task, a user's turn, a prompt or a tool definition "
                                    "sent to the model",
}
NOT_OURS_RE = [re.compile(r) for r in NOT_OURS]

# 3. The Latin words a Korean output may show, each with why.
WORDS = {
    "agentlib": "the course's package, named in sentences (agentlib의 버전)",
    "delegate": "the lead's tool, by its name (agentlib.delegate), as list_files is",
    "Crash": "appendix A's exception class, printed as Python prints an exception",
    "True": "Python's value, as the code prints it",
    "False": "Python's value, as the code prints it",
    "None": "Python's value, as the code prints it",
    "keep": "the parameter name (Clearing(keep=...), SlidingWindow), the API's `keep`",
    "trigger": "the API's and agentlib's parameter name",
    "constraints": "the workload's name (workloads.constraints)",
    "audit": "the workload's name (workloads.audit), as the capstone's task.name gives it",
    "needle": "the workload's name (workloads.needle), as the capstone's task.name gives it",
    "ops": "the workload's name (workloads.ops), as the capstone's task.name gives it",
    "regex": "the tool search variant's name (tool_search_tool_regex)",
    "assistant": "the API's role name",
    "user": "the API's role name",
    "system": "the API's request field",
    "thinking": "the API's block type",
    "text": "the API's block type",
    "compaction": "the API's block type",
    "message": "the API's iteration type (usage.iterations)",
    "unavailable": "the API's cache_miss_reason type (diagnostics), as it names it",
    "search": "the workload's tool name (Workspace.search), as read_file is",
}

def class_names() -> set[str]:
    """The classes of agentlib and coursekit (Notes, Team, Toolbox): names from the code."""
    import importlib
    import inspect
    import pkgutil

    import agentlib
    import coursekit

    found = set()
    for package in (agentlib, coursekit):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            found |= {name for name, obj in vars(module).items()
                      if inspect.isclass(obj) and obj.__module__ == info.name}
    return found


CLASSES = class_names()
HYPHENATED_WORDS = {"append-only", "free-form", "head-and-tail"}  # words, not names
STRATEGY_NAMES = sorted({name for size in bench.SIZES.values()
                         for name in bench.strategies(size, None, ".")} - {"append-only"},
                        key=len, reverse=True)
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.'+=*-]*[A-Za-z0-9_]|[A-Za-z]")


def code_removed(line: str) -> str:
    """`line` without its code: spans in backticks and quotes, bracketed literals, calls,
    key=value pairs and strategy names."""
    text = re.sub(r"`[^`]*`|\S*/\S*", " ", line)  # code spans; paths (services/, WORK/x.md)
    text = re.sub(r"\b[\w.]+=('[^']*'|[^\s,;)]+)", " ", text)  # key=value, keep=3, model='x'
    text = re.sub(r"(?<![A-Za-z0-9_])'(?:[^'\\\n]|\\.)*'(?![A-Za-z0-9_])|\"(?:[^\"\\\n]|\\.)*\"",
                  " ", text)  # a quoted string, a particle may follow: 'budget'이
    for _ in range(4):  # nested literals, innermost first
        text = re.sub(r"\[[^\[\]]*\]|\{[^{}]*\}", " ", text)
    text = re.sub(r"\b[A-Za-z_]\w*\(", " (", text)  # a call's name; its arguments are read
    for name in STRATEGY_NAMES:
        text = text.replace(name, " ")
    return text


def is_code(token: str) -> bool:
    if token in HYPHENATED_WORDS:
        return False
    return bool(re.search(r"[_./+=*\d]", token) or token.isupper() or token in CLASSES
                or re.search(r"[a-z][A-Z]", token) or "-" in token)


def foreign_words(line: str) -> list[str]:
    """The Latin words of `line` that are neither code nor in WORDS."""
    for pattern in NOT_OURS_RE:
        m = pattern.search(line)
        if m:
            line = line[:m.start()]
    return [t for t in LATIN.findall(code_removed(line))
            if not is_code(t) and t not in WORDS]


def output_lines(path: Path) -> list[tuple[str, str]]:
    """(cell id, line) for every line of every stream and plain-text output."""
    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                text = out["text"]
            elif "text/plain" in out.get("data", {}) and "image/png" not in out["data"]:
                text = out["data"]["text/plain"]
            else:
                continue
            text = text if isinstance(text, str) else "".join(text)
            found += [(cell["id"], line) for line in text.splitlines()]
    return found


def english_words(path: Path) -> list[str]:
    return [f"{cell}: {words} in {line.strip()[:110]!r}" for cell, line in output_lines(path)
            if (words := foreign_words(line))]


def test_the_reader_finds_english_and_passes_korean_and_code():
    assert foreign_words("The notebook's version and agentlib's agree") == [
        "The", "notebook's", "version", "and", "agentlib's", "agree"]
    assert foreign_words("노트북의 버전과 agentlib.loop의 버전이 일치합니다") == []
    assert foreign_words("Run('audit(12)': 답함, 호출 15번") == []
    assert foreign_words("read_file 상한 1,500자; Clearing(keep=3, trigger=12000)") == []
    assert foreign_words("추가 전용 대비 0.38배 (기준 0.5배) cache-aware") == []
    assert foreign_words("append-only  15 calls") == ["append-only", "calls"]
    assert foreign_words("요청 6번 뒤 answered") == ["answered"]
    assert foreign_words("400 BadRequestError: prompt is too long: 8586 tokens") == []
    assert foreign_words("keep 4  True  전체 입력 토큰") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_korean_notebook_prints_no_english_word(path):
    found = english_words(path)
    assert not found, (f"{path.relative_to(ROOT)}: English words in the saved outputs (print "
                       f"them through coursekit.i18n.say or coursekit.table.table, with their "
                       f"Korean in i18n.PRINTED or PHRASES):\n" + "\n".join(found))


def test_every_allowed_token_is_used():
    """An entry of WORDS that no output needs is dropped (the list stays small)."""
    seen = set()
    for path in NOTEBOOKS:
        for _, line in output_lines(path):
            for pattern in NOT_OURS_RE:
                m = pattern.search(line)
                if m:
                    line = line[:m.start()]
            seen |= {t for t in LATIN.findall(code_removed(line)) if not is_code(t)}
    assert not set(WORDS) - seen, f"not needed any more: {sorted(set(WORDS) - seen)}"


def test_a_lesson_sentence_is_korean_in_a_korean_notebook(monkeypatch):
    from coursekit import i18n

    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    assert i18n.say("step {i}: estimate {n:,}, {outcome}", i=1, n=5779, outcome="x") == \
        "1단계: 추정치 5,779, x"
    monkeypatch.setenv("AGENTLIB_LANG", "en")
    assert i18n.say("step {i}: estimate {n:,}, {outcome}", i=1, n=5779, outcome="x") == \
        "step 1: estimate 5,779, x"


def test_a_run_prints_in_the_notebooks_language(monkeypatch):
    """`print(run)` is agentlib's; in a Korean notebook coursekit.i18n gives it its words."""
    from agentlib.loop import Run, Step
    from agentlib.task import Score

    run = Run("append-only", [], [], [Step(0, input_tokens=846), Step(1, input_tokens=985)],
              "x", Score(True, 1.0, 1.0, detail="3 of 3 found, 0 wrong"), "answered")
    monkeypatch.setenv("AGENTLIB_LANG", "en")
    assert str(run) == ("Run('append-only': answered, 2 calls, 1,831 input tokens in all, peak "
                        "985, Score(success=True, precision=1.00, recall=1.00; 3 of 3 found, 0 "
                        "wrong))")
    monkeypatch.setenv("AGENTLIB_LANG", "ko")
    assert foreign_words(str(run)) == [], str(run)
    assert "추가 전용" in str(run) and "3개 중 3개" in str(run)


def test_every_printed_template_keeps_its_slots():
    """Each Korean template names the same {slots} as its English key, so a value is never
    lost or asked for in vain."""
    from coursekit import i18n

    slots = re.compile(r"\{(\w+)[^}]*\}")
    bad = [en for en, ko in {**i18n.PRINTED, **i18n.PHRASES}.items()
           if set(slots.findall(en)) != set(slots.findall(ko))]
    assert not bad, bad


def said_in_code() -> list[tuple[str, str, str]]:
    """(notebook, cell id, English text) for every literal a code cell hands to `say` or as a
    heading to `table`, read with ast (a cell that is not plain Python is skipped)."""
    import ast

    found = []
    for folder in ("lessons", "solutions"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] != "code":
                    continue
                try:
                    tree = ast.parse("".join(cell["source"]))
                except SyntaxError:
                    continue
                for node in ast.walk(tree):
                    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                        continue
                    args = []
                    if node.func.id == "say" and node.args:
                        args = [node.args[0]]
                    elif node.func.id == "table" and len(node.args) > 1 and \
                            isinstance(node.args[1], ast.List):
                        args = list(node.args[1].elts)
                    found += [(path.name, cell["id"], a.value) for a in args
                              if isinstance(a, ast.Constant) and isinstance(a.value, str)
                              and re.search(r"[A-Za-z]{2}", a.value)]
    return found


def test_every_sentence_a_cell_says_has_its_korean():
    """A new `say("...")` or table heading without a Korean entry is found before any
    notebook runs (the saved outputs then show it too)."""
    from coursekit import i18n

    known = {**i18n.PHRASES, **i18n.PRINTED}
    missing = sorted({f"{name} {cell}: {text!r}" for name, cell, text in said_in_code()
                      if text not in known and i18n.translate(text) == text
                      and re.search(r"[a-z]{3,}", code_removed(text))
                      and not all(is_code(t) or t in WORDS
                                  for t in LATIN.findall(code_removed(text)))})
    assert not missing, "add their Korean to coursekit/i18n.py (PRINTED):\n" + "\n".join(missing)
