"""Profiles: the sizes every lesson reads, and what a live pass would cost.

    AGENTLIB_PROFILE=offline   today's sizes: the saved outputs of every notebook
    AGENTLIB_PROFILE=live      small workloads and one point per sweep, for real Claude

Without AGENTLIB_PROFILE the profile is `live` when ANTHROPIC_API_KEY is set (and
AGENTLIB_OFFLINE does not force the stand-in), else `offline`. A lesson reads its sizes
with `P = profile.sizes()` (`P.audit`, `P.window`, ...), never hard-coded in a cell, and
before an expensive section prints `profile.estimate(...)`: calls times tokens, priced
with the model catalog. Live sizes are chosen so that a full live pass of every lesson,
metered against the stand-in, costs at most $3.4 at the default model's prices ($2.64-2.94
for seeds 1-3 through lesson 8, lesson 9 $0.44 more); Claude's tokenizer counts about 30%
more, so expect ~$4.0-4.4 on Claude
(README, "Running on Claude").
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from agentlib import models

PROFILES = ("offline", "live")

# name: (offline value: what the saved outputs use, live value: small, one sweep point)
TABLE: dict[str, tuple[Any, Any]] = {
    # the workloads (lessons 1-6)
    "audit": (12, 5),  # files in workloads.audit
    "needle": (400, 400),  # lines in workloads.needle (one read jumps the small window)
    "constraints": (8, 5),  # laptops looked up in workloads.constraints
    "window": (8_000, 4_000),  # the small context window of the overflow demos, tokens
    "max_steps": (60, 9),  # run_agent's default guard against a model that loops
    # lesson 1
    "overflow_max_tokens": ((2048, 128), (1024,)),  # max_tokens of the overflow runs
    # lesson 2: truncation sweeps
    "naive_keeps": ((9, 10), (9,)),
    "shop_keeps": ((4, 8, 16, 24, 33, 34), (16,)),
    "audit_keeps": ((24, 20, 16, 12, 8, 6, 4), (8,)),
    # lesson 3: capping
    "cap_chars": (tuple(range(800, 2001, 200)), (1_200,)),
    # lesson 4: clearing
    "clear_keeps": (tuple(range(11)), (3,)),
    "clear_triggers": (tuple(range(1_000, 7_001, 1_000)), (3_000,)),
    "clear_trigger": (4_000, 3_000),  # the trigger of the single runs
    "spin_steps": (30, 8),  # max_steps of the run that clears everything (keep 0)
    "long_audit": (60, 8),  # the long clearing run
    # lesson 5: compaction
    "compact_triggers": ((5_000, 3_000), (2_500,)),
    "compact_window": (8_000, 3_500),  # lesson 5's small window
    "compact_trigger": (5_000, 2_500),  # lesson 5's single runs
    "summary_boundaries": (100, 4),  # at most this many boundaries tried for a summary
    "compact_keeps": ((1, 2, 4, 6, 8, 10, 12), (4,)),  # lesson 5's keep sweep
    # lesson 5b: triggers at the API's scale
    "big_audit": (100, 8),  # the audit for server-side compaction
    "big_scale": (1.0, 0.05),  # its client-side triggers, scaled to the smaller audit
    "big_steps": (300, 10),  # max_steps of its long runs
    "longer_audit": (130, 8),  # its longest server-side run
    "trigger_audit": (20, 6),  # the audit that compares a token trigger with a message one
    # lesson 6: notes
    "layered_audit": (30, 8),  # the run with clearing, compaction and notes together
    "layered_steps": (150, 10),  # its max_steps
    "notes_steps": (100, 12),  # max_steps of the run that keeps 4 messages and notes
    # lesson 8: the team's audit
    "team_audit": (96, 20),  # files
    "team_folders": (6, 2),  # region folders, one sub-agent each
    "naive_budget": (60, 24),  # tokens per sub-agent result, picked by feel (24 at least)
    "single_steps": (424, 24),  # max_steps of the one-agent run (4 per file + 40 offline)
    # lessons 9 and 9b: the tools in the window (workloads.ops)
    "ops_catalog": (61, 6),  # tools offered (the needed ones first); 61 is the whole catalog
    "ops_sizes": ((4, 6, 7, 8, 12, 16, 24, 32, 48, 61), (4, 8)),  # lesson 9's break-even sweep
    "ops_invoices": (20, 3),  # invoices of the customer in the programmatic task
    "ops_reports": (12, 3),  # handoff reports in the task where every result is read
    "ops_steps": (60, 12),  # max_steps of the runs of lessons 9 and 9b
}


def name() -> str:
    """The active profile: $AGENTLIB_PROFILE, else `live` with a key (not forced offline)."""
    chosen = os.environ.get("AGENTLIB_PROFILE", "").strip().lower()
    if chosen:
        if chosen not in PROFILES:
            raise ValueError(f"AGENTLIB_PROFILE must be 'offline' or 'live', got {chosen!r} "
                             "(see coursekit/profile.py)")
        return chosen
    forced = os.environ.get("AGENTLIB_OFFLINE", "").strip() not in ("", "0")
    return "live" if os.environ.get("ANTHROPIC_API_KEY") and not forced else "offline"


def is_live(profile: str | None = None) -> bool:
    return (profile or name()) == "live"


class Sizes:
    """The sizes of one profile; read them as attributes (`P.audit`) or items (`P["audit"]`)."""

    def __init__(self, profile: str):
        if profile not in PROFILES:
            raise ValueError(f"no profile {profile!r}; the profiles are {', '.join(PROFILES)}")
        self.profile = profile
        self._values = {k: v[PROFILES.index(profile)] for k, v in TABLE.items()}

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(f"no size named {key!r} in coursekit.profile.TABLE; add it "
                                 "there with its offline and live values") from None

    __getitem__ = __getattr__

    def __repr__(self) -> str:
        return f"Sizes({self.profile}: " + ", ".join(f"{k}={v}" for k, v in
                                                    self._values.items()) + ")"


def sizes(profile: str | None = None) -> Sizes:
    """The sizes of `profile` (default: the active one)."""
    return Sizes(profile or name())


def scripted(client: Any) -> bool:
    """True for the deterministic course model: the client whose outputs are saved in the
    notebooks. Exact equalities between two runs hold only there; guard them with this."""
    model = getattr(client, "course_model", None)
    return model is not None and getattr(model, "unscripted", None) is None


# ---------------------------------------------------------------- estimates

TOKENIZER_FACTOR = {"new": 1.3, "old": 1.0, "course": 1.0}  # tokens vs the course's cl100k


@dataclass(frozen=True)
class Estimate:
    """What a section would cost: calls, tokens (in the model's own tokenizer) and dollars."""

    calls: int
    input_tokens: int
    output_tokens: int
    usd: float
    model: str

    def __add__(self, other: Estimate) -> Estimate:
        return Estimate(self.calls + other.calls, self.input_tokens + other.input_tokens,
                        self.output_tokens + other.output_tokens, self.usd + other.usd,
                        self.model)

    def __str__(self) -> str:
        return (f"about {self.calls:,} calls, {self.input_tokens:,} input and "
                f"{self.output_tokens:,} output tokens: ~${self.usd:.2f} at {self.model} "
                "prices, no cache")


def estimate(calls: int, input_tokens: int, output_tokens: int = 0, *,
             model: str | None = None, counted_offline: bool = True) -> Estimate:
    """Price `calls` requests carrying `input_tokens` and `output_tokens` in all, with the
    catalog (no cache discount: an upper bound). `counted_offline`: the numbers come from
    the course's tokenizer, so they are scaled to the model's (about +30% on new models)."""
    model = model or models.model_name()
    row = models.get(model)
    if row is None:
        raise KeyError(f"no prices for {model!r}: not in agentlib.models.CATALOG")
    factor = TOKENIZER_FACTOR.get(row.tokenizer, 1.0) if counted_offline else 1.0
    inp, out = round(input_tokens * factor), round(output_tokens * factor)
    p = models.prices(model, inp // max(calls, 1))
    return Estimate(calls, inp, out, (inp * p.input + out * p.output) / 1e6, model)


def agent_run(steps: int, first: int, growth: int, output_per_step: int = 150,
              **options) -> Estimate:
    """An append-only run of `steps` requests: the first sends `first` tokens, each later
    one `growth` more (lesson 1: n*first + growth*n(n-1)/2 in all)."""
    total = steps * first + growth * steps * (steps - 1) // 2
    return estimate(steps, total, steps * output_per_step, **options)


def audit_run(n_files: int, **options) -> Estimate:
    """An append-only audit of `n_files` files (measured offline: ~500 tokens before the
    first file, ~720 more per file read, a listing and the defaults file first)."""
    return agent_run(n_files + 3, 500, 720, **options)


def announce(section: str, cost: Estimate) -> None:
    """Print the estimate of a section before it runs, in the live profile only (offline
    the course model is free and the saved outputs stay as they are)."""
    if is_live():
        from agentlib import meter  # the meter reads the profile: imported here, not at the top

        cap = meter.process().budget
        left = "" if cap is None else f"; spent so far ${meter.spent():.2f} of ${cap:.2f}"
        print(f"[{section}] {cost}{left}")
