"""Sub-agents: the spread audit, `agentlib.delegate`, and the course model as lead and as
sub-agent, each deciding from what is in its request only."""

import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

import agentlib
import coursekit
from agentlib import tokens
from agentlib.context import Compactor
from agentlib.delegate import (
    LEAD_RULES,
    MIN_BUDGET,
    NOTICE,
    SUBAGENT_RULES,
    Team,
    fit,
    totals,
    wall_clock_steps,
)
from agentlib.loop import DEFAULT_SYSTEM, run_agent
from agentlib.messages import assistant, tool_result, tool_use, user
from agentlib.tools import Toolbox
from coursekit import workloads


def files_of(work):
    root = work.workspace.root
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in root.rglob("*") if p.is_file()}


# ---------------------------------------------------------------- the spread audit


@pytest.mark.parametrize("n, seed, k", [(12, 0, 4), (40, 3, 6), (5, 2, 8), (96, 0, 1)])
def test_folders_only_move_the_files(n, seed, k):
    flat, spread = workloads.audit(n, seed), workloads.audit(n, seed, folders=k)
    a, b = files_of(flat), files_of(spread)
    assert sorted(a.values()) == sorted(b.values())
    assert flat.truth == spread.truth and flat.task == spread.task
    assert b["services/_defaults.conf"] == a["services/_defaults.conf"]
    regions = {p.rsplit("/", 1)[0] for p in b if not p.endswith("_defaults.conf")}
    assert regions <= {f"services/{r}" for r in workloads.REGIONS[:k]}
    sizes = [sum(1 for p in b if p.startswith(r + "/")) for r in regions]
    assert max(sizes) - min(sizes) <= 1  # dealt in turn
    for path, text in b.items():  # a config keeps its name: the file name is the service
        if not path.endswith("_defaults.conf"):
            assert a["services/" + path.rsplit("/", 1)[1]] == text


def test_without_folders_the_audit_is_flat():
    assert all(p.count("/") == 1 for p in files_of(workloads.audit(30, 1)))


@pytest.mark.parametrize("bad", [0, 9, -1, 2.0, "3", True])
def test_bad_folders_are_named(bad):
    with pytest.raises(ValueError, match="folders"):
        workloads.audit(12, folders=bad)


# ---------------------------------------------------------------- fit

REPLY = "I read 16 configs.\nAnswer:\n" + "\n".join(f"svc-{i}: {30 + i}" for i in range(12))


def test_fit_leaves_a_fitting_result_alone():
    assert fit(REPLY, tokens.count_text(REPLY)) == REPLY
    assert fit("", MIN_BUDGET) == ""


@pytest.mark.parametrize("budget", [MIN_BUDGET, 30, 45, 60, 80])
def test_fit_cuts_whole_lines_within_the_budget_and_says_so(budget):
    out = fit(REPLY, budget)
    lines, kept = REPLY.split("\n"), out.split("\n")
    assert tokens.count_text(out) <= budget
    assert kept[:-1] == lines[:len(kept) - 1]
    assert kept[-1] == NOTICE.format(budget=budget, more=len(lines) - len(kept) + 1)
    one_more = lines[:len(kept)] + [NOTICE.format(budget=budget, more=len(lines) - len(kept))]
    assert tokens.count_text("\n".join(one_more)) > budget  # not a line fewer than fits


def test_fit_is_quick_on_a_huge_result():
    huge = "\n".join(f"2026-03-01 INFO request {i} served in 12ms" for i in range(20_000))
    start = time.perf_counter()
    out = fit(huge, 200)
    assert time.perf_counter() - start < 5 and tokens.count_text(out) <= 200
    assert out.endswith("more lines not shown]")


@pytest.mark.parametrize("bad", [MIN_BUDGET - 1, 0, -5, 100.0, None, True])
def test_fit_refuses_a_budget_with_no_room(bad):
    with pytest.raises(ValueError, match="max_tokens"):
        fit(REPLY, bad)


def test_fit_names_a_result_that_is_not_text():
    with pytest.raises(TypeError, match="str"):
        fit(None, 100)


# ---------------------------------------------------------------- the course model, lead and sub-agent


@pytest.fixture(scope="module")
def client():
    return agentlib.connect(offline=True)


def ask(client, messages, tools, system=DEFAULT_SYSTEM):
    reply = client.messages.create(model="course-model-1", max_tokens=2048, system=system,
                                   tools=tools, messages=messages)
    return [b.to_dict() for b in reply.content]


def lead_tools(work):
    team = Team(agentlib.connect(offline=True), work.toolbox)
    return (Toolbox([work.workspace.list_files]) + team.toolbox()).definitions


