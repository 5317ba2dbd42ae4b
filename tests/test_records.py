"""Dropped call records (agentlib.context.records) and the fold between text-only replies
(agentlib.context.textfold): histories the API accepts, the prefix they leave cached, the
back-off for an agent that needs its records, and the benchmark's `records` pipeline.

Property tests use the course's one history generator (tests/histories.py).
"""

import csv
import json

import pytest
from histories import agent_histories
from hypothesis import given
from hypothesis import strategies as st

import agentlib
from agentlib import cost, models
from agentlib.context import Clearing, Compactor, DropRecords, FoldTexts, cap, drop_records
from agentlib.context.breakpoints import MARK, Breakpoints
from agentlib.context.clear import is_cleared
from agentlib.context.records import old_pairs, pairs, text_end
from agentlib.context.textfold import head, text_cut
from agentlib.loop import run_agent
from agentlib.messages import SUMMARY_MARK, blocks, user, validate
from agentlib.tools import Toolbox
from coursekit import bench, workloads

SUMMARIZER = agentlib.connect(offline=True)


def frozen(messages):
    return json.dumps(messages, sort_keys=True)


def places(messages):
    return [(i, j) for i, m in enumerate(messages) for j, b in enumerate(blocks(m))
            if "cache_control" in b]


def texts(messages):
    return [(m["role"], b["text"]) for m in messages for b in blocks(m) if b.get("type") == "text"]


def typed_value(v):
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v


def audit(n, seed):
    w = workloads.audit(n, seed=seed)
    ws = w.workspace
    w.toolbox = Toolbox([ws.list_files, cap(ws.read_file, max_chars=1_500), ws.search])
    return w


# ---------------------------------------------------------------- drop_records


@given(agent_histories(), st.integers(0, 4))
def test_drop_records_property(history, keep):
    snapshot = frozen(history)
    out = drop_records(history, keep)
    validate(out)  # pairs go whole, empty messages go, the API merges same-role neighbours
    assert frozen(history) == snapshot
    assert texts(out) == texts(history)  # every text stays, in order
    before, after = pairs(history), pairs(out)
    gone, newest = old_pairs(history, keep)  # the newest turn's results stay, emptied at most
    assert len(after) == len(before) - len(gone) == min(keep, len(before)) + len(newest)
    given = {blocks(history[a])[b]["tool_use_id"]: blocks(history[a])[b] for (a, b), _ in before}
    newest = {blocks(history[a])[b]["tool_use_id"] for (a, b), _ in before[len(before) - keep:]
              } if keep else set()
    for (i, j), _ in after:  # the newest `keep` results verbatim, the newest turn's at most
        b = blocks(out[i])[j]  # emptied (a result shorter than the placeholder stays as it is)
        assert b == given[b["tool_use_id"]] or (b["tool_use_id"] not in newest and is_cleared(b))


@given(agent_histories(), st.integers(1, 3))
def test_mark_puts_at_most_two_breakpoints_before_the_pairs_kept(history, keep):
    drop = DropRecords(keep)
    kept = drop(history)
    out = drop.mark(kept)
    validate(out)
    marks = places(out)
    assert len(marks) <= 2  # + the system prompt's: 3 of the 4
    for i, j in marks:
        b = blocks(out[i])[j]
        assert b["cache_control"] == MARK and b.get("type") not in ("thinking", "tool_result")
    end = text_end(kept, keep)
    live = pairs(kept)[-keep:]
    if end is not None and live and live[0][1]:
        assert end in marks and end < live[0][1][:2]  # nothing that will change is cached


def test_the_same_reply_made_again_keeps_its_records_cleared():
    """An agent that keeps its state in its calls loses track when they go and makes the
    same reply again: from then on that reply's records stay, cleared."""
    def reply(k):
        return {"role": "assistant", "content": [
            {"type": "text", "text": "I'll read the log."},
            {"type": "tool_use", "id": f"toolu_{k}", "name": "read_file",
             "input": {"path": "incident.log"}}]}

    def result(k):
        return {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{k}", "content": "x " * 300}]}

    drop, history = DropRecords(1), [user("Read incident.log.")]
    for k in range(4):
        history = drop([*history, reply(k), result(k)])
        validate(history)
    assert len(drop.exclude) == 1
    assert len(pairs(history)) == 3  # the first went; then they stay: cleared, the newest whole
    assert all(blocks(history[i])[j]["content"].startswith("[cleared")
               for (i, j), _ in pairs(history)[:-1])


def test_drop_records_refuses_a_bad_keep():
    with pytest.raises(ValueError, match="keep"):
        DropRecords(-1)
    with pytest.raises(ValueError, match="keep"):
        drop_records([user("hi")], -1)


# ---------------------------------------------------------------- FoldTexts


def _texts_only(n):
    history = [user("Audit the configs whose `port` is above 100."),
               {"role": "assistant", "content": "Plan: check 3 files in order: a, b, c"}]
    history += [{"role": "assistant", "content": f"Noted [{k}/{n}] f{k}: fine " + "x " * 40}
                for k in range(1, n)]
    return history + [{"role": "assistant", "content": [
        {"type": "text", "text": "Next: f."},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "f"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "port = 1"}]}]


