"""The course model as a summarizer: deterministic and extractive, never inventive.

Called with no tools, a summarizing system prompt and a transcript. When the prompt
asks for sections (goal, key facts, next steps ...) it copies the user's constraints
verbatim and keeps every noted fact; given a bare "summarize" it writes a short prose
gist without exact numbers, the way a loose summary loses them. A real model writes
better prose, but can lose or round numbers in the same way; that is what lesson 05
measures.
"""

from __future__ import annotations

import re

FACT_LINE = re.compile(r"^(?:Noted \[\d+/\d+\] .+|Plan: check .+|Noted: .+)$")
LIMIT_RE = re.compile(r"\b(at most|at least|must|never|only|budget|limit)", re.I)
GOAL_SECTION = re.compile(r"^## Goal\n(.*?)(?=^## |\Z)", re.M | re.S)


def _turns(transcript: str) -> list[tuple[str, str]]:
    """Split a transcript into (speaker, text) turns."""
    turns: list[tuple[str, str]] = []
    for line in transcript.splitlines():
        m = re.match(r"^(USER|ASSISTANT|TOOL RESULT[^:]*): ?(.*)$|^(TOOL CALL) (.*)$", line)
        if m:
            turns.append((m.group(1) or m.group(3), m.group(2) if m.group(1) else m.group(4)))
        elif turns:
            turns[-1] = (turns[-1][0], turns[-1][1] + "\n" + line)
    return turns


def summarize(view) -> str:
    text = "\n".join(view.user_texts)
    structured = bool(re.search(r"goal", view.system, re.I) and
                      re.search(r"fact", view.system, re.I))
    return structured_summary(text) if structured else free_form_summary(text)


def structured_summary(transcript: str) -> str:
    turns = _turns(transcript)
    earlier = GOAL_SECTION.search(transcript)  # a previous summary: its goal carries over
    users = [t for s, t in turns if s == "USER" and not t.startswith("[Summary")]
    goal = earlier.group(1).strip() if earlier else (users[0] if users else "(unknown)")
    constraints = [t for t in users[1:] if LIMIT_RE.search(t) and t not in goal]
    facts, seen = [], set()
    for line in transcript.splitlines():
        line = line.removeprefix("ASSISTANT: ").strip()
        if FACT_LINE.match(line) and line not in seen:
            seen.add(line)
            facts.append(line)
    calls = sum(1 for s, _ in turns if s == "TOOL CALL")
    decisions = [t for s, t in turns if s == "ASSISTANT" and "recommend" in t.lower()]
    nexts = [ln for s, t in turns if s == "ASSISTANT" for ln in t.splitlines()
             if ln.startswith("Next:")]
    parts = ["## Goal", goal]
    parts += [f'User constraint (verbatim): "{c}"' for c in constraints]
    parts += ["## Progress", f"{calls} tool calls made in the summarized part."]
    parts += ["## Key facts", *(facts or ["(none noted)"])]
    parts += ["## Decisions", *(decisions or ["(none yet)"])]
    parts += ["## Next steps", nexts[-1] if nexts else "Continue the task."]
    return "\n".join(parts)


def free_form_summary(transcript: str) -> str:
    turns = _turns(transcript)
    users = [t for s, t in turns if s == "USER" and not t.startswith("[Summary")]
    first = users[0].split(". ")[0] if users else "help with a task"
    gist = re.sub(r"`?\w*\d[\w.,$]*`?", "", first).strip()  # loose: exact numbers drop out
    calls = sum(1 for s, _ in turns if s == "TOOL CALL")
    noted = sum(1 for s, t in turns if s == "ASSISTANT" and "Noted" in t)
    return (f"The user asked for help: {gist}. Along the way the user mentioned some "
            f"preferences. The assistant made {'several' if calls > 1 else 'a few'} tool "
            f"calls and noted {'a number of' if noted > 1 else 'some'} findings; the work "
            "is in progress.")


def summarize_messages(messages: list[dict], instructions: str | None = None) -> str:
    """The server-side compaction's summary of a history (structured unless told otherwise)."""
    from ..context.compact import STRUCTURED_PROMPT, transcript  # noqa: PLC0415

    prompt = instructions or STRUCTURED_PROMPT
    structured = bool(re.search(r"goal", prompt, re.I) and re.search(r"fact", prompt, re.I))
    text = transcript(messages)
    return structured_summary(text) if structured else free_form_summary(text)
