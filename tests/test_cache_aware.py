"""The cache-aware pieces: the bill (agentlib.cost), batch clearing, breakpoints after the
stable part, the low-water compactor, head+tail caps, and the benchmark's bars.

Property tests use the course's one history generator (tests/histories.py): every new
strategy returns a history the API accepts and never mutates its input.
"""

import json
from types import SimpleNamespace

import pytest
from histories import agent_histories
from hypothesis import given
from hypothesis import strategies as st

import agentlib
import coursekit
from agentlib import cost, models, tokens
from agentlib.context import Clearing, cap
from agentlib.context.batch import BatchClearing
from agentlib.context.breakpoints import MARK, Breakpoints, stable_end
from agentlib.context.clear import PLACEHOLDER, clear_tool_results, is_cleared
from agentlib.context.headtail import head_tail_lines, head_tail_text
from agentlib.context.lowwater import LowWaterCompactor
from agentlib.loop import Step, run_agent
from agentlib.messages import blocks, validate
from agentlib.tools import Toolbox
from agentlib.workspace import parse_notice
from coursekit import bench, workloads

SUMMARIZER = agentlib.connect(offline=True)


def frozen(messages):
    return json.dumps(messages, sort_keys=True)


def places(messages):
    return [(i, j) for i, m in enumerate(messages) for j, b in enumerate(blocks(m))
            if "cache_control" in b]


def unmarked(messages):
    return [{**m, "content": [{k: v for k, v in b.items() if k != "cache_control"}
                              for b in blocks(m)]} for m in messages]


# ---------------------------------------------------------------- Breakpoints


@given(agent_histories(), st.integers(0, 6), st.booleans(), st.sampled_from([None, 0, 1, 3]))
def test_breakpoints_property(history, keep, newest, server_keep):
    snapshot = frozen(history)
    cleared = clear_tool_results(history, keep)
    out = Breakpoints(newest=newest, keep=server_keep)(cleared)
    validate(out)
    assert frozen(history) == snapshot  # input never mutated, nor the cleared copy's base
    assert "cache_control" not in json.dumps(cleared)
    assert unmarked(out) == unmarked(cleared)  # only marks added
    marks = places(out)
    assert 1 <= len(marks) <= 3 if cleared else marks == []  # + the system prompt's: 4
    for i, j in marks:
        b = blocks(out[i])[j]
        assert b["cache_control"] == MARK and b.get("type") != "thinking"
    if server_keep is None and marks:  # the stable part holds no result still to clear
        end = stable_end(cleared)
        assert end in marks
        assert all(is_cleared(b) for m in cleared[:end[0]] for b in blocks(m)
                   if b.get("type") == "tool_result")


@given(st.lists(agent_histories(max_steps=5), min_size=2, max_size=5), st.integers(1, 3))
def test_breakpoints_mark_the_old_stable_end_again_after_a_clear(pieces, keep):
    """Over a growing, cleared run: the stable end marked on the step before is marked again
    (so the cache finds the prefix it wrote), and the marks never exceed 3."""
    marks, clearing, history, before = Breakpoints(newest=False), Clearing(keep), [], None
    for piece in pieces:
        grows = bool(history) and history[-1]["role"] != piece[0]["role"]
        if not grows:  # a new run in its place, not the same run grown: nothing to find again
            before = None
        history = history + piece if grows else piece
        history = clearing(history)
        out = marks(history)
        validate(out)
        placed = places(out)
        assert len(placed) <= 3
        # the prefix the cache wrote, up to the old stable end, is still there (a clear of an
        # older result changes it, and then there is nothing to find again)
        if before is not None and history[:before[0] + 1] == before[1]:
            assert before[2] in placed
        end = stable_end(history)
        before = (end[0], history[:end[0] + 1], end) if end else None


def test_breakpoints_keep_the_prefix_a_clear_leaves_cached():
    """Measured through the offline API: clearing every step with the stable end marked
    reads the cleared prefix from the cache; with only the newest block marked it does not."""
    def run(cache):
        w = workloads.audit(30, seed=5)
        ws = w.workspace
        w.toolbox = Toolbox([ws.list_files, cap(ws.read_file, max_chars=1_500), ws.search])
        return run_agent(agentlib.connect(offline=True), w, context=[Clearing(1)],
                         max_steps=160, max_tokens=1024, cache=cache)

    plain, stable = run(True), run(Breakpoints(newest=False))
    assert plain.score.success and stable.score.success
    assert [s.input_tokens for s in plain.steps] == [s.input_tokens for s in stable.steps]
    late = slice(20, None)  # once the notes are over the minimum cacheable prefix
    assert sum(s.cache_read for s in stable.steps[late]) > \
        5 * sum(s.cache_read for s in plain.steps[late])
    assert cost.cost(stable) < 0.6 * cost.cost(plain)


