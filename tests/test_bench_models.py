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


def test_the_floors_least_peak_is_its_largest_request_by_hand(live_run):
    """Each request of the floor holds the frame, what every earlier message left (texts;
    on a binding model also the notes, the emptied calls and the placeholders) and the
    newest results whole; the least peak is the largest of them."""
    thought = iter(s.thinking_tokens for s in live_run.steps)
    frame, left, requests = live_run.steps[0].input_tokens, 0, []
    for m in live_run.transcript[1:]:
        texts = sum(tokens.count(b) for b in blocks(m) if b["type"] == "text")
        if m["role"] == "assistant":
            left += texts + next(thought) + sum(tokens.count({**b, "input": {}})
                                                 for b in blocks(m) if b["type"] == "tool_use")
            continue
        results = [b for b in blocks(m) if b["type"] == "tool_result"]
        requests.append(frame + left + texts + sum(map(tokens.count, results)))
        left += texts + sum(tokens.count({**b, "content": PLACEHOLDER}) for b in results)
    assert cost.floor_tokens(live_run)["peak"] == max(requests)
    assert cost.floor_tokens(live_run)["peak"] <= live_run.peak_input_tokens


def _bound(cost_ratio, cost_usd, floor_usd, peak_ratio=0.09, success=1):
    return {"model": LIVE, "workload": "audit", "size": "large", "strategy": bench.LIVE_BEST,
            "success": success, "seed": 0, "cost_usd_ratio": cost_ratio, "cost_usd": cost_usd,
            "cost_floor_usd": floor_usd, "cost_to_floor": round(cost_usd / floor_usd, 3),
            "peak_window_ratio": peak_ratio, "peak_window": 15_000, "floor_peak_tokens": 14_000,
            "floor_write_tokens": 19_000, "floor_read_tokens": 2_800_000,
            "floor_input_tokens": 130_000, "floor_output_tokens": 16_000}


def test_a_bar_below_the_runs_own_floor_is_checked_against_that_floor():
    """0.34x append-only at 0.75 dollars, its floor 0.70: the floor alone is 0.317x, above
    the 0.25x bar, so the bar is 1.3x that floor (0.412x), and the bound is shown in tokens."""
    near = bench.check_bars([_bound(0.34, 0.75, 0.70)])
    cost_line = next(line for line in near if "cost_usd" in line.replace(" ", "_"))
    assert cost_line.startswith("ok") and "0.317x" in cost_line and "2,800,000" in cost_line
    assert all(line.startswith("ok") for line in near)
    far = bench.check_bars([_bound(0.45, 1.00, 0.70)])  # floor 0.315x; 0.45 > 1.3 x 0.315
    assert sum(line.startswith("FAILS") for line in far) == 2  # the bound and the floor bar
    low = bench.check_bars([_bound(0.30, 0.75, 0.50)])  # floor 0.2x: the plain bar, missed
    assert next(line for line in low if "cost usd" in line).startswith("FAILS")


def test_the_saved_benchmark_has_both_models_and_the_default_models_bars_hold():
    import csv

    from test_records import typed_value  # as lesson 7b reads the saved rows

    from coursekit.bench import check_bars

    with open(bench.RESULTS / "results.csv", encoding="utf-8", newline="") as f:
        saved = [{k: typed_value(v) for k, v in r.items()} for r in csv.DictReader(f)]
    assert {r["model"] for r in saved} == set(bench.MODELS)
    lines = [line for line in check_bars(saved) if LIVE in line]
    assert len(lines) >= 5 and all(line.startswith("ok") for line in lines), lines
    assert sum(r["size"] == "held-out" and r["strategy"] == bench.LIVE_BEST
               for r in saved) >= 2


@pytest.mark.heavy  # two runs of the 200-file audit on the default model's semantics
def test_the_default_models_pipeline_meets_its_bars_on_the_large_audit():
    rows = bench.add_ratios([bench.measure("audit", "large", k, model=LIVE)
                             for k in ("append-only", bench.LIVE_BEST)])
    lines = bench.check_bars(rows)
    assert len(lines) == 3 and all(line.startswith("ok") for line in lines), lines
    assert rows[1]["cost_to_floor"] <= bench.LIVE_BARS["audit-large"]["floor"]


def test_client_side_pipelines_fail_on_the_default_model_and_the_report_says_why():
    """The cheapest pipelines of course-model-1 edit the history on the client: on the
    default model each edit drops the notes after it, the agent reads its files again and
    stops at the audit's step limit (two reads a file, plus 40); results.md lists them."""
    rows = [bench.measure("audit", "small", k, model=m)
            for m in bench.MODELS for k in (bench.BEST, bench.RECORDS, bench.LIVE_BEST)]
    course, live = rows[:3], rows[3:]
    assert all(r["success"] and r["stopped"] == "answered" for r in course)
    for r in live[:2]:
        assert not r["success"] and r["stopped"] == "max_steps"
        assert r["model_calls"] == 2 * r["n"] + 40 and r["re_reads"] > r["n"]
    assert live[2]["success"] and live[2]["model_calls"] < 2 * live[2]["n"]
    note = bench.binding_note([dict(r, size="large") for r in live])
    lost = note.split("plus 40): ", 1)[1].split(". (")[0]  # the runs that lost their notes
    assert f"{bench.BEST} 64 calls" in lost and bench.LIVE_BEST not in lost
