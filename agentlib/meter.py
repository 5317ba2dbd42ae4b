"""The meter: what every request cost, priced with the catalog, and a budget cap.

Every client from `agentlib.connect()` records each response's `usage` here (uncached
input, cache writes and reads, output, server-side compaction), priced with
`models.prices`. The tallies are per client (`client.usage`) and per Python process
(`meter.process()`, one kernel); the budget caps the process: a request whose worst case
(its input at the full input price plus `max_tokens` of output) would take the process
past `AGENTLIB_BUDGET_USD` is not sent, and `BudgetExceeded` says what was spent and how
to raise the cap. The default cap is $5 once a client talks to Claude, none offline.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field, fields

from agentlib import models

LIVE_DEFAULT_BUDGET = 5.0


class BudgetExceeded(Exception):
    """A request was not sent: it could take the spending past AGENTLIB_BUDGET_USD."""

    def __init__(self, spent: float, budget: float, worst: float, calls: int):
        self.spent, self.budget, self.worst, self.calls = spent, budget, worst, calls
        self.run = None  # run_agent attaches the run it stopped (its trace, its history)
        super().__init__(
            f"budget reached: this kernel has spent ${spent:.4f} of its "
            f"AGENTLIB_BUDGET_USD=${budget:.2f} in {calls:,} requests, and the next request "
            f"could cost up to ${worst:.4f}, so it was not sent. To go on, raise the cap: "
            "set AGENTLIB_BUDGET_USD (e.g. AGENTLIB_BUDGET_USD=10) before starting Jupyter, "
            "or run agentlib.meter.set_budget(10) in this kernel.")


@dataclass
class Usage:
    """Token counts and dollars, summed over responses."""

    calls: int = 0  # responses metered (count_tokens calls are free and not counted)
    input_tokens: int = 0  # uncached input
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    cache_read: int = 0
    output_tokens: int = 0  # thinking included
    compaction_tokens: int = 0  # server-side compaction, input + output (billed apart)
    usd: float = 0.0
    unpriced: set = field(default_factory=set)  # models not in the catalog (priced as default)

    def add(self, other: Usage) -> None:
        for f in fields(self):
            if f.name == "unpriced":
                self.unpriced |= other.unpriced
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict:
        return {f.name: sorted(self.unpriced) if f.name == "unpriced" else getattr(self, f.name)
                for f in fields(self)}

    def __str__(self) -> str:
        cached = self.cache_read + self.cache_write_5m + self.cache_write_1h
        return (f"{self.calls:,} calls, {self.input_tokens + cached:,} input tokens "
                f"({self.cache_read:,} read from the cache, "
                f"{self.cache_write_5m + self.cache_write_1h:,} written), "
                f"{self.output_tokens:,} output: ${self.usd:.4f}")


def price(model: str, usage: dict) -> Usage:
    """One response's usage (the API's dict) as a priced `Usage`."""
    u = Usage(calls=1, input_tokens=usage.get("input_tokens") or 0,
              cache_read=usage.get("cache_read_input_tokens") or 0,
              output_tokens=usage.get("output_tokens") or 0)
    written = usage.get("cache_creation_input_tokens") or 0
    split = usage.get("cache_creation") or {}
    u.cache_write_1h = split.get("ephemeral_1h_input_tokens") or 0
    u.cache_write_5m = written - u.cache_write_1h
    extra_in = extra_out = 0
    for it in usage.get("iterations") or []:
        if it.get("type") == "compaction":  # billed, but not in the top-level counts
            extra_in += it.get("input_tokens") or 0
            extra_out += it.get("output_tokens") or 0
    u.compaction_tokens = extra_in + extra_out
    if models.get(model) is None:
        u.unpriced.add(model)
        model = models.DEFAULT_MODEL
    prompt = u.input_tokens + u.cache_read + written
    p = models.prices(model, prompt)
    u.usd = ((u.input_tokens + extra_in) * p.input + u.cache_write_5m * p.cache_write_5m
             + u.cache_write_1h * p.cache_write_1h + u.cache_read * p.cache_read
             + (u.output_tokens + extra_out) * p.output) / 1e6
    return u


def worst_case(model: str, input_tokens: int, max_tokens: int) -> float:
    """The most a request can cost: all its input uncached, all of max_tokens written."""
    row = models.get(model)
    p = models.prices(model if row else models.DEFAULT_MODEL, input_tokens)
    return (input_tokens * p.input + max_tokens * p.output) / 1e6


class Meter:
    """Usage of one client (`parent`: the process meter) or of the whole process."""

    def __init__(self, parent: Meter | None = None, budget: float | None = None,
                 billed: bool = True):
        self.parent = parent
        self.billed = billed  # False: the scripted course model in a live pass (no Claude call)
        self.budget = budget  # only the process meter's budget is enforced
        self.usage = Usage()
        self._lock = threading.Lock()

    @property
    def root(self) -> Meter:
        return self.parent.root if self.parent else self

    def check(self, model: str, input_tokens: int, max_tokens: int) -> None:
        """Raise BudgetExceeded if this request could take the process past its budget."""
        root = self.root
        if root.budget is None:
            return
        worst = worst_case(model, input_tokens, max_tokens)
        if root.usage.usd + worst > root.budget:
            raise BudgetExceeded(root.usage.usd, root.budget, worst, root.usage.calls)

    def record(self, model: str, usage: dict) -> Usage:
        """Add one response's usage here and in every meter above."""
        priced = price(model, usage)
        meter: Meter | None = self
        while meter is not None:
            with meter._lock:
                meter.usage.add(priced)
            meter = meter.parent
        log = os.environ.get("AGENTLIB_USAGE_LOG")
        if log and self.billed:  # one JSON line per response, for `course.py live-check`
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"model": model, **priced.as_dict()}) + "\n")
        return priced

    def __repr__(self) -> str:
        root = self.root
        cap = "no budget" if root.budget is None else f"budget ${root.budget:.2f}"
        whole = "" if root is self else f"; this kernel ${root.usage.usd:.4f}"
        return f"Meter({self.usage}{whole}; {cap})"


_PROCESS: Meter | None = None
_SET = False  # set_budget() was called: connect() leaves the cap alone


def default_budget() -> float | None:
    """$AGENTLIB_BUDGET_USD, else None (`connect()` sets $5 for the first Claude client)."""
    raw = os.environ.get("AGENTLIB_BUDGET_USD", "").strip()
    if raw:
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(f"AGENTLIB_BUDGET_USD must be a number of dollars, got {raw!r}") \
                from None
        if value < 0:
            raise ValueError(f"AGENTLIB_BUDGET_USD must not be negative, got {raw!r}")
        return value
    return None


def process() -> Meter:
    """The meter of this Python process (a notebook's kernel); every client reports to it."""
    global _PROCESS
    if _PROCESS is None:
        _PROCESS = Meter(budget=default_budget())
    return _PROCESS


def set_budget(usd: float | None) -> None:
    """Set this process's cap in dollars (None: no cap); what was spent stays counted."""
    if usd is not None and (not isinstance(usd, int | float) or usd < 0):
        raise ValueError(f"the budget is a number of dollars >= 0 or None, got {usd!r}")
    global _SET
    process().budget = None if usd is None else float(usd)
    _SET = True


def budget_set() -> bool:
    """True once `set_budget` was called in this process."""
    return _SET


def spent() -> float:
    """Dollars this process has spent so far, at catalog prices."""
    return process().usage.usd