def test_fold_texts_cuts_where_a_plain_compactor_cannot():
    history = _texts_only(30)
    assert Compactor(SUMMARIZER, 500, margin=0, keep=4)(history) is history  # one turn
    fold = FoldTexts(SUMMARIZER, 500, at_least=500, margin=0, keep=4, pin=2)
    out = fold(history)
    validate(out)
    assert out[:2] == history[:2]  # the task and the plan, verbatim (their prefix cached)
    assert blocks(out[2])[0]["text"].startswith(SUMMARY_MARK) and out[3:] == history[-4:]
    assert "Noted [20/30] f20" in blocks(out[2])[0]["text"]
    more = fold([*out[:-2], *_texts_only(30)[2:]])  # the next fold keeps the first summary
    assert more[:3] == out[:3] and blocks(more[3])[0]["text"].startswith(SUMMARY_MARK)
    assert head(more, 2) == 4


@given(agent_histories(max_steps=6), st.integers(1, 6), st.integers(0, 3))
def test_fold_texts_property(history, keep, pin):
    snapshot = frozen(history)
    dropped = drop_records(history, 1)
    fold = FoldTexts(SUMMARIZER, 0, at_least=0, margin=0, keep=keep, pin=pin)
    out = fold(dropped)
    validate(out)
    assert frozen(history) == snapshot
    if out is not dropped:
        start, cut = head(dropped, pin), text_cut(dropped, keep)
        assert out[:start] == dropped[:start] and out[start + 1:] == dropped[cut:]
        assert blocks(out[start])[0]["text"].startswith(SUMMARY_MARK)


def test_fold_texts_refuses_a_bad_pin():
    with pytest.raises(ValueError, match="pin"):
        FoldTexts(SUMMARIZER, 1_000, at_least=0, pin=-1)


# ---------------------------------------------------------------- measured offline


def test_dropped_records_write_each_text_once_and_cost_less_than_clearing():
    """Through the offline API, same audit: with the records dropped and the texts marked,
    the cache writes are about the texts alone, and the bill is below clearing's."""
    drop = DropRecords(1)
    records = run_agent(agentlib.connect(offline=True), audit(40, 3), context=[drop],
                        max_steps=200, max_tokens=1024, cache=drop.mark)
    cleared = run_agent(agentlib.connect(offline=True), audit(40, 3), context=[Clearing(1)],
                        max_steps=200, max_tokens=1024, cache=Breakpoints(newest=False))
    assert records.score.success and cleared.score.success
    written = sum(s.cache_write for s in records.steps)
    assert written < 0.6 * sum(s.cache_write for s in cleared.steps)
    assert cost.cost(records) < cost.cost(cleared)
    assert cost.cost(records) < 1.10 * cost.floor(records)


def test_an_agent_that_keeps_its_state_in_its_calls_still_finishes():
    row = bench.measure("needle", "small", bench.RECORDS)
    assert row["success"] and row["model_calls"] <= 10


def test_the_saved_benchmark_is_what_the_records_pipeline_measures():
    """The 200-file audit: the `records` row the benchmark saved is what the code measures
    now, and it meets its bars (within 10% of its own floor, input and peak at most 0.10x,
    cost at most 0.31x append-only; at most 0.35x on every held-out seed saved)."""
    with open(bench.RESULTS / "results.csv", encoding="utf-8", newline="") as f:
        saved = list(csv.DictReader(f))
    row = bench.measure("audit", "large", bench.RECORDS)
    mine = next(r for r in saved if (r.get("model"), r["workload"], r["size"], r["strategy"])
                == (models.OFFLINE_MODEL, "audit", "large", bench.RECORDS))
    assert {k: str(v) for k, v in row.items()} == {k: mine[k] for k in row}
    assert float(mine["cost_to_floor"]) <= bench.BARS["audit-large-records"]["floor"]
    typed = [{k: typed_value(v) for k, v in r.items()} for r in saved]  # as lesson 7 reads it
    lines = [line for line in bench.check_bars(typed) if bench.RECORDS in line]
    assert len(lines) >= 5 and all(line.startswith("ok") for line in lines), lines