def test_breakpoints_refuse_a_bad_keep():
    with pytest.raises(ValueError, match="keep"):
        Breakpoints(keep=-1)


# ---------------------------------------------------------------- BatchClearing


@given(agent_histories(), st.integers(0, 4), st.integers(0, 3_000), st.integers(0, 3_000),
       st.sampled_from([None, 0, 500, 10**6]))
def test_batch_clearing_property(history, keep, trigger, down_to, at_least):
    down_to = min(down_to, trigger)
    snapshot = frozen(history)
    strategy = BatchClearing(keep, trigger=trigger, down_to=down_to, clear_at_least=at_least)
    out = strategy(history)
    validate(out)
    assert frozen(history) == snapshot
    assert len(out) == len(history)  # emptied, never deleted
    before, after = tokens.count(history), tokens.count(out)
    assert after <= before
    if before <= trigger:
        assert out == history
    results = [(i, j) for i, m in enumerate(history) for j, b in enumerate(blocks(m))
               if b.get("type") == "tool_result"]
    for i, j in results[len(results) - keep:] if keep else []:  # the newest `keep` stay
        assert blocks(out[i])[j] == blocks(history[i])[j]
    changed = [(i, j) for i, j in results if blocks(out[i])[j] != blocks(history[i])[j]]
    if changed:  # oldest first, at least clear_at_least, and no further than needed
        assert changed == results[:len(changed)] or all(
            is_cleared(blocks(history[i])[j]) or blocks(out[i])[j] == blocks(history[i])[j]
            for i, j in results[:results.index(changed[-1])] if (i, j) not in changed)
        assert before - after >= (at_least or 0)
        last = changed[-1]
        without_last = tokens.count(history) - (
            before - after - (tokens.count(blocks(history[last[0]])[last[1]])
                              - tokens.count({**blocks(history[last[0]])[last[1]],
                                              "content": PLACEHOLDER})))
        assert without_last > down_to or len(changed) == 1


def test_batch_clearing_moves_between_its_two_marks():
    """On a growing run: no clear while the history is at most `trigger`; each clear brings
    it down to `down_to` (or to the newest `keep` results, if that is as far as it goes)."""
    from coursekit.histories import agent_history

    run = agent_history("batch", 80, parallel=1, lines=(20, 30), answer=0, text_rate=0,
                        error_rate=0)
    batch, kept, clears = BatchClearing(1, trigger=4_000, down_to=1_500), [], 0
    for k in range(1, len(run), 2):
        grown = kept + run[len(kept):k] if kept else run[:k]
        before = tokens.count(grown)
        kept = batch(grown)
        if batch.event:
            clears += 1
            uncleared = [b for m in kept for b in blocks(m)
                         if b.get("type") == "tool_result" and not is_cleared(b)]
            assert before > 4_000 and (tokens.count(kept) <= 1_500 or len(uncleared) == 1)
        else:
            assert before <= 4_000 or tokens.count(kept) == before
    assert clears >= 5


def test_batch_clearing_refuses_bad_marks():
    with pytest.raises(ValueError, match="down_to"):
        BatchClearing(trigger=1_000, down_to=2_000)
    with pytest.raises(ValueError, match="trigger"):
        BatchClearing(trigger={"type": "tool_uses", "value": 3})


# ---------------------------------------------------------------- LowWaterCompactor


@given(agent_histories(), st.integers(1, 8), st.integers(0, 3_000), st.integers(0, 3_000))
def test_low_water_compactor_property(history, keep, trigger, at_least):
    snapshot = frozen(history)
    compactor = LowWaterCompactor(SUMMARIZER, trigger, at_least=at_least, margin=0, keep=keep)
    out = compactor(history)
    validate(out)
    assert frozen(history) == snapshot
    assert out[-1] == history[-1]
    if out is not history:  # folded: recent turns verbatim, and only when far enough up
        kept = out[1:]
        assert kept == history[len(history) - len(kept):]
        assert compactor.compactions[0].tokens_before >= at_least
    second = compactor(out)  # right after a fold it is at its low-water mark: no new fold
    if compactor.compactions and at_least > 0:
        assert second is out


