"""The agent loop: send the history, run the tools the model asks for, repeat.

The model is stateless, so every request carries the whole history. Before each request
the loop passes the history through `context`, a sequence of strategies:

    A strategy is a callable `strategy(messages) -> messages` that returns the history to
    send and keep. It must not mutate its input and must return a history the API accepts
    (`agentlib.messages.validate`). Plain functions are enough; a strategy with state (a
    compactor) is an object with `__call__`. If it has an attribute `event` (a string set
    by the call; "" when there is nothing to report), the loop records it in the trace;
    otherwise the loop records how many messages and tokens the strategy removed. If it has a method
    `observe(messages, input_tokens)`, the loop calls it after each response with the
    history sent and the API's count for it, so the strategy can calibrate an estimate.

`run_agent` works the same against the offline course model and against Claude.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anthropic

from agentlib import models, tokens, words
from agentlib.derived import Derived, changes
from agentlib.messages import message_text, user
from agentlib.meter import BudgetExceeded
from agentlib.models import model_name, quiet_thinking

Strategy = Callable[[list[dict]], list[dict]]
MAX_STEPS = 60  # requests before run_agent gives up on a run that does not answer
DEFAULT_SYSTEM = ("You are a careful agent with tools. Work step by step, and after each "
                  "tool result write down what you learned before the next call.")


@dataclass
class Step:
    """One request of a run, as the trace records it."""

    index: int
    input_tokens: int = 0  # all input tokens of the request, cached or not (0 if it failed)
    output_tokens: int = 0
    thinking_tokens: int = 0  # of output_tokens, thinking (counted even when not shown)
    cache_read: int = 0  # usage.cache_read_input_tokens (billed at 0.1x)
    cache_write: int = 0  # usage.cache_creation_input_tokens (billed at 1.25x)
    cache_write_1h: int = 0  # the part of cache_write written for an hour (billed at 2x)
    compaction_tokens: tuple[int, int] = (0, 0)  # server-side compaction's (input, output)
    estimate: int = 0  # characters / 4 of what was sent (the API's tool prompt unseen)
    messages_sent: int = 0
    events: list[str] = field(default_factory=list)
    error: str | None = None
    stop_reason: str | None = None
    tool_calls: list[tuple[str, dict]] = field(default_factory=list)
    sent: list[dict] = field(default_factory=list, repr=False)  # what the model saw


@dataclass
class Run:
    """What a run produced: the history, a trace per step, the answer and its score."""

    label: str
    history: list[dict]
    transcript: list[dict]  # every message ever added, whatever the strategies dropped
    steps: list[Step]
    answer: str | None
    score: Any
    stopped: str  # "answered", "max_steps", "cut: <stop reason>", "error: ..." or "budget: ..."
    system: str | None = None
    tools: list[dict] = field(default_factory=list)
    model: str | None = None  # the model the run asked for

    @property
    def calls(self) -> int:
        return len(self.steps)

    @property
    def total_input_tokens(self) -> int:
        return sum(s.input_tokens for s in self.steps)

    @property
    def total_output_tokens(self) -> int:
        return sum(s.output_tokens for s in self.steps)

    @property
    def peak_input_tokens(self) -> int:
        return max((s.input_tokens for s in self.steps), default=0)

    def tool_calls(self, name: str | None = None) -> list[tuple[str, dict]]:
        return [c for s in self.steps for c in s.tool_calls if name in (None, c[0])]

    def __repr__(self) -> str:
        return words.say("Run({label!r}: {stopped}, {calls} calls, {total:,} input tokens in "
                         "all, peak {peak:,}, {score})", label=self.label, stopped=self.stopped,
                         calls=self.calls, total=self.total_input_tokens,
                         peak=self.peak_input_tokens, score=self.score)


def _block_dict(block: Any) -> dict:
    """An SDK content block as the plain dict the API takes back."""
    d = block.to_dict() if hasattr(block, "to_dict") else dict(block)
    return {k: v for k, v in d.items() if v is not None}


def apply_context(strategies: Sequence[Strategy], messages: list[dict]) -> tuple[list, list]:
    """Run the history through each strategy in order; return (history, events)."""
    events = []
    for strategy in strategies:
        before = messages
        messages = strategy(messages)
        event = getattr(strategy, "event", None)
        if event is None and messages is not before:
            name = getattr(strategy, "__name__", type(strategy).__name__)
            dropped = len(before) - len(messages)
            saved = tokens.count(before) - tokens.count(messages)
            if dropped or saved:
                event = f"{name}: {len(before)} -> {len(messages)} messages, -{saved} tokens"
        if event:
            events.append(event)
    return messages, events


def run_agent(client: anthropic.Anthropic, workload, *, context: Sequence[Strategy] = (),
              system: str | None = DEFAULT_SYSTEM, max_steps: int = MAX_STEPS,
              model: str | None = None, max_tokens: int = 2048, label: str = "",
              history: list[dict] | None = None, extra: dict | None = None,
              extra_tools=None, cache: bool | Callable = False) -> Run:
    """Run `workload` until the agent answers, `max_steps` requests (a guard against a model
    that loops; the course passes its profile's), or an API error.

    `history` continues an earlier conversation instead of starting with the task;
    `extra` adds request parameters (for example `context_management`, with a beta client);
    `extra_tools` is a Toolbox offered beside the workload's (for example the notes tool);
    `cache=True` marks the system prompt and the newest message with `cache_control`; a
    callable instead places the message breakpoints on the copy sent (for example
    `agentlib.context.Breakpoints()`, which also marks the end of the stable part).
    Requests state `thinking` explicitly (the least the model accepts, unless `extra` sets
    it), so a run does not depend on the model's default.

    Any run may end without an answer, and nothing is lost when it does: an API error
    (a status error, a lost connection, a timeout, after the client's retries) ends the run
    with the error in its last step (`stopped = "error: ..."`); a reply cut short
    (`max_tokens`, `model_context_window_exceeded`) or refused is never taken as the answer
    (`stopped = "cut: <stop reason>"`). When the budget stops a request
    (`meter.BudgetExceeded`) the error is raised with the run so far as `error.run`.
    """
    if not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    toolbox = workload.toolbox + extra_tools if extra_tools else workload.toolbox
    tools = toolbox.definitions
    turns = list(workload.turns)
    history = list(history) if history is not None else [user(workload.task)]
    transcript = list(history)
    steps: list[Step] = []
    answer, stopped = None, "max_steps"
    model = model or model_name(client)
    params: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "tools": tools,
                              "thinking": quiet_thinking(model), **(extra or {})}
    if system:
        params["system"] = [{"type": "text", "text": system,
                             "cache_control": {"type": "ephemeral"}}] if cache else system
    create = client.beta.messages.create if "betas" in params else client.messages.create
    binds = getattr(models.get(model), "binds_thinking", False)
    frame = tokens.estimate([], system=system, tools=tools)
    estimate = tokens.Running(tokens.estimate)  # per step, only what changed is estimated
    for i in range(max_steps):
        step = Step(i, sent=history)
        steps.append(step)
        try:
            before = history
            history, step.events = apply_context(context, history)
            if binds:
                history = drop_stale_thinking(before, history)
            step.estimate = frame + estimate.of(history)
            step.messages_sent, step.sent = len(history), history
            marked = cache if callable(cache) else cache_breakpoint
            response = create(messages=marked(history) if cache else history, **params)
        except anthropic.APIError as e:
            step.error, stopped = _describe(e)
            break
        except BudgetExceeded as e:
            step.error = f"not sent: {e}"
            e.run = Run(label or "run", history, transcript, steps, None, workload.score(None),
                        f"budget: {e}", system, tools)
            raise
        usage = response.usage
        step.cache_read = usage.cache_read_input_tokens or 0
        step.cache_write = usage.cache_creation_input_tokens or 0
        step.cache_write_1h = getattr(getattr(usage, "cache_creation", None),
                                      "ephemeral_1h_input_tokens", 0) or 0
        step.input_tokens = usage.input_tokens + step.cache_read + step.cache_write
        for strategy in context:  # let stateful strategies calibrate their estimates
            if hasattr(strategy, "observe"):
                strategy.observe(history, step.input_tokens)
        step.output_tokens = response.usage.output_tokens
        step.thinking_tokens = getattr(getattr(usage, "output_tokens_details", None),
                                       "thinking_tokens", 0) or 0
        step.stop_reason = response.stop_reason
        applied = getattr(getattr(response, "context_management", None), "applied_edits", None)
        for edit in applied or []:
            step.events.append(f"server: {edit.type} {_edit_summary(edit)}")
        for it in getattr(usage, "iterations", None) or []:
            if it.type == "compaction":  # billed, but not in the top-level usage
                step.compaction_tokens = (it.input_tokens, it.output_tokens)
                step.events.append(f"server: compaction ({it.input_tokens} tokens in, "
                                   f"{it.output_tokens} out)")
        if getattr(response, "container", None):  # code execution: resume in its container
            params["container"] = response.container.id
        reply = {"role": "assistant", "content": [_block_dict(b) for b in response.content]}
        step.tool_calls = [(b["name"], b["input"]) for b in reply["content"]
                           if b["type"] == "tool_use"]
        history = Derived(history, [reply])  # a new list: the strategies' input is kept
        transcript.append(reply)
        if response.stop_reason == "tool_use":
            results = toolbox.run_all(reply)
            history.append(results)
            transcript.append(results)
        elif response.stop_reason in ("pause_turn", "compaction"):
            continue
        elif response.stop_reason not in ("end_turn", "stop_sequence"):
            stopped = f"cut: {response.stop_reason}"  # a reply cut short is not an answer
            break
        elif turns:
            nxt = user(turns.pop(0))
            history.append(nxt)
            transcript.append(nxt)
        else:
            answer, stopped = message_text(reply), "answered"
            break
    score = workload.score(answer)
    return Run(label or "run", history, transcript, steps, answer, score, stopped,
               system, tools, model)


def _describe(e: anthropic.APIError) -> tuple[str, str]:
    """(the step's error, the run's `stopped`) for an API error of any kind."""
    if isinstance(e, anthropic.APIStatusError):
        body = e.body if isinstance(e.body, dict) else {}
        message = (body.get("error") or {}).get("message", str(e))
        return f"{e.status_code} {type(e).__name__}: {message}", f"error: {message}"
    cause = f" ({type(e.__cause__).__name__}: {e.__cause__})" if e.__cause__ else ""
    message = f"{type(e).__name__}: {e}{cause}"
    return message, f"error: {message}"


def drop_stale_thinking(before: list[dict], after: list[dict]) -> list[dict]:
    """On models that bind thinking to the conversation before it, a strategy that changed
    that conversation invalidates the thinking blocks after the change: remove them, as the
    API's error asks. Messages are compared by identity: from the first one that is not
    where it was, every assistant message loses its thinking blocks; the text of a block
    shown (`display: "summarized"`) stays in the message as a text block. An on-demand
    compaction swapped in as the docs give it (`swapped`) invalidates nothing."""
    if after is before or swapped(before, after):
        return after
    known = changes(after, before)  # at once when `after` was made from `before`
    first = min(known, default=len(before)) if known is not None else next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a is not b),
        min(len(before), len(after)))
    out = None
    for i in range(first, len(after)):  # `first` too: it may be an old message, moved
        m = after[i]
        if m["role"] == "assistant" and isinstance(m["content"], list) and any(
                b.get("type") in ("thinking", "redacted_thinking") for b in m["content"]):
            out = out if out is not None else Derived(after, changed=range(first, len(after)))
            kept = [{"type": "text", "text": b["thinking"]}  # shown notes stay, as text
                    if b.get("type") == "thinking" and b.get("thinking") else b
                    for b in m["content"] if b.get("type") != "redacted_thinking"]
            kept = [b for b in kept if b.get("type") != "thinking"]
            out[i] = {**m, "content": kept or [{"type": "text", "text": "…"}]}
    return after if out is None else out


def swapped(before: list[dict], after: list[dict]) -> bool:
    """On-demand compaction as the docs give it: a signed block, alone in the first message,
    then the newest messages of `before` unchanged (the same objects). The API accepts that
    swap, so the kept turns' thinking stays valid (docs/api-facts.md 7.2.5)."""
    if not after or (before and after[0] is before[0]):
        return False
    first = after[0]["content"] if after[0]["role"] == "assistant" else None
    if not (isinstance(first, list) and len(first) == 1 and isinstance(first[0], dict)
            and first[0].get("type") == "compaction" and first[0].get("signature")):
        return False
    tail = len(after) - 1
    return tail <= len(before) and all(
        a is b for a, b in zip(after[1:], before[len(before) - tail:], strict=True))


def cache_breakpoint(messages: list[dict]) -> list[dict]:
    """A copy whose newest block carries a `cache_control` breakpoint (the input is kept)."""
    if not messages:
        return messages
    last = messages[-1]
    content = last["content"]
    content = [{"type": "text", "text": content}] if isinstance(content, str) else content
    marked = [*content[:-1], {**content[-1], "cache_control": {"type": "ephemeral"}}]
    return [*messages[:-1], {**last, "content": marked}]


def _edit_summary(edit: Any) -> str:
    d = edit.to_dict() if hasattr(edit, "to_dict") else dict(edit)
    return ", ".join(f"{k}={v}" for k, v in d.items() if k != "type")
