"""Synthetic agent histories, valid and deterministic, for exercise checks, tests and benchmarks.

A history as an agent loop builds it: a task, then exchanges that are mostly tool calls
(one, or several in parallel) answered by their results (some errors), sometimes a text
reply and a user follow-up, and maybe a final answer. `rng` is a seed or a
`random.Random` (property tests pass hypothesis's `st.randoms()`, so they shrink).
"""

from __future__ import annotations

import random

from agentlib.messages import SUMMARY_MARK, assistant, text, tool_result, tool_use, user


def agent_history(rng: random.Random | int | str, steps: int, *, parallel: int = 3,
                  lines: tuple[int, int] = (0, 0), answer: float = 0.5, text_rate: float = 0.2,
                  error_rate: float = 0.15, variety: bool = False) -> list[dict]:
    """A valid history of a task and `steps` exchanges.

    `parallel`: the most tool calls in one message (1: never parallel); `lines`: how
    many log lines a result holds, from-to; `answer`: the chance that it ends with the
    agent's answer (else with a user message, as before a request). `variety` adds the
    rarer shapes: string content, results as text blocks, text after the results, a
    summary of earlier turns in place of the task, a few results of 400 lines.
    """
    rng = rng if isinstance(rng, random.Random) else random.Random(f"history-{rng}")
    ids = 0

    def say(role: str, s: str) -> dict:  # a message, sometimes with plain string content
        if variety and rng.random() < 0.3:
            return {"role": role, "content": s}
        return user(s) if role == "user" else assistant(s)

    task = "Task: audit the service configs and report every timeout above 30."
    messages = [say("user", task)]
    if variety and rng.random() < 0.2:  # compacted before: a summary opens the history
        messages = [user(f"{SUMMARY_MARK}\n## Goal\n{task}\n## Key facts\nNoted: a is 45.")]
    for step in range(steps):
        if rng.random() < text_rate:
            messages.append(say("assistant", f"Progress note {step}: nothing unusual so far."))
            messages.append(say("user", f"Follow-up {step}: keep going."))
            continue
        calls = []
        for _ in range(min(parallel, rng.choice([1, 1, 1, 2, 3]))):
            ids += 1
            calls.append(tool_use(f"toolu_{ids:04d}", "read_file",
                                  {"path": f"services/s{ids}.conf"}))
        messages.append(assistant(f"Reading {len(calls)} file(s).", *calls))
        results = []
        for call in calls:
            n = 400 if variety and rng.random() < 0.1 else rng.randint(*lines)
            body = "".join(f"2026-03-0{rng.randint(1, 9)} INFO request served in "
                           f"{rng.randint(3, 900)}ms\n" for _ in range(n))
            body += f"timeout_s = {rng.choice([10, 45, 90])}"
            content = [text(body)] if variety and rng.random() < 0.3 else body
            results.append(tool_result(call["id"], content, is_error=rng.random() < error_rate))
        after = [text(f"Step {step} done?")] if variety and rng.random() < 0.15 else []
        messages.append(user(*results, *after))
    if rng.random() < answer:
        messages.append(assistant("Answer: done."))
    return messages
