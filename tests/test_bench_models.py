"""The benchmark on both model behaviours (issue 38): a model column, each run's re-reads,
ratios to append-only on the same model, the default model's bars, and a floor that keeps
what a model binding thinking cannot drop."""

from __future__ import annotations

import pytest

import agentlib
from agentlib import cost, models, tokens
from agentlib.context import PLACEHOLDER
from agentlib.context.breakpoints import Breakpoints
from agentlib.loop import run_agent
from agentlib.messages import blocks
from coursekit import bench, workloads

LIVE = models.DEFAULT_MODEL

SERVER_CLEAR = {"betas": ["context-management-2025-06-27"],
                "context_management": {"edits": [{
                    "type": "clear_tool_uses_20250919",
                    "trigger": {"type": "input_tokens", "value": 1_500},
                    "keep": {"type": "tool_uses", "value": 1}}]}}


@pytest.fixture(scope="module")
def live_run():
    """The small audit on the default model's semantics, its results cleared by the API."""
    client = agentlib.connect(offline=True, model=LIVE)
    return run_agent(client, workloads.audit(12), extra=SERVER_CLEAR, max_tokens=1024,
                     cache=Breakpoints(keep=1, newest=False))


def test_the_models_are_the_course_model_and_the_default_live_one():
    assert bench.MODELS == (models.OFFLINE_MODEL, models.DEFAULT_MODEL)
    assert not models.get(bench.MODELS[0]).binds_thinking
    assert models.get(bench.MODELS[1]).binds_thinking


def test_a_step_records_its_thinking_tokens(live_run):
    assert live_run.score.success and live_run.model == LIVE
    thought = [s.thinking_tokens for s in live_run.steps]
    assert all(0 < t < s.output_tokens for t, s in zip(thought, live_run.steps, strict=True)
               if s.stop_reason == "tool_use")
    # shown `omitted`: the client sees no text, the usage still counts the notes
    assert all(b["thinking"] == "" for m in live_run.transcript if m["role"] == "assistant"
               for b in blocks(m) if b["type"] == "thinking")


def test_the_floor_of_a_binding_model_keeps_notes_calls_and_placeholders(live_run):
    """By hand: the course floor's tokens, plus each note (its thinking tokens), each call
    with its input emptied and each result's placeholder, written once and read by every
    later request."""
    bound = cost.floor_tokens(live_run)
    plain = cost.floor_tokens(live_run, model=models.OFFLINE_MODEL)
    thought = sum(s.thinking_tokens for s in live_run.steps)
    calls = sum(tokens.count({**b, "input": {}}) for m in live_run.transcript
                for b in blocks(m) if b["type"] == "tool_use")
    holders = sum(tokens.count({**b, "content": PLACEHOLDER}) for m in live_run.transcript
                  for b in blocks(m) if b["type"] == "tool_result")
    last = sum(tokens.count({**b, "content": PLACEHOLDER})  # the last results' are never sent
               for b in blocks(live_run.transcript[-2]) if b["type"] == "tool_result") \
        if live_run.transcript[-1]["role"] == "assistant" else 0
    final = live_run.steps[-1].thinking_tokens  # the answer's notes: no request after it
    assert bound["input"] == plain["input"] and bound["output"] == plain["output"]
    assert bound["write"] - plain["write"] == thought - final + calls + holders - last
    assert bound["read"] > plain["read"]
    assert cost.floor(live_run) > cost.floor(live_run, model=models.OFFLINE_MODEL)
    assert 0 < cost.floor(live_run) <= cost.cost(live_run)


def test_the_course_models_floor_is_unchanged_by_the_model_argument():
    run = run_agent(agentlib.connect(offline=True), workloads.audit(12), max_tokens=1024,
                    cache=True)
    assert cost.floor(run) == cost.floor(run, model=models.OFFLINE_MODEL)
    assert cost.floor_tokens(run)["write"] >= run.steps[0].input_tokens


def test_re_reads_count_reads_with_the_same_arguments():
    calls = [("read_file", {"path": "a"}), ("list_files", {}), ("read_file", {"path": "b"}),
             ("read_file", {"path": "a"}), ("read_file", {"path": "a", "offset": 10}),
             ("read_file", {"offset": 10, "path": "a"})]

    class Run:
        def tool_calls(self, name):
            return [c for c in calls if c[0] == name]

    assert bench.re_reads(Run()) == 2


def test_rows_carry_the_model_and_ratios_compare_within_a_model():
    rows = bench.add_ratios([bench.measure("audit", "small", k, model=m)
                             for m in bench.MODELS for k in ("append-only", "server clear+bp")])
    assert [r["model"] for r in rows] == [bench.MODELS[0]] * 2 + [bench.MODELS[1]] * 2
    assert all(r["re_reads"] >= 0 and r["floor_read_tokens"] > 0 for r in rows)
    assert rows[0]["cost_usd_ratio"] == rows[2]["cost_usd_ratio"] == 1.0
    assert rows[3]["cost_usd_ratio"] == round(rows[3]["cost_usd"] / rows[2]["cost_usd"], 3)
    assert rows[0]["cost_usd"] != rows[2]["cost_usd"]  # the cache minimum differs: 1,024, 512


def _row(model, size, strategy, success=1, to_floor=1.0, **ratios):
    return {"model": model, "workload": "audit", "size": size, "strategy": strategy,
            "success": success, "cost_to_floor": to_floor, "seed": 7,
            **{f"{k}_ratio": v for k, v in ratios.items()}}


def test_the_default_models_bars_read_its_own_rows():
    good = [_row(LIVE, "large", bench.LIVE_BEST, cost_usd=bench.LIVE_BARS["audit-large"]["cost"],
                 peak_window=0.09, to_floor=1.2),
            _row(LIVE, "held-out", bench.LIVE_BEST, cost_usd=0.29)]
    lines = bench.check_bars(good)
    assert len(lines) == 4 and all(line.startswith("ok") and LIVE in line for line in lines)
    # the same numbers on the course model's rows are checked against BARS, not LIVE_BARS
    assert all(LIVE not in line for line in bench.check_bars(
        [dict(r, model=models.OFFLINE_MODEL) for r in good]))
    bad = [dict(good[0], peak_window_ratio=0.11, cost_to_floor=1.31), dict(good[1], success=0)]
    assert sum(line.startswith("FAILS") for line in bench.check_bars(bad)) == 3
