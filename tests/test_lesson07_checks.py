"""Lesson 07's checks pass the right answers and fail the known wrong ones.

Each wrong implementation is a mistake a learner makes; the test names the check that
must catch it (and that every other check of the exercise still runs without crashing).
"""

import pytest
from checktools import statuses, title

from agentlib.context.breakpoints import Breakpoints
from agentlib.context.cap import cap
from agentlib.context.clear import Clearing
from agentlib.context.compact import FREE_FORM_PROMPT, Compactor
from agentlib.context.lowwater import LowWaterCompactor
from agentlib.context.truncate import SlidingWindow
from agentlib.tools import Toolbox
from classroom.checks import lesson07
from classroom.grading import run_checks

# ---------------------------------------------------------------- ex7.run_cost


def _right_cost(steps, prices):
    total = 0.0
    for s in steps:
        fresh = s.input_tokens - s.cache_read - s.cache_write
        total += (fresh * prices["input"] + s.cache_read * prices["cache_read"]
                  + s.cache_write * prices["cache_write"] + s.output_tokens * prices["output"])
    return total / 1_000_000


def test_run_cost_right_answer_passes():
    assert set(statuses("ex7.run_cost", run_cost=_right_cost).values()) == {"pass"}


def _no_cache(steps, prices):
    return sum(s.input_tokens * prices["input"] + s.output_tokens * prices["output"]
               for s in steps) / 1e6


def _twice(steps, prices):
    return sum(s.input_tokens * prices["input"] + s.cache_read * prices["cache_read"]
               + s.cache_write * prices["cache_write"] + s.output_tokens * prices["output"]
               for s in steps) / 1e6


def _writes_as_reads(steps, prices):
    return sum((s.input_tokens - s.cache_read - s.cache_write) * prices["input"]
               + (s.cache_read + s.cache_write) * prices["cache_read"]
               + s.output_tokens * prices["output"] for s in steps) / 1e6


def _fixed_prices(steps, prices):
    return _right_cost(steps, {"input": 3.0, "output": 15.0, "cache_write": 3.75,
                               "cache_read": 0.3})


def _per_thousand(steps, prices):
    return _right_cost(steps, prices) * 1000


def _no_output(steps, prices):
    return _right_cost(steps, {**prices, "output": 0.0})


@pytest.mark.parametrize("wrong, start", [
    (_no_cache, "cache reads are part of input_tokens"),
    (_no_cache, "agrees with coursekit.bench.cost"),
    (_twice, "cache reads are part of input_tokens"),
    (_twice, "cache writes are billed"),
    (_writes_as_reads, "cache writes are billed"),
    (_fixed_prices, "uses the prices it is given"),
    (_per_thousand, "bills uncached input"),
    (_no_output, "bills uncached input"),
])
def test_run_cost_known_mistakes_fail(wrong, start):
    got = statuses("ex7.run_cost", run_cost=wrong)
    assert got[title("ex7.run_cost", start)] == "fail", got


# ---------------------------------------------------------------- ex7.choose_strategy


def _right_choose(rows, *, max_peak, cached=True):
    column = "cost_usd" if cached else "cost_no_cache_usd"
    best = None
    for r in rows:
        if r["success"] == 1 and r["peak_window"] <= max_peak:
            if best is None or r[column] < best[column]:
                best = r
    return best["strategy"] if best else None


def test_choose_right_answer_passes():
    assert set(statuses("ex7.choose_strategy", choose_strategy=_right_choose).values()) \
        == {"pass"}


def _cheapest_any(rows, *, max_peak, cached=True):
    column = "cost_usd" if cached else "cost_no_cache_usd"
    fits = [r for r in rows if r["peak_window"] <= max_peak]
    return min(fits, key=lambda r: r[column])["strategy"] if fits else None


def _ignores_peak(rows, *, max_peak, cached=True):
    return _right_choose(rows, max_peak=10**12, cached=cached)


