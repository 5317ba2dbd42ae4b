"""Summarizing compaction: fold the old part of the history into one summary.

Units: `trigger` and `margin` count input tokens, `keep` counts messages. Before a
request, estimate the request (anchored on the last `usage.input_tokens`). Only when it
is over `trigger - margin`: keep the newest `keep` messages verbatim, move the cut so no
tool pair is split, render the old part as a plain-text transcript, ask for a summary in a
separate call without tools, and put the summary in place of the old part. With
`pin_user`, the user's own words from the old part follow the summary verbatim. A later
compaction folds the earlier summary into the next one. The trigger may also count
messages (`{"type": "messages", "value": N}`, the course's own kind: lesson 5b measures it).
Each compaction is a paid call and changes the prefix, so the prompt cache is lost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import anthropic

from .. import tokens
from ..messages import SUMMARY_MARK, TRUNCATION_MARK, blocks, result_text, user, validate
from ..models import model_name, quiet_thinking
from . import trigger as triggers
from .truncate import safe_start

FREE_FORM_PROMPT = "Summarize the conversation below."

STRUCTURED_PROMPT = """You summarize the earlier part of an agent's work so that it can go on \
without it. Write exactly these sections:
## Goal: the user's task; quote every constraint the user stated verbatim.
## Progress: what has been done so far.
## Key facts: exact paths, names and numbers found, one per line, as the agent noted them.
## Decisions: choices made and why.
## Next steps: what remains to do."""

# What many hand-written prompts ask: sections, but everything restated. Lesson 5 measures it.
PARAPHRASE_PROMPT = """You summarize the earlier part of an agent's work so that it can go on \
without it. In your own words, write these sections:
## Goal: the user's task and the limits the user stated.
## Progress: what has been done so far.
## Key facts: exact paths, names and numbers found, one per line, as the agent noted them.
## Decisions: choices made and why.
## Next steps: what remains to do."""


def user_words(messages: list[dict]) -> list[str]:
    """The text the user wrote in `messages`, turn by turn (tool results, summaries and
    truncation markers are not the user's words)."""
    return [b["text"] for m in messages if m.get("role") == "user" for b in blocks(m)
            if b.get("type") == "text" and b.get("text", "").strip()
            and not b["text"].lstrip().startswith((SUMMARY_MARK, TRUNCATION_MARK))]


def transcript(messages: list[dict]) -> str:
    """The old part as plain text: a summarizer needs no tool blocks, only what happened."""
    lines = []
    names: dict[str, str] = {}
    for m in messages:
        for b in blocks(m):
            kind = b.get("type")
            if kind == "text":
                lines.append(f"{m['role'].upper()}: {b['text']}")
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


@dataclass
class Compaction:
    """The record of one compaction (`step` counts the compactor's calls from 1)."""

    step: int
    messages_folded: int
    tokens_before: int
    tokens_after: int
    summary_input_tokens: int
    summary_output_tokens: int
    cut_short: bool = False  # the summary hit summary_max_tokens
    model: str = ""  # the model that wrote the summary


class Compactor:
    """A strategy with state: the client, a calibrated meter and the compactions so far.

    `trigger`: input tokens (a number, or the API's form), or the course's own
    `{"type": "messages", "value": N}`; `margin` counts tokens and applies to a token
    trigger only. `model` writes the summaries (default: the run's). `pin_user=True` keeps
    the user's own words from the folded part, verbatim, right after the summary.
    """

    def __init__(self, client: anthropic.Anthropic, trigger: int | dict, *,
                 margin: int | None = None, keep: int = 6, prompt: str = STRUCTURED_PROMPT,
                 model: str | None = None, summary_max_tokens: int = 4096,
                 pin_user: bool = False):
        parsed = triggers.parse(trigger)
        if parsed is None or parsed[0] == "tool_uses":
            raise ValueError("Compactor's trigger counts input tokens (a number, or "
                             "{'type': 'input_tokens', 'value': N}) or messages "
                             f"({{'type': 'messages', 'value': N}}), got {trigger!r}")
        if keep < 1:
            raise ValueError(f"keep must be at least 1 message, got {keep}")
        if parsed[0] == "messages" and margin:
            raise ValueError("margin counts tokens: give it with a token trigger only")
        self.client, self.keep = client, keep
        self.kind, self.trigger = parsed
        self.margin = 0 if self.kind == "messages" else \
            self.trigger // 10 if margin is None else margin
        self.prompt, self.summary_max_tokens = prompt, summary_max_tokens
        self.pin_user = pin_user
        self.model = model or model_name(client)
        self.meter = tokens.TokenMeter()
        self.compactions: list[Compaction] = []
        self.failures = 0
        self.calls = 0
        self.event: str | None = None

    def observe(self, messages: list[dict], input_tokens: int) -> None:
        """Calibrate the estimate with what the API counted for the request just sent."""
        self.meter.observe(messages, input_tokens)

    def __call__(self, messages: list[dict]) -> list[dict]:
        self.calls += 1
        self.event = ""
        before = self.meter.measure(messages)
        due = len(messages) > self.trigger if self.kind == "messages" else \
            before > self.trigger - self.margin
        if not due:
            return messages
        validate(messages)  # never summarize (and hide) a malformed history
        cut = safe_start(messages, len(messages) - self.keep)
        if cut < 2:
            return messages
        old, recent = messages[:cut], messages[cut:]
        try:
            reply = self.client.messages.create(
                model=self.model, max_tokens=self.summary_max_tokens, system=self.prompt,
                thinking=quiet_thinking(self.model),
                messages=[user(transcript(old) + "\n\nWrite the summary now.")])
        except anthropic.APIError as e:  # nothing is lost: keep the history, retry next step
            self.failures += 1
            self.event = f"compaction failed ({type(e).__name__}); history kept"
            return messages
        summary = "\n".join(b.text for b in reply.content if b.type == "text")
        pinned = [user(text) for text in user_words(old)] if self.pin_user else []
        out = [user(f"{SUMMARY_MARK}\n{summary}"), *pinned, *recent]
        after = self.meter.measure(out)
        cut = reply.stop_reason in ("max_tokens", "model_context_window_exceeded")
        self.compactions.append(Compaction(self.calls, len(old), before, after,
                                           reply.usage.input_tokens, reply.usage.output_tokens,
                                           cut, self.model))
        self.event = f"compacted {len(old)} messages (~{before} -> ~{after} tokens)" + (
            "; the summary was cut at summary_max_tokens" if cut else "")
        return out

    def __repr__(self) -> str:
        trigger = self.trigger if self.kind == "input_tokens" else \
            {"type": self.kind, "value": self.trigger}
        pinned = ", pin_user=True" if self.pin_user else ""
        return (f"Compactor(trigger={trigger}, margin={self.margin}, keep={self.keep}{pinned}, "
                f"compactions={len(self.compactions)})")
