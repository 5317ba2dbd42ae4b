"""The bill of a run: every token of its trace priced with the model catalog.

A step's `input_tokens` is all of its input: `cache_read` of it was read from the cache
(a tenth of the input price or less), `cache_write` was written to it (1.25x the input
price for 5 minutes; `cache_write_1h` of it for an hour, at 2x), and the rest is billed
at the input price. Output is billed at the output price. Two kinds of call are not in
`run.steps`: a client-side compaction's summary calls (`agentlib.context.Compactor`)
and a server-side compaction's iteration (`Step.compaction_tokens`); both are plain
input and output. Prices: `agentlib.models.prices(model, prompt_tokens)`, so a prompt over
a model's long-prompt threshold is billed at its higher band.

For a sensitivity check, `read_x` re-prices cache reads at another multiple of the input
price, and `ttl` with `gap` models a cache that expires (the offline cache never does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from agentlib import models

PER = 1_000_000  # catalog prices are per million tokens


@dataclass
class Bill:
    """Dollars by kind of token."""

    input: float = 0.0  # input neither read from nor written to the cache
    cache_write_5m: float = 0.0
    cache_write_1h: float = 0.0
    cache_read: float = 0.0
    output: float = 0.0
    summaries: float = 0.0  # client-side summary calls, input and output
    compaction: float = 0.0  # server-side compaction iterations, input and output

    @property
    def total(self) -> float:
        return sum(getattr(self, f.name) for f in fields(self))

    def __add__(self, other: Bill) -> Bill:
        return Bill(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def _prices(model: str, prompt_tokens: int = 0, read_x: float | None = None) -> models.Prices:
    """The catalog's prices, with cache reads at `read_x` times the input price if given."""
    p = models.prices(model, prompt_tokens)
    return p if read_x is None else replace(p, cache_read=p.input * read_x)


def expired(steps: int, ttl: float | None, gap: float | Sequence[float] = 0.0) -> list[bool]:
    """Which of `steps` requests find the cache expired: those that come more than `ttl`
    seconds after the request before them (`gap`: seconds between requests, one number for
    every gap or one per request). A model, not the API's clock: a request within `ttl` of
    the one before finds what that one read or wrote; after a longer gap it finds nothing."""
    if ttl is None:
        return [False] * steps
    gaps = [gap] * steps if isinstance(gap, (int, float)) else list(gap)
    return [i > 0 and gaps[i] > ttl for i in range(steps)]


def bill(run, *, summaries: tuple[int, int] = (0, 0), model: str | None = None,
         cached: bool = True, read_x: float | None = None, ttl: float | None = None,
         gap: float | Sequence[float] = 0.0) -> Bill:
    """What `run` costs on `model` (default: the run's, else the course model, priced as the
    current Sonnet), by kind of token; `summaries` are the (input, output) tokens of its
    summary calls. `cached=False`: the same tokens if nothing were cached. `read_x`: cache
    reads at that multiple of the input price. `ttl`, `gap` (seconds, see `expired`): a
    request after a gap over `ttl` writes, at the 5-minute price, what it would have read."""
    model = model or getattr(run, "model", None) or models.OFFLINE_MODEL
    out = Bill()
    lapsed = expired(len(run.steps), ttl, gap)
    for s, gone in zip(run.steps, lapsed, strict=True):
        p = _prices(model, s.input_tokens, read_x)
        if cached:
            out.input += (s.input_tokens - s.cache_read - s.cache_write) * p.input / PER
            rewrite = s.cache_read if gone else 0
            out.cache_write_5m += (s.cache_write - s.cache_write_1h + rewrite) \
                * p.cache_write_5m / PER
            out.cache_write_1h += s.cache_write_1h * p.cache_write_1h / PER
            out.cache_read += (s.cache_read - rewrite) * p.cache_read / PER
        else:
            out.input += s.input_tokens * p.input / PER
        out.output += s.output_tokens * p.output / PER
        c_in, c_out = s.compaction_tokens
        out.compaction += (c_in * p.input + c_out * p.output) / PER
    p = models.prices(model)
    out.summaries += (summaries[0] * p.input + summaries[1] * p.output) / PER
    return out


def cost(run, summary_tokens: tuple[int, int] = (0, 0), cached: bool = True, *,
         model: str | None = None, **pricing) -> float:
    """Dollars for a run's calls and its summary calls: `bill(...).total` (`pricing`:
    bill's `read_x`, `ttl`, `gap`)."""
    return bill(run, summaries=summary_tokens, model=model, cached=cached, **pricing).total