def _always_cached(rows, *, max_peak, cached=True):
    return _right_choose(rows, max_peak=max_peak)


def _last_on_tie(rows, *, max_peak, cached=True):
    column = "cost_usd" if cached else "cost_no_cache_usd"
    ok = [r for r in rows if r["success"] == 1 and r["peak_window"] <= max_peak]
    return min(reversed(ok), key=lambda r: r[column])["strategy"] if ok else None


def _strict_peak(rows, *, max_peak, cached=True):
    return _right_choose(rows, max_peak=max_peak - 1, cached=cached)


def _empty_string(rows, *, max_peak, cached=True):
    return _right_choose(rows, max_peak=max_peak, cached=cached) or ""


def _fewest_tokens_not_dollars(rows, *, max_peak, cached=True):
    ok = [r for r in rows if r["success"] == 1 and r["peak_window"] <= max_peak]
    return min(ok, key=lambda r: r["peak_window"])["strategy"] if ok else None


@pytest.mark.parametrize("wrong, start", [
    (_cheapest_any, "never picks a strategy that failed"),
    (_ignores_peak, "never picks a strategy whose peak"),
    (_strict_peak, "never picks a strategy whose peak"),
    (_always_cached, "compares the cost the caller asks for"),
    (_last_on_tie, "on a tie keeps the earlier"),
    (_empty_string, "on a tie keeps the earlier"),
    (_fewest_tokens_not_dollars, "never picks a strategy that failed"),
])
def test_choose_known_mistakes_fail(wrong, start):
    got = statuses("ex7.choose_strategy", choose_strategy=wrong)
    assert got[title("ex7.choose_strategy", start)] == "fail", got


# ---------------------------------------------------------------- ex7.pipeline


def _capped(workload, chars=1_500):
    ws = workload.workspace
    return Toolbox([ws.list_files, cap(ws.read_file, max_chars=chars), ws.search])


def _right_pipeline(client, workload, notes_dir):
    return {"toolbox": _capped(workload),
            "context": [Clearing(1), LowWaterCompactor(client, 8_000, at_least=5_000, keep=4)],
            "cache": Breakpoints(newest=False)}


def test_pipeline_right_answer_passes(capsys):
    assert set(statuses("ex7.pipeline", pipeline=_right_pipeline).values()) == {"pass"}
    printed = capsys.readouterr().out
    assert "22 of 22 found" in printed and "of append-only's" in printed  # the report line
    assert "cached =" in printed


def test_pipeline_without_cap_also_passes():
    def pipeline(client, workload, notes_dir):  # clearing after one read meets this budget too
        return {"context": [Clearing(1)], "cache": Breakpoints(newest=False)}

    assert set(statuses("ex7.pipeline", pipeline=pipeline).values()) == {"pass"}


def _old_pipeline(client, workload, notes_dir):  # the lesson's first pipeline: tokens, not dollars
    return {"toolbox": _capped(workload),
            "context": [Clearing(3, trigger=5_000),
                        Compactor(client, 8_000, keep=6, summary_max_tokens=4_096)]}


def _breakpoints_but_newest_cached_and_late_clears(client, workload, notes_dir):
    return {"toolbox": _capped(workload),
            "context": [Clearing(3, trigger=5_000, clear_at_least=2_000)],
            "cache": Breakpoints()}


def _no_cache(client, workload, notes_dir):
    return {**_right_pipeline(client, workload, notes_dir), "cache": False}


def _bad_cache(client, workload, notes_dir):
    return {**_right_pipeline(client, workload, notes_dir), "cache": "yes"}


def _append_only(client, workload, notes_dir):
    return {}


def _cap_only(client, workload, notes_dir):
    return {"toolbox": _capped(workload)}


def _truncate(client, workload, notes_dir):
    return {"context": [SlidingWindow(12)]}


