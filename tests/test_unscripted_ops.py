"""The unscripted stand-in varies lesson 9's searches and scripts (issue 24, item 4): other
patterns and phrases that still find the tool a step needs, scripts written another way
that still add up; the scripted model never varies them."""

from __future__ import annotations

import json

import pytest

import coursekit
from agentlib.loop import run_agent
from coursekit import workloads
from standin import opsagent, tooling


def searches_and_scripts(run) -> tuple:
    return tuple(json.dumps(b["input"], sort_keys=True) for m in run.transcript
                 if m["role"] == "assistant" and isinstance(m["content"], list)
                 for b in m["content"] if b.get("type") == "server_tool_use")


@pytest.mark.parametrize("step", sorted(opsagent.STEPS))
def test_every_way_to_search_finds_the_steps_tool(step):
    name, regex, words = opsagent.STEPS[step]
    other_regex, other_words = opsagent.OTHER_QUERIES[step]
    deferred = [t for t in workloads.ops(defer="regex").tools if t.get("defer_loading")]
    for kind, queries in (("tool_search_tool_regex", [regex, *other_regex]),
                          ("tool_search_tool_bm25", [words, *other_words])):
        for query in queries:
            found = [r["tool_name"] for r in tooling.search(kind, query, deferred)[
                "tool_references"]]
            assert name in found, f"{kind} {query!r} finds {found}, not {name}"


class Always:
    """An rng whose every choice is the option at `k` (one way of writing, forced)."""

    def __init__(self, k: int):
        self.k = k

    def choice(self, options):
        return options[min(self.k, len(options) - 1)]


def run_written(way: int, **options):
    """The scripted model on the ops workload, writing its script the `way`-th way."""
    with opsagent.styled(Always(way)):
        return run_agent(coursekit.connect(), workloads.ops(programmatic=True, **options),
                         max_steps=30)


@pytest.mark.parametrize("way", [0, 1, 2])
def test_every_way_to_write_the_invoices_script_adds_up(way):
    run = run_written(way, variant="invoices", n_invoices=5)
    assert run.score.success, run.answer
    (script,) = [json.loads(s)["code"] for s in searches_and_scripts(run)]
    first = run.transcript[0]["content"]
    task = first if isinstance(first, str) else " ".join(b.get("text", "") for b in first)
    assert script == opsagent.invoices_script(*opsagent.INVOICES_RE.search(task).groups(), way)


@pytest.mark.parametrize("way", [0, 1])
def test_every_way_to_write_the_reports_script_reads_them_all(way):
    run = run_written(way, variant="reports", n_reports=4)
    assert run.score.success, run.answer


def test_the_scripted_model_words_them_one_way_and_the_unscripted_several():
    cases = [dict(defer="regex"), dict(defer="bm25"),
             dict(variant="invoices", programmatic=True, n_invoices=5)]
    first = {q for _, regex, words in opsagent.STEPS.values() for q in (regex, words)}
    for c in cases[:2]:
        run = run_agent(coursekit.connect(), workloads.ops(**c), max_steps=30)
        assert {json.loads(s)["query"] for s in searches_and_scripts(run)} <= first
    varied = {str(c): set() for c in cases}
    for seed in (1, 2, 3):
        client = coursekit.connect(unscripted=True, seed=seed)
        for c in cases:
            run = run_agent(client, workloads.ops(**c), max_steps=30)
            assert run.score.success, (seed, c, run.stopped, run.answer)
            varied[str(c)].add(searches_and_scripts(run))
    assert all(len(ways) >= 2 for ways in varied.values()), varied
