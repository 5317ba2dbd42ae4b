"""The course model as a summarizer: deterministic and extractive, never inventive.

It works on turns, (speaker, text) pairs, read either from a transcript a client sent
(a summary request: no tools, a summarizing system prompt) or, for the server's own
compaction, straight from the history. When the instructions ask for sections (goal,
key facts, ...) it copies the user's constraints verbatim and keeps every noted fact;
asked for sections "in your own words" (and not for anything verbatim) it restates the
goal and the constraints by fixed rules that soften them ("at most $1,400" becomes "around
$1,400"): the number survives, the limit does not. Given a bare "summarize" it writes a
short gist without exact numbers, the way a loose summary loses them. A real model writes
better prose but can lose numbers, or soften a limit, the same way.
"""

from __future__ import annotations

import json
import re

FACT_LINE = re.compile(r"^(?:Noted \[\d+/\d+\] .+|Plan: check .+|Noted: .+)$")
LIMIT_RE = re.compile(r"\b(at most|at least|must|never|only|budget|limit)", re.I)
GOAL_SECTION = re.compile(r"^## Goal\n(.*?)(?=^## |\Z)", re.M | re.S)
SPEAKER = re.compile(r"^(USER|ASSISTANT|TOOL RESULT[^:]*): ?(.*)$|^(TOOL CALL) (.*)$")



def turns_from_transcript(transcript: str) -> list[tuple[str, str]]:
    """Read a plain-text transcript ("USER: ...", "TOOL CALL name {...}") as turns."""
    turns: list[tuple[str, str]] = []
    for line in transcript.splitlines():
        m = SPEAKER.match(line)
        if m:
            turns.append((m.group(1) or m.group(3), m.group(2) if m.group(1) else m.group(4)))
        elif turns:
            turns[-1] = (turns[-1][0], turns[-1][1] + "\n" + line)
    return turns


def turns_from_messages(messages: list[dict]) -> list[tuple[str, str]]:
    """Read a history's blocks as turns; an earlier compaction block is a SUMMARY turn. The
    server's summary replaces turns whose thinking holds what the model concluded, so it
    reads that thinking too (docs/api-facts.md 7.2.6): a thinking block is the model's own
    words, an ASSISTANT turn (its full text, restored from the signature before this)."""
    turns = []
    for m in messages:
        content = m["content"] if isinstance(m["content"], list) else \
            [{"type": "text", "text": m["content"]}]
        for b in content:
            kind = b.get("type")
            if kind == "text":
                turns.append((m["role"].upper(), b["text"]))
            elif kind == "thinking" and b.get("thinking"):
                turns.append(("ASSISTANT", b["thinking"]))
            elif kind == "tool_use":
                turns.append(("TOOL CALL", f"{b['name']} {json.dumps(b.get('input', {}))}"))
            elif kind == "tool_result":
                body = b.get("content")
                text = body if isinstance(body, str) else "\n".join(
                    c.get("text", "") for c in body or [] if isinstance(c, dict))
                turns.append(("TOOL RESULT", text))
            elif kind == "compaction" and b.get("content"):
                turns.append(("SUMMARY", b["content"]))
    return turns


def wants_sections(instructions: str) -> bool:
    """Instructions that ask for what the work needs next (goal and facts, or the state and
    next steps, as the API's default compaction prompt does) get a sectioned summary."""
    return bool(re.search(r"goal|목표", instructions, re.I)
                and re.search(r"fact|사실", instructions, re.I)
                or re.search(r"next steps|다음 단계", instructions, re.I))


def wants_paraphrase(instructions: str) -> bool:
    """Instructions that ask to restate in one's own words, and for nothing verbatim."""
    return bool(re.search(r"\bown words\b|\bparaphras", instructions, re.I)
                and not re.search(r"verbatim|word for word|exact(ly)? as|quot|그대로",
                                  instructions, re.I))