def test_low_water_compactor_folds_less_often_than_a_plain_one():
    from agentlib.context import Compactor

    def run(compactor):
        w = workloads.audit(80, seed=7)
        ws = w.workspace
        w.toolbox = Toolbox([ws.list_files, cap(ws.read_file, max_chars=1_500), ws.search])
        client = coursekit.connect(offline=True, context_window=16_000)
        r = run_agent(client, w, context=[Clearing(1), compactor(client)], max_steps=360,
                      max_tokens=1024, cache=Breakpoints(newest=False))
        return r, len(r.history)

    plain, _ = run(lambda c: Compactor(c, 5_000, keep=4, summary_max_tokens=8_192))
    low, _ = run(lambda c: LowWaterCompactor(c, 5_000, at_least=3_500, keep=4,
                                             summary_max_tokens=8_192))
    folds = [sum("compacted" in e for s in r.steps for e in s.events) for r in (plain, low)]
    assert plain.score.success and low.score.success
    assert folds[1] < folds[0]


# ---------------------------------------------------------------- head + tail


@given(st.integers(5, 400), st.integers(300, 4_000), st.integers(0, 50))
def test_head_tail_lines_property(n, max_chars, offset):
    """Within the budget; whole lines from the start and the end, in order, around a notice
    that names the first line left out, as the course model reads notices."""
    from standin.agent import parse_notice as model_reads

    text = "".join(f"line {k}: {'x' * (k % 37)}\n" for k in range(offset, offset + n))
    out = head_tail_lines(text, "a.log", offset, max_chars)
    if len(text) <= max_chars:
        assert out == text
        return
    assert len(out) <= max_chars
    if "lines not shown (lines" in out:
        head, rest = out.split("[truncated:", 1)
        tail = rest.split("]\n", 1)[1]
        assert text.startswith(head) and text.endswith(tail) and head and tail
        assert model_reads(out) == ("a.log", offset + head.count("\n"))


def test_head_tail_shows_the_needle_at_the_end_and_the_model_answers():
    needle = workloads.needle(400)
    ws = needle.workspace
    page = cap(ws.read_file, max_chars=3_000, tail=True)("incident.log")
    assert "root cause confirmed" in page and len(page) <= 3_000
    needle.toolbox = Toolbox([ws.list_files, cap(ws.read_file, max_chars=3_000, tail=True)])
    run = run_agent(coursekit.connect(offline=True, context_window=8_000), needle,
                    max_tokens=512)
    assert run.score.success and run.calls == 2


def test_head_tail_text_and_its_errors():
    assert head_tail_text("short", 100) == "short"
    out = head_tail_text("a" * 500 + "b" * 500, 400)
    assert out.startswith("a") and out.endswith("b") and len(out) <= 400
    with pytest.raises(ValueError, match="tail=True"):
        cap(len, max_tokens=100, tail=True)


def test_a_read_the_tool_paged_keeps_its_head_only():
    needle = workloads.needle(400)
    page = needle.workspace.read_file("incident.log", 0, 200)
    out = head_tail_lines(page, "incident.log", 0, 2_000)
    assert parse_notice(out)[1] < 200 and "not shown (lines" not in out


# ---------------------------------------------------------------- the bill


def test_bill_prices_every_kind_of_token():
    p = models.prices(models.OFFLINE_MODEL)
    steps = [Step(0, input_tokens=10_000, output_tokens=200, cache_read=6_000,
                  cache_write=3_000, cache_write_1h=1_000, compaction_tokens=(4_000, 300))]
    run = SimpleNamespace(steps=steps)
    b = cost.bill(run, summaries=(2_000, 100))
    assert b.input == pytest.approx(1_000 * p.input / 1e6)
    assert b.cache_write_5m == pytest.approx(2_000 * p.cache_write_5m / 1e6)
    assert b.cache_write_1h == pytest.approx(1_000 * p.cache_write_1h / 1e6)
    assert b.cache_read == pytest.approx(6_000 * p.cache_read / 1e6)
    assert b.output == pytest.approx(200 * p.output / 1e6)
    assert b.compaction == pytest.approx((4_000 * p.input + 300 * p.output) / 1e6)
    assert b.summaries == pytest.approx((2_000 * p.input + 100 * p.output) / 1e6)
    assert b.total == pytest.approx(sum(vars(b).values()))
    assert cost.bill(run, cached=False).input == pytest.approx(10_000 * p.input / 1e6)