def _free_form(client, workload, notes_dir):
    return {"context": [Compactor(client, 7_000, keep=6, prompt=FREE_FORM_PROMPT)]}


def _late_clearing(client, workload, notes_dir):  # within the window, over the budget
    return {"toolbox": _capped(workload), "context": [Clearing(3, trigger=12_000)]}


def _lazy_clearing(client, workload, notes_dir):  # within the peak, too many tokens in all
    return {"toolbox": _capped(workload), "context": [Clearing(3, trigger=9_000)]}


def _foreign_client(client, workload, notes_dir):
    from coursekit import connect

    return {"context": [Compactor(connect(offline=True), 7_000)]}


def _returns_list(client, workload, notes_dir):
    return [Clearing(3, trigger=5_000)]


def _raises(client, workload, notes_dir):
    raise KeyError("threshold")


def _strategy_raises(client, workload, notes_dir):
    def broken(messages):
        raise ValueError("a strategy bug")
    return {"context": [broken]}


def _bad_key(client, workload, notes_dir):
    return {"strategies": [Clearing(3, trigger=5_000)]}


@pytest.mark.parametrize("wrong, start", [
    (_append_only, "answers audit"),
    (_cap_only, "answers audit"),
    (_cap_only, "keeps every request within"),
    (_truncate, "still finds every service"),
    (_free_form, "still finds every service"),
    (_late_clearing, "keeps every request within"),
    (_lazy_clearing, "sends at most"),
    (_foreign_client, "returns a pipeline"),
    (_returns_list, "returns a pipeline"),
    (_raises, "returns a pipeline"),
    (_strategy_raises, "returns a pipeline"),
    (_bad_key, "returns a pipeline"),
    (_old_pipeline, "costs at most"),
    (_breakpoints_but_newest_cached_and_late_clears, "costs at most"),
    (_no_cache, "costs at most"),
    (_bad_cache, "returns a pipeline"),
])
def test_pipeline_known_mistakes_fail(wrong, start):
    got = statuses("ex7.pipeline", pipeline=wrong)
    assert got[title("ex7.pipeline", start)] == "fail", got
    assert "error" not in got.values(), got  # learner code raising is a FAIL, not a crash


def test_pipeline_meets_only_part_of_the_budget():
    old = statuses("ex7.pipeline", pipeline=_old_pipeline)  # every token bar, not the dollars
    assert [k for k, v in old.items() if v != "pass"] == [title("ex7.pipeline", "costs at most")]
    late = statuses("ex7.pipeline", pipeline=_late_clearing)
    assert late[title("ex7.pipeline", "still finds every service")] == "pass", late
    lazy = statuses("ex7.pipeline", pipeline=_lazy_clearing)
    assert lazy[title("ex7.pipeline", "keeps every request within")] == "pass", lazy
    assert lazy[title("ex7.pipeline", "still finds every service")] == "pass", lazy


def test_pipeline_error_message_names_what_raised():
    results = run_checks("ex7.pipeline", {"pipeline": _raises})
    assert all("raised KeyError: 'threshold'" in r.detail for r in results), results
    results = run_checks("ex7.pipeline", {"pipeline": _strategy_raises})
    assert "ValueError: a strategy bug" in results[0].detail


def test_pipeline_is_run_once_per_check_call(monkeypatch):
    calls = []

    def pipeline(client, workload, notes_dir):
        calls.append(1)
        return _right_pipeline(client, workload, notes_dir)

    run_checks("ex7.pipeline", {"pipeline": pipeline})
    run_checks("ex7.pipeline", {"pipeline": pipeline})
    assert len(calls) == 2  # each run of the exercise's checks measures the pipeline anew


def test_report_line_is_stable():
    trial = lesson07._trial(_right_pipeline)
    line = lesson07.report(trial)
    assert line.startswith("audit(40) in a 16,000-token window: answered")
    assert line == lesson07.report(lesson07._trial(_right_pipeline))