def test_offered_delegate_the_model_lists_then_splits_by_folder_in_one_reply(client):
    work = workloads.audit(18, folders=3)
    tools = lead_tools(work)
    first = ask(client, [user(work.task)], tools)
    assert [b["name"] for b in first if b["type"] == "tool_use"] == ["list_files"]
    listing = work.workspace.list_files()
    call = next(b for b in first if b["type"] == "tool_use")
    history = [user(work.task), assistant(*first), user(tool_result(call["id"], listing))]
    second = ask(client, history, tools)
    tasks = [b["input"]["task"] for b in second if b["type"] == "tool_use"]
    assert [b["name"] for b in second if b["type"] == "tool_use"] == ["delegate"] * 3
    named = {r for r in workloads.REGIONS for t in tasks if f"`services/{r}/`" in t}
    assert named == set(workloads.REGIONS[:3])  # one sub-task per folder, every folder
    for task in tasks:  # self-contained: the rule, the defaults and the format travel along
        assert "above 30" in task and "services/_defaults.conf" in task and "`name: value`" in task


def test_without_delegate_the_model_does_the_work_itself(client):
    work = workloads.audit(18, folders=3)
    listing = work.workspace.list_files()
    history = [user(work.task), assistant("Listing.", tool_use("toolu_1", "list_files")),
               user(tool_result("toolu_1", listing))]
    reply = ask(client, history, work.tools)
    assert [b["name"] for b in reply if b["type"] == "tool_use"] == ["read_file"]


def test_a_sub_task_for_one_folder_reads_only_that_folder():
    work = workloads.audit(18, folders=3)
    run = run_agent(agentlib.connect(offline=True), replace(
        work, task=work.task.replace("in this workspace", "in the folder `services/us-east/`")))
    read = {args["path"] for _, args in run.tool_calls("read_file")}
    assert read and all(p.startswith("services/us-east/") or p.endswith("_defaults.conf")
                        for p in read)
    mine = {p.rsplit("/", 1)[1].removesuffix(".conf") for p in files_of(work)
            if p.startswith("services/us-east/")}
    assert run.answer.startswith(("Noted", "Answer"))  # no rules: its usual reply
    found = workloads._parse_pairs(run.answer)
    assert found == {k: v for k, v in work.truth.items() if k in mine}


def test_told_its_reply_is_the_result_the_sub_agent_writes_only_the_lines():
    work = workloads.audit(18, folders=3)
    system = f"{DEFAULT_SYSTEM} {SUBAGENT_RULES.format(budget=100)}"
    task = work.task.replace("in this workspace", "in the folder `services/eu-west/`")
    run = run_agent(agentlib.connect(offline=True), replace(work, task=task), system=system)
    lines = run.answer.split("\n")
    assert lines == ["none"] or all(workloads._parse_pairs(line) for line in lines)


def test_the_lead_says_which_results_are_missing_without_inventing_pairs(client):
    work = workloads.audit(12, folders=2)
    tools = lead_tools(work)
    sub = {f: work.task.replace("in this workspace", f"in the folder `services/{f}/`")
           for f in workloads.REGIONS[:2]}
    history = [user(work.task),
               assistant("Plan.", tool_use("toolu_a", "delegate", {"task": sub["eu-west"]}),
                    tool_use("toolu_b", "delegate", {"task": sub["us-east"]})),
               user(tool_result("toolu_a", "auth: 45\n" + NOTICE.format(budget=30, more=3)),
                    tool_result("toolu_b", "Error: RuntimeError: no result", is_error=True))]
    text = ask(client, history, tools)[0]["text"]
    assert "services/eu-west/ was cut short" in text and "services/us-east/ returned no" in text
    assert workloads._parse_pairs(text) == {"auth": 45}


# ---------------------------------------------------------------- Team, end to end


@pytest.fixture(scope="module")
def team_run():
    work = workloads.audit(24, seed=4, folders=3)
    client = coursekit.connect(offline=True, context_window=24_000)
    team = Team(client, work.toolbox, budget=120)
    lead_work = replace(work, toolbox=Toolbox([work.workspace.list_files]) + team.toolbox())
    lead = run_agent(client, lead_work, system=f"{DEFAULT_SYSTEM} {LEAD_RULES}", cache=True)
    return work, team, lead


def test_the_team_answers_right_with_a_small_lead_window(team_run):
    work, team, lead = team_run
    assert lead.score.success and len(team.runs) == 3
    assert lead.peak_input_tokens < min(r.peak_input_tokens for r in team.runs)
    assert lead.tool_calls("read_file") == []  # the lead never saw a config