# How the summarizer restates a limit in its own words: each rule keeps the number and
# softens the limit (in order; the first match of each rule is rewritten everywhere).
SOFTER = [(r"\bhard limits\b", "preferences"), (r"\bthe budget is at most\b", "a budget of around"),
          (r"\bat most\b", "around"), (r"\bit must have at least\b", "ideally"),
          (r"\bat least\b", "about"), (r"\bmust\b", "should"), (r"\bnever\b", "rarely"),
          (r"\bonly\b", "mainly")]


def paraphrase(text: str) -> str:
    """A limit in the summarizer's own words: the same numbers, a softer meaning."""
    for pattern, softer in SOFTER:
        text = re.sub(pattern, softer, text, flags=re.I)
    return text


def summarize(turns: list[tuple[str, str]], instructions: str) -> str:
    """The summary the instructions ask for: sections (verbatim or restated), or a gist."""
    if not wants_sections(instructions):
        return free_form_summary(turns)
    return structured_summary(turns, restate=wants_paraphrase(instructions))


def _is_summary(speaker: str, text: str) -> bool:
    """An earlier summary: a compaction block, or a user turn that says it is one."""
    return speaker == "SUMMARY" or bool(re.match(r"\s*\[?summary\b", text, re.I))


def structured_summary(turns: list[tuple[str, str]], restate: bool = False) -> str:
    earlier = next((GOAL_SECTION.search(t) for s, t in turns if _is_summary(s, t)), None)
    users = [t for s, t in turns if s == "USER" and not _is_summary(s, t)]
    goal = earlier.group(1).strip() if earlier else (users[0] if users else "(unknown)")
    asks = users if earlier else users[1:]  # after an earlier summary, no turn is the task
    constraints = [t for t in asks if LIMIT_RE.search(t) and t not in goal]
    facts: dict[str, None] = {}  # noted facts in order, each once, wherever they stand
    for speaker, text in turns:  # (a turn's first line is its own only for the assistant)
        lines = text.splitlines()
        for line in lines if speaker == "ASSISTANT" else lines[1:]:
            if FACT_LINE.match(line.strip()):
                facts.setdefault(line.strip())
    calls = sum(1 for s, _ in turns if s == "TOOL CALL")
    decisions = [t for s, t in turns if s == "ASSISTANT" and "recommend" in t.lower()]
    nexts = [ln for s, t in turns if s == "ASSISTANT" for ln in t.splitlines()
             if ln.startswith("Next:")]
    if restate:  # in its own words: the goal and each limit restated, none quoted
        parts = ["## Goal", paraphrase(goal)]
        parts += [f"The user's limits, restated: {paraphrase(c)}" for c in constraints]
    else:
        parts = ["## Goal", goal]
        parts += [f'User constraint (verbatim): "{c}"' for c in constraints]
    parts += ["## Progress", f"{calls} tool calls made in the summarized part."]
    parts += ["## Key facts", *(facts or ["(none noted)"])]
    parts += ["## Decisions", *(decisions or ["(none yet)"])]
    parts += ["## Next steps", nexts[-1] if nexts else "Continue the task."]
    return "\n".join(parts)


def free_form_summary(turns: list[tuple[str, str]]) -> str:
    users = [t for s, t in turns if s == "USER" and not _is_summary(s, t)]
    first = users[0].split(". ")[0] if users else "help with a task"
    gist = re.sub(r"`?\w*\d[\w.,$]*`?", "", first).strip()  # loose: exact numbers drop out
    calls = sum(1 for s, _ in turns if s == "TOOL CALL")
    noted = sum(1 for s, t in turns if s == "ASSISTANT" and "Noted" in t)
    return (f"The user asked for help: {gist}. Along the way the user mentioned some "
            f"preferences. The assistant made {'several' if calls > 1 else 'a few'} tool "
            f"calls and noted {'a number of' if noted > 1 else 'some'} findings; the work "
            "is in progress.")
