"""Sub-agents: hand a self-contained sub-task to an agent that starts with a fresh window.

`Team(client, tools)` makes a `delegate` tool for a lead agent (`team.toolbox()`). Each
call runs a sub-agent with `run_agent` on a new history that holds only the sub-task it
was given; its system prompt carries `SUBAGENT_RULES` (reply with the result only, in the
task's format, within `budget` tokens). Its final reply, cut at whole lines to the budget
with a notice (`fit`), is the tool's result. The lead's window holds those results and
nothing of the sub-agents' work. The team keeps every sub-run (`team.runs`), so that a
comparison can add up calls, tokens and dollars over all agents (`totals`) and find the
longest chain of requests a host that ran the sub-agents in parallel would wait
(`wall_clock_steps`). This one runs them one after another, in the order they were called.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence

import anthropic

from agentlib import tokens
from agentlib.loop import DEFAULT_SYSTEM, Run, run_agent
from agentlib.messages import message_text
from agentlib.task import Score, Workload
from agentlib.tools import Toolbox

SUBAGENT_RULES = (
    "You are a sub-agent: a lead agent gave you this task, and your final reply is the only "
    "part of your work it will see (your tool calls and their results are discarded). End "
    "with a reply that holds the result only, in the format the task asks for: no notes, no "
    "preamble, no explanation, within {budget} tokens (a longer reply is cut).")
LEAD_RULES = (
    "You are the lead agent. Do not do the work yourself: split the task into "
    "self-contained sub-tasks, one per folder, and give each to a sub-agent with the "
    "delegate tool, all in one reply: none needs another's result. A sub-agent sees only "
    "the sub-task you write: include the folder, what to find, the rules that apply and the "
    "answer format. Then answer the user from the sub-agents' results.")
NOTICE = "[cut to the {budget}-token budget: {more} more lines not shown]"
MIN_BUDGET = 24  # tokens: room for the notice and a line or two


def fit(text: str, max_tokens: int) -> str:
    """`text` within `max_tokens` tokens: unchanged if it fits, else as many whole lines from
    the start as fit with a last line that says how many lines are not shown. A notice, not
    a pointer to read on: the sub-agent's window is gone once it has answered."""
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) \
            or max_tokens < MIN_BUDGET:
        raise ValueError(f"max_tokens must be an integer of at least {MIN_BUDGET} (room for "
                         f"the notice and a line), got {max_tokens!r}")
    if not isinstance(text, str):
        raise TypeError(f"fit needs the result as a str, got {type(text).__name__}")
    if tokens.count_text(text) <= max_tokens:
        return text
    lines = text.split("\n")

    def cut(k: int) -> str:
        return "\n".join(lines[:k] + [NOTICE.format(budget=max_tokens, more=len(lines) - k)])

    keep, over = 0, len(lines)  # cut(keep) fits (the notice alone does), cut(over) does not
    while over - keep > 1:  # the most lines that fit, by bisection: a long result is cheap
        mid = (keep + over) // 2
        keep, over = (mid, over) if tokens.count_text(cut(mid)) <= max_tokens else (keep, mid)
    return cut(keep)


def _unscored(answer: str | None) -> Score:
    return Score(answer is not None, detail="a sub-task: only the lead's answer is scored")


class Team:
    """A `delegate` tool for a lead agent, and the sub-agents it started.

    State: the client and tools every sub-agent gets, and `runs`, one `Run` per sub-agent,
    in the order they were started. `system` replaces the sub-agents' system prompt
    (default: `DEFAULT_SYSTEM` and `SUBAGENT_RULES` with the budget).
    """

    def __init__(self, client: anthropic.Anthropic, tools: Toolbox, *, budget: int = 200,
                 system: str | None = None, max_steps: int = 80, max_tokens: int = 1024,
                 cache: bool = True):
        fit("", budget)  # a bad budget fails here, not in the lead's first delegate call
        self.client, self.tools, self.budget = client, tools, budget
        self.system = system if system is not None else \
            f"{DEFAULT_SYSTEM} {SUBAGENT_RULES.format(budget=budget)}"
        self.max_steps, self.max_tokens, self.cache = max_steps, max_tokens, cache
        self.runs: list[Run] = []

    def delegate(self, task: str) -> str:
        """Give a self-contained sub-task to a sub-agent, which starts with a fresh, empty
        context window and the same file tools. It sees only the task you write here, so
        say everything it needs: which folder or files, what to find, the rules that apply
        and the answer format. You get back only its final result. Several delegate calls
        in one reply run one after another, each in its own fresh window.

        Args:
            task: the whole sub-task, self-contained.
        """
        if not task.strip():
            raise ValueError("task is empty: write the whole sub-task for the sub-agent")
        work = Workload("sub-task", task, self.tools, truth=None, scorer=_unscored)
        run = run_agent(self.client, work, system=self.system, max_steps=self.max_steps,
                        max_tokens=self.max_tokens, cache=self.cache,
                        label=f"sub-agent {len(self.runs) + 1}")
        self.runs.append(run)
        if run.answer is None:
            raise RuntimeError(f"the sub-agent stopped without a result ({run.stopped})")
        return fit(run.answer, self.budget)

    def toolbox(self) -> Toolbox:
        """The `delegate` tool, to offer the lead (beside `list_files`, say)."""
        return Toolbox([self.delegate])

    def __repr__(self) -> str:
        return f"Team(budget={self.budget}, {len(self.runs)} sub-agents run)"


def task_of(run: Run) -> str:
    """The sub-task a sub-run was given: the text of its first message."""
    return message_text(run.transcript[0]) if run.transcript else ""


def wall_clock_steps(lead: Run, runs: Sequence[Run] = ()) -> int:
    """The longest chain of requests that must wait for one another: the lead's requests,
    and at each lead step that delegated, the longest of the sub-runs it started (as if
    they ran in parallel; `Team` runs them one after another). Each delegate call is matched to the next sub-run given its task."""
    started: dict[str, deque] = defaultdict(deque)
    for run in runs:
        started[task_of(run)].append(run)
    chain = 0
    for step in lead.steps:
        tasks = [args.get("task", "") for name, args in step.tool_calls if name == "delegate"]
        subs = [started[t].popleft() for t in tasks if started[t]]
        chain += 1 + max((s.calls for s in subs), default=0)
    return chain


def totals(runs: Sequence[Run], compactors: Sequence = ()) -> dict:
    """Requests, input tokens and dollars (prompt caching on, `agentlib.cost`) over all
    `runs` and the summary calls of any `compactors` (`agentlib.context.Compactor`) they used."""
    from agentlib.cost import cost  # the course's one price function

    folds = [c for comp in compactors for c in comp.compactions]
    summary = (sum(c.summary_input_tokens for c in folds),
               sum(c.summary_output_tokens for c in folds))
    no_steps = Run("summary calls", [], [], [], None, None, "")  # bills only `summary`
    return {"calls": sum(r.calls for r in runs) + len(folds),
            "input_tokens": sum(r.total_input_tokens for r in runs) + summary[0],
            "cost_usd": sum(cost(r) for r in runs) + cost(no_steps, summary)}