def test_each_sub_agent_starts_from_its_task_alone(team_run):
    _, team, lead = team_run
    tasks = [args["task"] for _, args in lead.tool_calls("delegate")]
    for run, task in zip(team.runs, tasks, strict=True):
        assert run.steps[0].sent == [user(task)]
        assert "within 120 tokens" in run.system and run.label.startswith("sub-agent")


def test_results_fit_the_budget(team_run):
    _, team, lead = team_run
    results = [b for m in lead.history for b in m["content"]
               if isinstance(b, dict) and b.get("type") == "tool_result"][1:]
    assert len(results) == 3 and all(tokens.count_text(b["content"]) <= 120 for b in results)


def test_wall_clock_is_the_lead_plus_the_longest_sub_agent(team_run):
    _, team, lead = team_run
    assert wall_clock_steps(lead, team.runs) == lead.calls + max(r.calls for r in team.runs)


def test_totals_add_up_every_agent(team_run):
    from coursekit.bench import cost

    _, team, lead = team_run
    runs = [lead, *team.runs]
    got = totals(runs)
    assert got["calls"] == sum(r.calls for r in runs)
    assert got["input_tokens"] == sum(r.total_input_tokens for r in runs)
    assert got["cost_usd"] == pytest.approx(sum(cost(r) for r in runs))


def test_totals_count_a_compactors_summary_calls():
    from coursekit.bench import PRICES

    comp = Compactor(agentlib.connect(offline=True), trigger=1_000)
    comp.compactions.append(SimpleNamespace(summary_input_tokens=2_000, summary_output_tokens=100))
    run = SimpleNamespace(steps=[], calls=0, total_input_tokens=0)
    got = totals([run], [comp])
    assert got["calls"] == 1 and got["input_tokens"] == 2_000
    assert got["cost_usd"] == pytest.approx((2_000 * PRICES["input"] + 100 * PRICES["output"]) / 1e6)


def test_wall_clock_matches_sub_runs_by_task_when_a_call_was_refused():
    lead = SimpleNamespace(steps=[
        SimpleNamespace(tool_calls=[("list_files", {})]),
        SimpleNamespace(tool_calls=[("delegate", {}), ("delegate", {"task": "b"}),
                                    ("delegate", {"task": "a"})]),  # the first never ran
        SimpleNamespace(tool_calls=[])])
    runs = [SimpleNamespace(transcript=[user(t)], calls=n) for t, n in (("b", 4), ("a", 9))]
    assert wall_clock_steps(lead, runs) == 3 + 9


def test_a_delegate_call_that_fails_comes_back_as_an_error_result():
    work = workloads.audit(12, folders=2)
    team = Team(agentlib.connect(offline=True), work.toolbox, max_steps=2)
    box = team.toolbox()
    empty = box.run(tool_use("toolu_1", "delegate", {"task": "  "}))
    assert empty["is_error"] and "task is empty" in empty["content"] and team.runs == []
    short = box.run(tool_use("toolu_2", "delegate", {"task": work.task}))
    assert short["is_error"] and "without a result (max_steps)" in short["content"]
    assert len(team.runs) == 1  # the sub-run is kept: its tokens were spent


def test_a_bad_budget_fails_when_the_team_is_made():
    with pytest.raises(ValueError, match="max_tokens"):
        Team(agentlib.connect(offline=True), Toolbox(), budget=5)


def test_the_delegate_tool_reads_as_a_real_tool():
    (definition,) = Team(agentlib.connect(offline=True), Toolbox()).toolbox().definitions
    assert definition["name"] == "delegate"
    assert "fresh, empty" in definition["description"]
    assert definition["input_schema"]["required"] == ["task"]


def everything_tool(team):
    """Lesson 8's first, naive hand-back: the sub-agent's whole transcript."""
    from agentlib.context import transcript

    def delegate(task: str) -> str:
        """Give a sub-task to a sub-agent.

        Args:
            task: the whole sub-task.
        """
        team.delegate(task)
        return transcript(team.runs[-1].history)

    return delegate


@pytest.mark.parametrize("window, answered", [(16_000, False), (10_000_000, True)])
def test_handing_back_everything_fails_by_the_window_alone(window, answered):
    """It overflows a small window; in a large one the same lead answers right from the
    transcripts (the stand-in reads them as a model would)."""
    work = workloads.audit(24, seed=4, folders=3)
    client = coursekit.connect(offline=True, context_window=window)
    tools = Toolbox([work.workspace.list_files, everything_tool(Team(client, work.toolbox))])
    lead = run_agent(client, replace(work, toolbox=tools), system=f"{DEFAULT_SYSTEM} {LEAD_RULES}")
    assert (lead.stopped == "answered") is answered, lead.stopped
    assert lead.score.success is answered
