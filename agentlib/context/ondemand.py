"""On-demand compaction: the client decides when, the API writes the summary.

Like `Compactor`, over `trigger - margin` (the calibrated estimate) the newest `keep`
messages stay verbatim and the old part is folded; but the summary comes from a request
with top-level `compaction={"type": "summarize"}` (beta `compact-2026-09-04`), whose
response is a signed `compaction` block. The docs' recipe (docs/api-facts.md 7.2): the
block first, as an assistant message of its own, then the kept turns exactly as they are,
thinking blocks included. The API accepts that swap, so on a model that binds thinking the
kept turns' thinking stays valid when the compaction request carries the conversation's
own `system` and `tools`.
"""

from __future__ import annotations

import anthropic

from agentlib.context.compact import Compaction, Compactor
from agentlib.context.truncate import safe_start
from agentlib.messages import validate

ON_DEMAND_BETA = "compact-2026-09-04"


class OnDemandCompactor(Compactor):
    """`Compactor`'s trigger, margin and `keep`, with the API's on-demand summary.

    `system` and `tools` are the agent's, sent with the compaction request as with any
    request of the conversation; `instructions` replace the API's default prompt."""

    def __init__(self, client: anthropic.Anthropic, trigger: int | dict, *, system=None,
                 tools=None, instructions: str | None = None, **options):
        super().__init__(client, trigger, **options)
        self.system, self.tools, self.instructions = system, tools, instructions

    def __call__(self, messages: list[dict]) -> list[dict]:
        self.calls, self.event = self.calls + 1, ""
        before = self.meter.measure(messages)
        if not self.due(messages, before):
            return messages
        validate(messages)
        cut = safe_start(messages, len(messages) - self.keep)
        while 0 < cut < len(messages) and messages[cut]["role"] == "system":
            cut = safe_start(messages, cut - 1)  # the first kept message is not a system one
        if cut < 2:
            return messages
        old, recent = messages[:cut], messages[cut:]
        spec = {"type": "summarize"}
        if self.instructions:
            spec["instructions"] = self.instructions
        extra = {k: v for k, v in (("system", self.system), ("tools", self.tools)) if v}
        try:
            reply = self.client.beta.messages.create(
                model=self.model, max_tokens=self.summary_max_tokens, messages=old,
                compaction=spec, betas=[ON_DEMAND_BETA], **extra)
        except anthropic.APIError as e:  # nothing is lost: keep the history, retry next step
            self.failures += 1
            self.event = f"on-demand compaction failed ({type(e).__name__}); history kept"
            return messages
        block = next((b.to_dict() for b in reply.content if b.type == "compaction"), None)
        if not block or not block.get("content"):
            self.failures += 1
            self.event = "on-demand compaction returned no summary; history kept"
            return messages
        out = [{"role": "assistant", "content": [block]}, *recent]  # the kept part unchanged
        after = self.meter.measure(out)
        self.compactions.append(Compaction(self.calls, len(old), before, after,
                                           reply.usage.input_tokens, reply.usage.output_tokens,
                                           False, self.model))
        self.event = f"compacted {len(old)} messages (~{before} -> ~{after} tokens)"
        return out
