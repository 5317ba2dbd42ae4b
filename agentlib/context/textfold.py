"""Compaction for a history of text-only replies: fold between them, keep the head and earlier summaries.

After `DropRecords` the agent's replies follow one another with no tool result between
them: one turn to the API, and `Compactor`, which never cuts inside a turn, finds no place
to cut. `FoldTexts` may cut between two text-only replies (never before a tool_result, nor
after a call whose result it would fold). It folds only what follows the first `pin`
messages (the task and the agent's plan) and the earlier summaries: those stay verbatim,
so their prefix stays cached and no summary copies them again (a summary is output,
the dearest token). Like `LowWaterCompactor`, it folds only `at_least` tokens above
where its last fold left the history.
"""

from __future__ import annotations

import anthropic

from agentlib.context.compact import Compaction, transcript
from agentlib.context.lowwater import LowWaterCompactor
from agentlib.context.records import is_summary
from agentlib.messages import SUMMARY_MARK, blocks, user, validate
from agentlib.models import quiet_thinking


def head(messages: list[dict], pin: int = 1) -> int:
    """The end of what a fold keeps at the start: the first `pin` messages (and the rest
    of a tool pair they open), then the summaries that follow them."""
    n = min(pin, len(messages))
    while 0 < n < len(messages) and any(b.get("type") == "tool_use"
                                        for b in blocks(messages[n - 1])):
        n += 1
    while n < len(messages) and is_summary(messages[n]):
        n += 1
    return n


def text_cut(messages: list[dict], keep: int) -> int:
    """Where to fold: before the newest `keep` messages, moved back so that the kept part
    opens neither with a tool_result nor after a reply whose call it would fold."""
    cut = len(messages) - keep
    while 0 < cut < len(messages) and (
            any(b.get("type") == "tool_result" for b in blocks(messages[cut]))
            or any(b.get("type") == "tool_use" for b in blocks(messages[cut - 1]))):
        cut -= 1
    return cut


class FoldTexts(LowWaterCompactor):
    """`LowWaterCompactor` that cuts between text-only replies and keeps the head."""

    def __init__(self, client, trigger: int, *, at_least: int, pin: int = 1, **options):
        super().__init__(client, trigger, at_least=at_least, **options)
        if not isinstance(pin, int) or pin < 0:
            raise ValueError(f"pin must be 0 or more messages, got {pin!r}")
        self.pin = pin

    def __call__(self, messages: list[dict]) -> list[dict]:
        self.calls, self.event = self.calls + 1, ""
        before = self.meter.measure(messages)
        start, cut = head(messages, self.pin), text_cut(messages, self.keep)
        if not self.due(messages, before) or cut - start < 2:
            return messages
        validate(messages)  # never summarize (and hide) a malformed history
        kept, old, recent = messages[:start], messages[start:cut], messages[cut:]
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
        out = [*kept, user(f"{SUMMARY_MARK}\n{summary}"), *recent]
        after = self.meter.measure(out)
        short = reply.stop_reason in ("max_tokens", "model_context_window_exceeded")
        self.compactions.append(Compaction(self.calls, len(old), before, after,
                                           reply.usage.input_tokens, reply.usage.output_tokens,
                                           short, self.model))
        self.event = f"compacted {len(old)} messages (~{before} -> ~{after} tokens)" + \
            "; the summary was cut at summary_max_tokens" * short
        return out

    def __repr__(self) -> str:
        return (f"FoldTexts(trigger={self.trigger}, at_least={self.at_least}, pin={self.pin}, "
                f"keep={self.keep}, compactions={len(self.compactions)})")