def test_bill_uses_the_long_prompt_band():
    row = models.get("claude-haiku-5-5")
    big = SimpleNamespace(steps=[Step(0, input_tokens=row.long_prompt[0] + 1)])
    small = SimpleNamespace(steps=[Step(0, input_tokens=row.long_prompt[0])])
    assert cost.bill(big, model=row.id).input > cost.bill(small, model=row.id).input * 4


def test_the_bench_bills_with_agentlib_cost():
    assert bench.cost is cost.cost


def test_floor_is_below_every_run_of_the_same_work():
    w = workloads.audit(12)
    for context, cache in (([], True), ([Clearing(1)], Breakpoints(newest=False))):
        run = run_agent(agentlib.connect(offline=True), w, context=context, cache=cache)
        assert 0 < cost.floor(run) <= cost.cost(run)


def test_break_even():
    p = models.prices(models.OFFLINE_MODEL)
    steps = cost.break_even(1_000, 8_000)
    assert steps == pytest.approx(8_000 * (p.cache_write_5m - p.cache_read) /
                                  (1_000 * p.cache_read))
    assert cost.break_even(0, 100) == float("inf")


# ---------------------------------------------------------------- the benchmark


def test_strategies_build_from_lesson_8s_settings():
    pipeline = {"window": 24_000, "cap_chars": 1_500, "clear_at": 5_000, "compact_at": 8_000,
                "keep": 12}  # no fold_at: it defaults to compact_at
    setups = bench.strategies(pipeline, agentlib.connect(offline=True), ".")
    assert bench.BEST in setups and isinstance(setups[bench.BEST].cache, Breakpoints)


def test_held_out_is_drawn_outside_the_lessons_seeds():
    seed, n = bench.held_out("1234")
    assert (seed, n) == bench.held_out("1234") and bench.HELD_OUT[0] <= n <= bench.HELD_OUT[1]
    drawn = {bench.held_out()[0] for _ in range(5)}
    assert min(drawn) >= 1_000 and len(drawn) > 1


def _row(workload, size, strategy, success=1, **ratios):
    return {"workload": workload, "size": size, "strategy": strategy, "success": success,
            **{f"{k}_ratio": v for k, v in ratios.items()}}


def test_check_bars_passes_and_fails():
    good = [_row("audit", "large", bench.BEST, cost_usd=0.4, peak_window=0.08,
                 input_tokens=0.12),
            _row("needle", "large", "cap", input_tokens=0.1),
            _row("audit", "held-out", bench.BEST, cost_usd=0.5)]
    assert all(line.startswith("ok") for line in bench.check_bars(good))
    assert len(bench.check_bars(good)) == 5
    bad = [dict(good[0], cost_usd_ratio=0.51), dict(good[1], success=0), good[2]]
    lines = bench.check_bars(bad)
    assert sum(line.startswith("FAILS") for line in lines) == 2


def test_the_best_pipeline_beats_append_only_on_the_small_audit():
    rows = bench.add_ratios([bench.measure("audit", "small", k)
                             for k in ("append-only", bench.BEST)])
    best = rows[1]
    assert best["success"] and best["peak_window_ratio"] < 0.5
    assert best["cost_floor_usd"] <= best["cost_usd"]


def test_one_hour_writes_are_recorded_and_billed_at_their_price():
    """run_agent(cache=callable) sends what the callable marks; the loop records the
    1-hour part of the cache writes, and the bill prices it at the 1-hour rate."""
    def hour(messages):
        last = messages[-1]
        content = blocks(last)
        return [*messages[:-1], {**last, "content": [
            *content[:-1], {**content[-1], "cache_control": {"type": "ephemeral", "ttl": "1h"}}]}]

    w = workloads.audit(6, seed=2)
    run = run_agent(agentlib.connect(offline=True), w, cache=hour, system=None)
    written = sum(s.cache_write_1h for s in run.steps)
    assert written > 0 and written == sum(s.cache_write for s in run.steps)
    p = models.prices(models.OFFLINE_MODEL)
    assert cost.bill(run).cache_write_1h == pytest.approx(written * p.cache_write_1h / 1e6)
    assert cost.bill(run).cache_write_5m == 0
