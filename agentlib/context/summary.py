"""What a summarizer is given: the prompts (free-form, structured, paraphrasing) and the
old part of the history as a plain-text transcript, since it needs no tool blocks."""

from __future__ import annotations

import json

from agentlib.messages import SUMMARY_MARK, TRUNCATION_MARK, blocks, result_text

FREE_FORM_PROMPT = "Summarize the conversation below."
_OPENING = "You summarize the earlier part of an agent's work so that it can go on without it."
_SECTIONS = """## Progress: what has been done so far.
## Key facts: exact paths, names and numbers found, one per line, as the agent noted them.
## Decisions: choices made and why.
## Next steps: what remains to do."""
STRUCTURED_PROMPT = f"""{_OPENING} Write exactly these sections:
## Goal: the user's task; quote every constraint the user stated verbatim.
{_SECTIONS}"""
# What many hand-written prompts ask: the same sections, all restated. Lesson 5 measures it.
PARAPHRASE_PROMPT = f"""{_OPENING} In your own words, write these sections:
## Goal: the user's task and the limits the user stated.
{_SECTIONS}"""


def user_words(messages: list[dict]) -> list[str]:
    """The user's own texts in `messages` (not tool results, summaries or markers)."""
    return [b["text"] for m in messages if m.get("role") == "user" for b in blocks(m)
            if b.get("type") == "text" and b.get("text", "").strip()
            and not b["text"].lstrip().startswith((SUMMARY_MARK, TRUNCATION_MARK))]


def transcript(messages: list[dict]) -> str:
    """The old part as plain text: a summarizer needs no tool blocks, only what happened."""
    lines, names = [], {}
    for m in messages:
        for b in blocks(m):
            kind = b.get("type")
            if kind == "text":
                lines.append(f"{m['role'].upper()}: {b['text']}")
            elif kind == "thinking" and b.get("thinking"):  # where a thinking model notes
                lines.append(f"ASSISTANT: {b['thinking']}")  # what it found
            elif kind == "tool_use":
                names[b["id"]] = b["name"]
                args = json.dumps(b.get("input", {}), ensure_ascii=False)
                lines.append(f"TOOL CALL {b['name']} {args}")
            elif kind == "tool_result":
                label = names.get(b["tool_use_id"], "tool")
                lines.append(f"TOOL RESULT ({label}): {result_text(b)}")
            elif kind == "compaction" and b.get("content"):
                lines.append(f"USER: {SUMMARY_MARK}\n{b['content']}")
    return "\n".join(lines)
