"""The unscripted stand-in, the test double for live mode: it varies what a real model may
vary (wording, Markdown answers, pace, the order of independent calls, 529s, thinking),
deterministically from its seed, and its runs still finish most of the time."""

import random
import re

import pytest

import agentlib
import coursekit
from agentlib import models
from agentlib.context import NOTES_RULES, STRUCTURED_PROMPT, Compactor, Notes
from agentlib.delegate import LEAD_RULES, Team
from agentlib.loop import DEFAULT_SYSTEM, run_agent
from agentlib.messages import blocks
from agentlib.tools import Toolbox
from coursekit import workloads
from standin import voice

SEEDS = range(10)
PLAIN = models.OFFLINE_MODEL  # no thinking: every word the model wrote is visible


def unscripted(seed, **kw):
    return coursekit.connect(offline=True, unscripted=True, seed=seed, **kw)


def texts(run) -> str:
    return "\n".join(b.get("text", "") for m in run.transcript if m["role"] == "assistant"
                     for b in blocks(m))


SAMPLE = {"k": "3", "n": "13", "v": "90", "t": "30", "offset": "120", "calls": "7",
          "path": "services/eu-west/email.conf", "defaults": "services/_defaults.conf",
          "name": "email", "key": "timeout_s", "folder": "services/", "ext": ".conf",
          "names": "_defaults, auth, email", "x": "DISK-FULL", "model": "Aero 14",
          "price": "1,300", "ram": "32", "rating": "4.5",
          "said": "budget at most $1,400; RAM at least 32 GB", "rest": " More text.",
          "why": "it fits your limits", "what": "the Aero 14", "count": "3"}


@pytest.mark.parametrize("kind", range(len(voice.KINDS)))
def test_every_wording_that_carries_a_fact_reads_back_as_the_scripted_line(kind):
    canonical, variants = voice.KINDS[kind]
    line = canonical.say(SAMPLE)
    for form in variants:
        said = form.say(SAMPLE)
        assert said != line and not said.startswith(("Noted [", "Plan: check"))
        assert voice.read_back(said) == line, (said, line)
        assert voice.read_back("ASSISTANT: " + said) == "ASSISTANT: " + line
    assert voice.read_back(line) == line  # the scripted words are left as they are


def test_answers_are_said_in_markdown_and_sub_agents_results_read_back():
    rng = random.Random(0)
    shapes = {voice.say("Answer:\nemail: 90\nmedia: 40", rng) for _ in range(40)}
    assert len(shapes) >= 6 and not any(s.startswith("Answer:\n") for s in shapes)
    for _ in range(20):
        said = voice.say("email: 90\nmedia: 40", rng)  # a sub-agent's result
        assert voice.read_back(said).split("\n")[-2:] == ["email: 90", "media: 40"], said


def test_the_seed_decides_everything():
    w = workloads.audit(12)
    one, again = (run_agent(unscripted(3), w) for _ in range(2))
    assert one.history == again.history
    histories = {repr(run_agent(unscripted(s), w).history) for s in (0, 1, 2)}
    assert len(histories) == 3


@pytest.fixture(scope="module")
def runs():
    """Each workload at today's sizes, ten seeds, the default (thinking) model."""
    out = {}
    for name, make in (("audit", lambda: workloads.audit(12)),
                       ("needle", lambda: workloads.needle(400)),
                       ("constraints", workloads.constraints)):
        out[name] = []
        for seed in SEEDS:
            client = unscripted(seed)
            out[name].append((run_agent(client, make()), client))
    return out


@pytest.mark.parametrize("name", ["audit", "needle", "constraints"])
def test_runs_still_finish_and_score_most_of_the_time(runs, name):
    finished = [r for r, _ in runs[name] if r.stopped == "answered" and r.score.success]
    assert len(finished) >= 8, [r.stopped for r, _ in runs[name]]