def summary_tokens(compactors) -> tuple[int, int]:
    """(input, output) tokens of every summary call the compactors made."""
    folds = [c for comp in compactors for c in comp.compactions]
    return (sum(c.summary_input_tokens for c in folds),
            sum(c.summary_output_tokens for c in folds))


def break_even(freed: int, rewritten: int, *, model: str = models.OFFLINE_MODEL,
               read_x: float | None = None) -> float:
    """After how many later requests a clear has paid for the cache it breaks.

    Each later request no longer reads the `freed` tokens (saving the cache-read price on
    each); the next one writes `rewritten` tokens (everything after the first changed
    block) that it would have read (paying write minus read, once). The clear pays when
    freed x steps x read > rewritten x (write - read). `read_x`: reads at that multiple of
    the input price.
    """
    if freed <= 0:
        return float("inf")
    p = _prices(model, read_x=read_x)
    return rewritten * (p.cache_write_5m - p.cache_read) / (freed * p.cache_read)


def floor_tokens(run, *, model: str | None = None) -> dict[str, int]:
    """The tokens of `floor`, by kind: {"write", "read", "input", "output"}, and "peak": the
    largest of its requests (the least peak window a run keeping what the floor keeps has)."""
    from agentlib import tokens
    from agentlib.context.clear import PLACEHOLDER
    from agentlib.messages import blocks

    out = {"write": 0, "read": 0, "input": 0, "output": run.total_output_tokens, "peak": 0}
    if not run.steps:
        return {k: 0 for k in out}
    model = model or getattr(run, "model", None) or models.OFFLINE_MODEL
    bound = getattr(models.get(model), "binds_thinking", False)
    replies = [s.thinking_tokens for s in run.steps if s.stop_reason is not None]
    earlier = sum(m["role"] == "assistant" for m in run.transcript[1:]) - len(replies)
    thought = iter([0] * earlier + replies)  # each reply's thinking tokens, in order
    frame = run.steps[0].input_tokens  # what every request needs: system, tools, the task
    out["write"] = out["peak"] = frame  # the first request writes it
    kept, pending = 0, 0  # tokens already cached; tokens the next request writes
    for m in run.transcript[1:]:
        text = sum(tokens.count(b) for b in blocks(m) if b.get("type") == "text")
        if m["role"] == "assistant":
            pending += text
            if bound:  # the note in thinking, and the call with its input emptied
                pending += next(thought) + sum(tokens.count({**b, "input": {}})
                                               for b in blocks(m) if b.get("type") == "tool_use")
            continue
        results = [b for b in blocks(m) if b.get("type") == "tool_result"]
        out["read"] += frame + kept  # the next request
        out["write"] += pending + text
        sent = sum(map(tokens.count, results))
        out["input"] += sent
        out["peak"] = max(out["peak"], frame + kept + pending + text + sent)
        kept, pending = kept + pending + text, 0
        if bound:  # each result, once read, leaves its placeholder
            pending = sum(tokens.count({**b, "content": PLACEHOLDER}) for b in results)
    return out


def floor(run, *, model: str | None = None, read_x: float | None = None) -> float:
    """The least this run's own requests could cost, whatever manages its context, for an
    agent that keeps its findings in its replies: the first request (system, tools, task)
    written to the cache once and read by every later request; each text the agent or the
    user wrote written once and read by every later request; each tool result sent once,
    uncached, at the input price (it is read once: the next reply notes what it found);
    every output token at the output price. No rewrites, no summary calls, no call records
    or stale results kept. Read from `run.transcript` (every message ever added); priced on
    `model` (default: the run's). `read_x`: reads at that multiple of the input price.

    On a model that binds thinking to the conversation (`models.get(m).binds_thinking`,
    the default live model) the notes are thinking blocks, and a note is valid only while
    nothing before it changes: the client may edit nothing before a note it still needs,
    and the API's clearing edit, which keeps the notes valid, leaves each call and a
    placeholder for its result. There the floor also keeps, written once and read by every
    later request, each note at its full size (its usage's thinking tokens, shown or not),
    each call with its input emptied and each result's placeholder once it was read.
    Its tokens by kind: `floor_tokens`."""
    model = model or getattr(run, "model", None) or models.OFFLINE_MODEL
    p, t = _prices(model, read_x=read_x), floor_tokens(run, model=model)
    return (t["write"] * p.cache_write_5m + t["read"] * p.cache_read + t["input"] * p.input
            + t["output"] * p.output) / PER
