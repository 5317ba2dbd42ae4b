"""Checks for lesson 5's exercises: ex5.should_compact, ex5.safe_boundary, ex5.structured_prompt.

- ex5.should_compact: compact only when the calibrated size is over `trigger - margin`.
  A check without the margin, or on the raw characters / 4 estimate, fails.
- ex5.safe_boundary: the boundary of the kept part, moved back so that no pair is split.
  The naive `len(messages) - keep` fails: the API would answer 400.
- ex5.structured_prompt: a summarizer prompt that keeps the user's constraints. The check
  runs the constraints and audit workloads with the learner's prompt in a `Compactor`, in
  an 8,000-token window of the offline course model (always offline), and requires the
  budget to be kept and the audit to be right. A free-form prompt fails.

The offline summarizer is extractive: it treats a system prompt as a summarizing request
when it asks to summarize (or condense, compress, recap...), and as a structured one when
it also asks for a goal and for facts. The section and "verbatim" checks ask for what a
real model needs as well, in any usual wording ("verbatim", "word for word", "copy each
limit exactly as written", ...).
tests/test_lesson05_checks.py proves that correct answers pass and known wrong ones fail.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from functools import lru_cache

from agentlib.messages import (
    HistoryError,
    copy_history,
    starts_with_tool_result,
    user,
    validate,
)
from agentlib.tokens import estimate
from classroom.grading import own_work, portable, register, seed
from classroom.harness import calibrated_meter
from coursekit.histories import agent_history

SUMMARY = user("[Summary of earlier turns]\n(a summary of the folded messages)")

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex5.should_compact", "agentlib.context.trigger", "agentlib.context.compact",
         "agentlib.context.lowwater")
own_work("ex5.safe_boundary", "agentlib.context.truncate", "agentlib.context.compact")
own_work("ex5.structured_prompt", "agentlib.context.summary:STRUCTURED_PROMPT",
         "agentlib.context.summary:PARAPHRASE_PROMPT")

# ---------------------------------------------------------------- the histories


# Deterministic agent histories (coursekit.histories) ending with a user message, as
# before a request, so the message at a given distance from the end varies.
HISTORIES = [agent_history(seed(number), steps, lines=(1, 30), answer=0, text_rate=0.25)
             for number, steps in
             [(1, 2), (2, 5), (3, 8), (4, 12), (5, 16), (6, 20), (7, 9), (8, 14)]]


def _where(number: int, history: list[dict], keep: int | None = None) -> str:
    k = f", keep={keep}" if keep is not None else ""
    return f"on test history #{number} ({len(history)} messages{k})"


# ---------------------------------------------------------------- ex5.should_compact

COMPACT_HINT = ("return meter.measure(messages) > trigger - margin: the calibrated size, "
                "compared with the trigger minus the margin")


def _compact_cases() -> Iterator[tuple[str, list[dict], float]]:
    for number, history in enumerate(HISTORIES):
        for ratio in (1.0, 1.6, 0.8):
            yield f"test history #{number} (meter ratio {ratio})", history, ratio


def _decide(ns: dict, history: list[dict], ratio: float, trigger: int, margin: int) -> bool:
    meter = portable(calibrated_meter, history, ratio)
    got = ns["should_compact"](copy_history(history), meter, trigger, margin)
    assert isinstance(got, bool), f"should_compact should return True or False, got {got!r}"
    return got


@register("ex5.should_compact", "compacts inside the margin, before the trigger is reached",
          hint=COMPACT_HINT, needs=("should_compact",))
def _inside_margin(ns: dict) -> None:
    for where, history, ratio in _compact_cases():
        size = calibrated_meter(history, ratio).measure(history)
        for trigger, margin in ((size + 10, 50), (size, 1), (size + 400, 500), (size - 5, 0)):
            assert _decide(ns, history, ratio, trigger, margin), (
                f"{where}: the calibrated size is {size}, trigger={trigger}, margin={margin}; "
                f"{size} > {trigger} - {margin} = {trigger - margin}, so compact now (True). "
                "Waiting for the trigger itself leaves no room for the reply, the next tool "
                "result and the summary call")


@register("ex5.should_compact", "leaves a history at or under trigger - margin alone",
          hint=COMPACT_HINT + "; exactly trigger - margin is not over", needs=("should_compact",))
def _under_budget(ns: dict) -> None:
    for where, history, ratio in _compact_cases():
        size = calibrated_meter(history, ratio).measure(history)
        for trigger, margin in ((size + 50, 50), (size + 600, 500), (size + 1, 0),
                                  (size * 3, size)):
            assert not _decide(ns, history, ratio, trigger, margin), (
                f"{where}: the calibrated size is {size}, trigger={trigger}, margin={margin}; "
                f"{size} is not over {trigger} - {margin} = {trigger - margin}, so do not "
                "compact (False): every compaction is a paid call and a cache miss")


@register("ex5.should_compact", "measures with the calibrated meter, not raw characters / 4",
          hint="meter.measure(messages) scales characters / 4 by the ratio the API's usage showed",
          needs=("should_compact",))
def _calibrated(ns: dict) -> None:
    for where, history, ratio in _compact_cases():
        raw, size = estimate(history), calibrated_meter(history, ratio).measure(history)
        if abs(size - raw) < 20:
            continue
        low, high = min(raw, size), max(raw, size)
        trigger, margin = (low + high) // 2 + 10, 10  # between the raw and the calibrated size
        want = size > trigger - margin
        got = _decide(ns, history, ratio, trigger, margin)
        assert got == want, (
            f"{where}: characters / 4 says {raw} tokens, the calibrated meter says {size}; with "
            f"trigger={trigger}, margin={margin} the answer is {want}, got {got}")


# ---------------------------------------------------------------- ex5.safe_boundary

BOUNDARY_HINT = ("start at len(messages) - keep (not below 0); while the message there "
                 "opens with a tool_result, move the boundary one message back")


def _reference_boundary(messages: list[dict], keep: int) -> int:
    cut = max(0, len(messages) - keep)
    while 0 < cut < len(messages) and starts_with_tool_result(messages[cut]):
        cut -= 1
    return cut


def _boundary_cases() -> Iterator[tuple[int, list[dict], int]]:
    for number, history in enumerate(HISTORIES):
        for keep in range(1, len(history) + 2):
            yield number, history, keep


def _boundary(ns: dict, number: int, history: list[dict], keep: int) -> int:
    cut = ns["safe_boundary"](copy_history(history), keep)
    assert isinstance(cut, int) and not isinstance(cut, bool), (
        f"safe_boundary should return an index (an int), got {cut!r}")
    assert 0 <= cut <= len(history), (
        f"safe_boundary {_where(number, history, keep)} returned {cut}: an index from 0 "
        f"to {len(history)} was expected")
    return cut


@register("ex5.safe_boundary", "the kept part never opens with a tool_result",
          hint=BOUNDARY_HINT, needs=("safe_boundary",))
def _boundary_valid(ns: dict) -> None:
    for number, history, keep in _boundary_cases():
        cut = _boundary(ns, number, history, keep)
        compacted = [SUMMARY] + history[cut:]
        try:
            validate(compacted)
        except HistoryError as e:
            raise AssertionError(
                f"safe_boundary {_where(number, history, keep)} returned {cut}; the "
                f"summary followed by messages[{cut}:] gets the API's 400: {e.api_message}"
            ) from None


@register("ex5.safe_boundary", "keeps at least the newest keep messages",
          hint="never move the boundary forward: the newest keep messages stay verbatim",
          needs=("safe_boundary",))
def _boundary_keeps(ns: dict) -> None:
    for number, history, keep in _boundary_cases():
        cut = _boundary(ns, number, history, keep)
        most = max(0, len(history) - keep)
        assert cut <= most, (
            f"safe_boundary {_where(number, history, keep)} returned {cut}, which keeps "
            f"only {len(history) - cut} messages; the boundary may be at most {most}")


@register("ex5.safe_boundary", "moves the boundary back no further than a pair needs",
          hint="move back one message at a time, only while the kept part opens with a "
          "tool_result", needs=("safe_boundary",))
def _boundary_tight(ns: dict) -> None:
    for number, history, keep in _boundary_cases():
        cut = _boundary(ns, number, history, keep)
        want = _reference_boundary(history, keep)
        assert cut == want, (
            f"safe_boundary {_where(number, history, keep)} returned {cut}; the "
            f"closest boundary that splits no pair is {want}: everything before it is "
            "folded, so moving further back folds less than it could")


@register("ex5.safe_boundary", "does not change its input",
          hint="only read messages; return an index", needs=("safe_boundary",))
def _boundary_pure(ns: dict) -> None:
    for number, history, keep in _boundary_cases():
        data = copy_history(history)
        ns["safe_boundary"](data, keep)
        assert data == history, (f"safe_boundary {_where(number, history, keep)} "
                                 "changed the list it was given")


# ---------------------------------------------------------------- ex5.structured_prompt

SECTIONS = {"goal": r"\bgoal|목표", "progress": r"\bprogress|진행", "key facts": r"\bfacts?\b|사실",
            "decisions": r"\bdecisions?\b|결정", "next steps": r"\bnext steps?\b|다음 (?:단계|할 일)"}
# in English or Korean (a Korean notebook's learner may write the prompt in Korean)
VERBATIM = re.compile(
    r"verbatim|word[- ]for[- ]word|letter[- ]for[- ]letter|character[- ]for[- ]character"
    r"|(?:원문|글자|있는|토씨)[^.\n]{0,12}그대로|그대로 (?:인용|옮겨|베껴|적)|바꾸지 말고"
    r"|\bquot(?:e|es|ed|ing)\b|\bliterally\b|\bunchanged\b|\bunaltered\b"
    r"|exact (?:words?|wording|text|terms|figures|numbers|phrasing)"
    r"|exactly as (?:written|stated|given|said|worded|phrased|the user)"
    r"|as (?:written|stated) by the user"
    r"|\b(?:copy|copies|keep|repeat|preserve|reproduce|restate|transcribe)\b[^.\n]{0,60}"
    r"\b(?:exactly|precisely|as written|as stated|without (?:changing|rewording|paraphras))",
    re.I)
PROMPT_HINT = ("the summary call's system prompt: say that it summarizes, name the five "
               "sections (goal, progress, key facts, decisions, next steps), and ask for the "
               "user's constraints verbatim")


def _prompt(ns: dict) -> str:
    prompt = ns["summary_prompt"]()
    assert isinstance(prompt, str) and prompt.strip(), (
        f"summary_prompt() should return the prompt as a non-empty string, got {prompt!r}")
    return prompt


@lru_cache(maxsize=32)
def _run_with(prompt: str, workload: str):
    """(run, compactor) of a workload compacted with `prompt`, in an 8,000-token window."""
    from agentlib.context.compact import Compactor
    from agentlib.loop import run_agent
    from coursekit import connect, workloads

    client = connect(offline=True, context_window=8_000)
    with tempfile.TemporaryDirectory(prefix="agentlib-ex5-") as root:
        if workload == "constraints":
            work, trigger = workloads.constraints(), 1_000
        else:
            work, trigger = workloads.audit(12, root=root), 5_000
        compactor = Compactor(client, trigger=trigger, keep=4, prompt=prompt)
        run = run_agent(client, work, max_tokens=512, context=[compactor])
    return run, compactor


def _last_summary(run) -> str:
    for step in reversed(run.steps):
        first = step.sent[0]["content"][0].get("text", "") if step.sent else ""
        if first.startswith("[Summary of earlier turns]"):
            return " ".join(first.split())[:160]
    return "(none)"


@register("ex5.structured_prompt", "names the five sections",
          hint=PROMPT_HINT, needs=("summary_prompt",))
def _sections(ns: dict) -> None:
    prompt = _prompt(ns)
    missing = [name for name, pattern in SECTIONS.items() if not re.search(pattern, prompt, re.I)]
    assert not missing, (f"the prompt does not ask for: {', '.join(map(repr, missing))}. A "
                         "free-form 'summarize' lets the summarizer choose what to keep, and "
                         "numbers go first")


@register("ex5.structured_prompt", "asks for the user's constraints verbatim",
          hint="say that every constraint the user stated is quoted verbatim",
          needs=("summary_prompt",))
def _verbatim(ns: dict) -> None:
    prompt = _prompt(ns)
    assert VERBATIM.search(prompt), (
        "the prompt does not ask for the user's constraints verbatim (or word for word, or "
        "copied exactly as written); "
        "a paraphrased limit ('a reasonable budget') is a lost limit")


@register("ex5.structured_prompt", "keeps the budget through compaction (constraints workload)",
          hint=PROMPT_HINT, needs=("summary_prompt",))
def _keeps_budget(ns: dict) -> None:
    run, compactor = _run_with(_prompt(ns), "constraints")
    assert compactor.compactions, "no compaction happened (a bug in the check)"
    assert run.score.constraint_kept and run.score.success, (
        f"with your prompt the agent {run.score.detail.split(';')[0]}; the budget is at most "
        f"$1,400 and the right choice is {run.score.detail.split('best is ')[-1]}. The last "
        f"summary began: {_last_summary(run)!r}")


@register("ex5.structured_prompt", "keeps the findings through compaction (audit workload)",
          hint=PROMPT_HINT, needs=("summary_prompt",))
def _keeps_findings(ns: dict) -> None:
    run, compactor = _run_with(_prompt(ns), "audit")
    assert compactor.compactions, "no compaction happened (a bug in the check)"
    assert run.score.success, (
        f"with your prompt the audit found {run.score.detail}; the last summary began: "
        f"{_last_summary(run)!r}")
