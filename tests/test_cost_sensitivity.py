"""The bill re-priced (lesson 7's sensitivity table): cache reads at another multiple of the
input price (`read_x`), a cache that expires between slow steps (`ttl`, `gap`); the
defaults give the catalog's bill unchanged."""

from __future__ import annotations

import pytest

from agentlib import connect, cost, models
from agentlib.loop import run_agent
from coursekit import workloads


@pytest.fixture(scope="module")
def run():
    return run_agent(connect(), workloads.audit(8), max_steps=40, cache=True)


def test_expired_marks_only_the_requests_after_a_long_gap():
    assert cost.expired(4, None, 999) == [False] * 4
    assert cost.expired(4, 300, 30) == [False] * 4
    assert cost.expired(4, 300, 360) == [False, True, True, True]  # the first has no one before
    assert cost.expired(4, 300, [0, 30, 400, 10]) == [False, False, True, False]


def test_the_defaults_are_the_catalogs_bill(run):
    p = models.prices(models.OFFLINE_MODEL)
    same = cost.bill(run, read_x=p.cache_read / p.input, ttl=300, gap=30)
    assert same == cost.bill(run) and cost.cost(run, read_x=None) == cost.bill(run).total


def test_reads_at_twice_the_multiple_cost_twice_as_much(run):
    p = models.prices(models.OFFLINE_MODEL)
    base, dearer = cost.bill(run), cost.bill(run, read_x=2 * p.cache_read / p.input)
    assert base.cache_read > 0
    assert dearer.cache_read == pytest.approx(2 * base.cache_read)
    assert (dearer.input, dearer.cache_write_5m, dearer.output) == \
        (base.input, base.cache_write_5m, base.output)
    assert cost.break_even(1_000, 5_000, read_x=2 * p.cache_read / p.input) < \
        cost.break_even(1_000, 5_000)
    assert cost.floor(run, read_x=2 * p.cache_read / p.input) > cost.floor(run)


def test_an_expired_cache_writes_what_it_would_have_read(run):
    base = cost.bill(run)
    slow = cost.bill(run, ttl=300, gap=360)
    first_read = run.steps[0].cache_read
    p = models.prices(models.OFFLINE_MODEL)
    assert slow.cache_read == pytest.approx(first_read * p.cache_read / 1e6)
    moved = sum(s.cache_read for s in run.steps[1:])
    assert slow.cache_write_5m - base.cache_write_5m == pytest.approx(
        moved * p.cache_write_5m / 1e6, rel=1e-9)
    assert slow.total > base.total
