"""Summarizing compaction: fold the old part of the history into one summary.

Before a request, estimate it (anchored on the last `usage.input_tokens`); only over
`trigger - margin` (tokens): keep the newest `keep` messages verbatim, cut where no tool
pair is split, and put in place of the old part a summary written, from a plain-text
transcript, by a separate call without tools. A later compaction folds the earlier summary
into the next. Each one is a paid call and changes the prefix: the prompt cache is lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import anthropic

from agentlib import tokens
from agentlib.context import trigger as triggers
from agentlib.context.summary import (  # noqa: F401  (re-exported: the lessons import them from here)
    FREE_FORM_PROMPT,
    PARAPHRASE_PROMPT,
    STRUCTURED_PROMPT,
    transcript,
    user_words,
)
from agentlib.context.truncate import safe_start
from agentlib.messages import SUMMARY_MARK, user, validate
from agentlib.models import model_name, quiet_thinking


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

    `trigger`: input tokens (a number or the API's form), or the course's own
    `{"type": "messages", "value": N}` (lesson 5b); `margin` (tokens) goes with a token
    trigger. `model` writes the summaries. `pin_user=True` puts the user's own words from
    the folded part back, verbatim, after the summary (seed 003's advice, lesson 5)."""

    def __init__(self, client: anthropic.Anthropic, trigger: int | dict, *,
                 margin: int | None = None, keep: int = 6, prompt: str = STRUCTURED_PROMPT,
                 model: str | None = None, summary_max_tokens: int = 4096,
                 pin_user: bool = False):
        parsed = triggers.parse(trigger)
        if parsed is None or parsed[0] == "tool_uses":
            raise ValueError("Compactor's trigger counts input tokens (a number, or their API "
                             f"form) or {{'type': 'messages', 'value': N}}, got {trigger!r}")
        if keep < 1:
            raise ValueError(f"keep must be at least 1 message, got {keep}")
        if parsed[0] == "messages" and margin:
            raise ValueError("margin counts tokens: give it with a token trigger only")
        self.client, self.keep = client, keep
        self.kind, self.trigger = parsed
        self.margin = 0 if self.kind == "messages" else \
            self.trigger // 10 if margin is None else margin
        self.prompt, self.summary_max_tokens = prompt, summary_max_tokens
        self.pin_user, self.model = pin_user, model or model_name(client)
        self.meter = tokens.TokenMeter()
        self.compactions: list[Compaction] = []
        self.failures = self.calls = 0
        self.event: str | None = None

    def observe(self, messages: list[dict], input_tokens: int) -> None:
        """Calibrate the estimate with what the API counted for the request just sent."""
        self.meter.observe(messages, input_tokens)

    def __call__(self, messages: list[dict]) -> list[dict]:
        self.calls, self.event = self.calls + 1, ""
        before = self.meter.measure(messages)
        if not self.due(messages, before):
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
        self.event = f"compacted {len(old)} messages (~{before} -> ~{after} tokens)" + \
            "; the summary was cut at summary_max_tokens" * cut
        return out

    def due(self, messages: list[dict], size: int) -> bool:
        """Compact now? Over the trigger less its margin (`size`: the calibrated estimate),
        or, for a message-count trigger, over that many messages."""
        if self.kind == "messages":
            return len(messages) > self.trigger
        return size > self.trigger - self.margin

    def __repr__(self) -> str:
        trigger = self.trigger if self.kind == "input_tokens" else \
            {"type": self.kind, "value": self.trigger}
        return (f"Compactor(trigger={trigger}, margin={self.margin}, keep={self.keep}"
                f"{', pin_user=True' * self.pin_user}, compactions={len(self.compactions)})")
