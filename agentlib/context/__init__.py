"""Context strategies, one module per mechanism, in the order to adopt them.

    cap        cap a tool's result where it enters the history (characters or tokens)
    headtail   cap a long output to its head and tail, the notice in the middle
    truncate   keep the newest `keep` messages, never splitting a tool pair
    clear      empty all but the newest `keep` tool results once over `trigger` tokens
    batch      clear over `trigger`, down to a low-water mark, `clear_at_least` at once
    compact    over `trigger` tokens, fold all but the newest `keep` messages into a summary
    lowwater   compact only `at_least` tokens above where the last fold left the history
    breakpoints  cache breakpoints after the stable part (`run_agent(cache=Breakpoints())`)
    records    drop the call records of results read, breakpoints after the texts (the floor)
    textfold   compact text-only replies, keeping the task, the plan and earlier summaries
    notes      a notes file outside the window; memory: the API's memory tool

A strategy is called as `strategy(messages) -> messages` before every request of
`agentlib.loop.run_agent(context=[...])`; each is a small object with the same words:
`keep` (how many recent items stay), `trigger` (when it acts), and an `event` saying
what it did. The plain functions (`truncate`, `clear_tool_results`) do the same once.
"""

from agentlib.context.batch import BatchClearing
from agentlib.context.breakpoints import Breakpoints
from agentlib.context.cap import cap, cap_lines, cap_text
from agentlib.context.clear import PLACEHOLDER, Clearing, clear_tool_results, is_cleared
from agentlib.context.compact import (
    FREE_FORM_PROMPT,
    PARAPHRASE_PROMPT,
    STRUCTURED_PROMPT,
    Compactor,
    transcript,
    user_words,
)
from agentlib.context.lowwater import LowWaterCompactor
from agentlib.context.memory import MEMORY_BETA, MEMORY_RULES, memory_toolbox
from agentlib.context.notes import NOTES_RULES, Notes
from agentlib.context.records import DropRecords, drop_records
from agentlib.context.textfold import FoldTexts
from agentlib.context.truncate import SlidingWindow, safe_start, truncate

__all__ = [
    "FREE_FORM_PROMPT", "MEMORY_BETA", "MEMORY_RULES", "NOTES_RULES", "PARAPHRASE_PROMPT",
    "PLACEHOLDER", "STRUCTURED_PROMPT", "BatchClearing", "Breakpoints", "Clearing", "Compactor",
    "DropRecords", "FoldTexts", "LowWaterCompactor", "Notes", "SlidingWindow", "cap", "cap_lines",
    "cap_text", "clear_tool_results", "drop_records", "is_cleared", "memory_toolbox", "safe_start",
    "transcript", "truncate", "user_words",
]
