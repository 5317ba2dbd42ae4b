"""The model catalog: each model's window, output limit, prices, thinking rules and the
size of the tool-use system prompt the API adds to requests with tools.

Data only, shared by both sides of the wire: the agent (`agentlib.models`: prices, windows,
which model to ask for) and the stand-in (`standin`: which rules apply to a request). Values and their sources: docs/api-facts.md, section 4 (checked 2026-11-30).
Prices are USD per million tokens and change: check Anthropic's pricing page.

`course-model-1` is the course's own offline model, not Claude: it follows the current
models' rules, thinks only when asked, and is priced like the current Sonnet so that its
costs read as real ones.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

DEFAULT_MODEL = "claude-sonnet-5-5"  # the current Sonnet (2026-11-30); or $AGENTLIB_MODEL
OFFLINE_MODEL = "course-model-1"

ALL_THINKING = frozenset({"enabled", "adaptive", "disabled", "between_tools"})


@dataclass(frozen=True)
class Prices:
    """USD per million tokens: input, output, cache writes (5-minute, 1-hour), cache reads."""

    input: float
    output: float
    cache_write_5m: float
    cache_write_1h: float
    cache_read: float


@dataclass(frozen=True)
class Model:
    """One row of the catalog."""

    id: str
    status: str  # current | legacy | deprecated | retired (the docs' words) | course
    window: int  # context window, tokens
    max_output: int  # the largest max_tokens accepted
    prices: Prices
    thinking: str = "off"  # what a request without `thinking` gets: "off" or "adaptive"
    thinking_types: frozenset = frozenset({"enabled", "disabled"})  # accepted thinking.type
    display: str = "summarized"  # default thinking.display: "summarized" or "omitted"
    keeps_thinking: bool = True  # earlier turns' thinking stays in context (else stripped)
    binds_thinking: bool = False  # thinking blocks bound to the conversation prefix
    system_messages: bool = False  # mid-conversation `role: "system"` messages and tool changes
    forced_tools_with_thinking: bool = True  # tool_choice any/tool allowed with adaptive
    prefill: bool = False  # a final assistant message is accepted
    min_cacheable: int = 1024  # shortest prefix the cache stores
    tokenizer: str = "new"  # "old", "new" (~30% more tokens), or the course's cl100k
    long_prompt: tuple[int, Prices] | None = None  # (threshold, prices above it)
    # The system prompt the API itself adds to a request that has `tools`, in tokens:
    # (tool_choice auto or none, tool_choice any or tool). docs/api-facts.md 8.5.
    tool_prompt: tuple[int, int] = (0, 0)
    retires: str | None = None  # the scheduled retirement (RFC 3339), deprecations page

    @property
    def always_thinks(self) -> bool:
        return "disabled" not in self.thinking_types


def _p(inp: float, out: float, read: float) -> Prices:
    """Prices with the usual cache writes: 1.25x input for 5 minutes, 2x for an hour."""
    return Prices(float(inp), float(out), round(inp * 1.25, 4), inp * 2.0, read)


_ADAPTIVE = frozenset({"adaptive"})
_OLD = dict(tokenizer="old", prefill=True, keeps_thinking=False)  # 4.5-era models
_NEW_ON = dict(thinking="adaptive", display="omitted", prefill=False, min_cacheable=512,
               system_messages=True)
# Tool-use system prompts (auto/none, any/tool) documented for the newest model of a line;
# a later model with no documented count takes its line's (api-facts.md 8.5).
OPUS_5, SONNET_5 = (286, 406), (354, 474)

CATALOG: dict[str, Model] = {m.id: m for m in [
    Model("claude-fable-5-2", "current", 1_000_000, 128_000, Prices(8.0, 40.0, 10.0, 16.0, 0.20),
          thinking_types=_ADAPTIVE, binds_thinking=True, tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-mythos-5-2", "current", 1_000_000, 128_000, Prices(8.0, 40.0, 10.0, 16.0, 0.20),
          thinking_types=_ADAPTIVE, binds_thinking=True, tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-opus-5-5", "current", 1_000_000, 128_000, _p(4, 20, 0.20),
          thinking_types=_ADAPTIVE, binds_thinking=True, forced_tools_with_thinking=False,
          tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-sonnet-5-5", "current", 1_000_000, 128_000, _p(2, 10, 0.10),
          thinking_types=frozenset({"adaptive", "between_tools"}), binds_thinking=True,
          forced_tools_with_thinking=False, tool_prompt=SONNET_5, **_NEW_ON),
    Model("claude-haiku-5-5", "current", 1_000_000, 128_000, _p(0.10, 0.50, 0.01),
          thinking_types=frozenset({"adaptive", "disabled"}), keeps_thinking=False,
          binds_thinking=True, long_prompt=(100_000, _p(0.50, 2.50, 0.05)),
          tool_prompt=SONNET_5, **_NEW_ON),
    Model("claude-fable-5-1", "legacy", 1_000_000, 128_000, _p(10, 50, 0.25),
          thinking_types=_ADAPTIVE, binds_thinking=True, forced_tools_with_thinking=False,
          tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-mythos-5-1", "legacy", 1_000_000, 128_000, _p(10, 50, 0.25),
          thinking_types=_ADAPTIVE, binds_thinking=True, forced_tools_with_thinking=False,
          tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-sonnet-5", "legacy", 1_000_000, 128_000, _p(2, 10, 0.20),
          thinking_types=frozenset({"adaptive", "disabled"}), tool_prompt=SONNET_5,
          **{**_NEW_ON, "min_cacheable": 1024, "system_messages": False}),
    Model("claude-fable-5", "legacy", 1_000_000, 128_000, _p(10, 50, 1.00),
          thinking_types=_ADAPTIVE, tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-mythos-5", "legacy", 1_000_000, 128_000, _p(10, 50, 1.00),
          thinking_types=_ADAPTIVE, tool_prompt=OPUS_5, **_NEW_ON),
    Model("claude-opus-5", "legacy", 1_000_000, 128_000, _p(5, 25, 0.50),
          thinking_types=frozenset({"adaptive", "enabled", "disabled"}), tool_prompt=OPUS_5,
          **_NEW_ON),
    Model("claude-opus-4-8", "legacy", 1_000_000, 128_000, _p(5, 25, 0.50),
          thinking_types=frozenset({"adaptive", "enabled", "disabled"}), display="omitted",
          system_messages=True, tool_prompt=(290, 410)),
    Model("claude-opus-4-7", "legacy", 1_000_000, 128_000, _p(5, 25, 0.50),
          thinking_types=frozenset({"adaptive", "enabled", "disabled"}), display="omitted",
          min_cacheable=2048, tool_prompt=(675, 804)),
    Model("claude-opus-4-6", "legacy", 1_000_000, 128_000, _p(5, 25, 0.50),
          thinking_types=frozenset({"adaptive", "enabled", "disabled"}), min_cacheable=4096,
          tokenizer="old", tool_prompt=(497, 589)),
    Model("claude-sonnet-4-6", "legacy", 1_000_000, 128_000, _p(3, 15, 0.30),
          thinking_types=frozenset({"adaptive", "enabled", "disabled"}), min_cacheable=2048,
          tokenizer="old", tool_prompt=(497, 589)),
    Model("claude-haiku-4-5", "legacy", 200_000, 64_000, _p(1, 5, 0.10), min_cacheable=4096,
          tool_prompt=(496, 588), **_OLD),
    Model("claude-opus-4-5", "deprecated", 200_000, 64_000, _p(5, 25, 0.50),
          min_cacheable=4096, tool_prompt=(496, 588), retires="2027-01-22T00:00:00Z",
          **{**_OLD, "keeps_thinking": True}),
    Model("claude-sonnet-4-5", "deprecated", 200_000, 64_000, _p(3, 15, 0.30),
          tool_prompt=(496, 588), retires="2026-11-30T00:00:00Z", **_OLD),
    Model("claude-mythos-preview", "retired", 0, 0, _p(0, 0, 0), retires="2026-06-30T00:00:00Z"),
]}
for _alias, _id in (("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
                    ("claude-opus-4-5-20251101", "claude-opus-4-5"),
                    ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5")):
    CATALOG[_alias] = replace(CATALOG[_id], id=_alias)
CATALOG[OFFLINE_MODEL] = replace(
    CATALOG[DEFAULT_MODEL], id=OFFLINE_MODEL, status="course", window=200_000,
    thinking="off", thinking_types=ALL_THINKING, display="summarized", binds_thinking=False,
    forced_tools_with_thinking=True, prefill=True, min_cacheable=1024, tokenizer="course")


def get(model: str) -> Model | None:
    """The catalog row of a model that is served, or None (unknown or retired)."""
    row = CATALOG.get(model)
    return row if row is not None and row.status != "retired" else None


def prices(model: str, prompt_tokens: int = 0) -> Prices:
    """A model's prices; a prompt over a long-prompt threshold is billed at the higher band."""
    row = get(model)
    if row is None:
        raise KeyError(f"no prices for {model!r}: not in apiwire.models.CATALOG")
    if row.long_prompt and prompt_tokens > row.long_prompt[0]:
        return row.long_prompt[1]
    return row.prices


def tool_prompt_tokens(model: str, tools: Any = None, tool_choice: Any = None) -> int:
    """The tokens of the system prompt the API adds, unseen, to a request with `tools`
    (0 without tools): the client never sends them, `usage.input_tokens` counts them."""
    if not tools:
        return 0
    row = get(model)
    if row is None:
        raise KeyError(f"no tool-use prompt size for {model!r}: not in apiwire.models.CATALOG")
    kind = tool_choice.get("type") if isinstance(tool_choice, dict) else None
    return row.tool_prompt[1] if kind in ("any", "tool") else row.tool_prompt[0]