def test_no_noted_lines_and_answers_in_other_words():
    for seed in (0, 1):
        run = run_agent(unscripted(seed, model=PLAIN), workloads.audit(12))
        said = texts(run)
        assert "Noted [" not in said and "Plan: check" not in said and "Next: " not in said
        assert run.score.success and not run.answer.startswith("Answer:")


def test_fewer_steps_and_extra_steps_both_happen(runs):
    calls = [r.calls for r, _ in runs["audit"]]
    assert min(calls) < 15  # the scripted run takes 15 requests
    assert any(len(set(p)) < len(p) for p in
               ([a["path"] for _, a in r.tool_calls("read_file")] for r, _ in runs["audit"]))
    assert any(len(s.tool_calls) > 1 for r, _ in runs["audit"] for s in r.steps)


def test_some_requests_are_overloaded_and_retried(runs):
    retried = sum(c.course_model.calls - r.calls for rs in runs.values() for r, c in rs)
    assert retried > 0
    sent = [r for rs in runs.values() for r, _ in rs]
    assert all(not (s.error or "").startswith("529") for r in sent for s in r.steps)


def test_the_default_model_thinks_between_tools_and_runs_carry_it(runs):
    assert models.model_name(unscripted(0)) == models.DEFAULT_MODEL
    run = runs["audit"][0][0]
    with_calls = [m for m in run.history if m["role"] == "assistant"
                  and any(b["type"] == "tool_use" for b in m["content"])]
    assert with_calls and all(m["content"][0]["type"] == "thinking" for m in with_calls)
    assert all(m["content"][0]["thinking"] == "" for m in with_calls)  # display: omitted


def test_independent_calls_come_in_any_order():
    work = workloads.audit(12, folders=3)
    orders = set()
    for seed in (0, 1, 2, 3):
        client = unscripted(seed, model=PLAIN)
        team = Team(client, work.toolbox)
        lead = run_agent(client, workloads.Workload(
            "lead", work.task, Toolbox([work.workspace.list_files]) + team.toolbox(),
            work.truth, work.scorer), system=f"{DEFAULT_SYSTEM} {LEAD_RULES}")
        assert lead.score.success, lead.answer
        orders.add(tuple(re.search(r"`([^`]+)`", a["task"]).group(1)
                         for _, a in lead.tool_calls("delegate")))
    assert len(orders) > 1


def test_summaries_paraphrase_and_the_agent_still_reads_them():
    headings, ok = set(), 0
    for seed in range(4):
        small = unscripted(seed, model=PLAIN, context_window=8_000)
        compactor = Compactor(small, 5_000, keep=4, prompt=STRUCTURED_PROMPT)
        run = run_agent(small, workloads.audit(12), max_tokens=512, context=[compactor])
        ok += run.score.success
        for step in run.steps:
            text = blocks(step.sent[0])[0].get("text", "")
            if text.startswith("[Summary of earlier turns]"):
                assert "Noted [" not in text
                headings.add(text.split("\n")[1])
    assert ok >= 3 and len(headings) > 1 and compactor.compactions


def test_notes_written_in_other_words_are_read_back(tmp_path):
    for seed in (0, 1):
        notes = Notes(tmp_path / str(seed))
        run = run_agent(unscripted(seed), workloads.audit(12),
                        system=DEFAULT_SYSTEM + " " + NOTES_RULES, extra_tools=notes.toolbox())
        assert run.score.success and "Noted [" not in notes.read() and notes.read()


def test_the_environment_asks_for_it_and_the_bad_combination_is_refused(monkeypatch):
    monkeypatch.setenv("AGENTLIB_UNSCRIPTED", "1")
    monkeypatch.setenv("AGENTLIB_SEED", "7")
    client = agentlib.connect(offline=True)
    assert client.course_model.unscripted.seed == 7 and client.max_retries == 6
    with pytest.raises(ValueError, match="unscripted"):
        coursekit.connect(offline=False, unscripted=True)
    monkeypatch.setenv("AGENTLIB_SEED", "seven")
    with pytest.raises(ValueError, match="AGENTLIB_SEED"):
        agentlib.connect(offline=True)
