"""Capping at the source and clearing old results: the mechanisms of lessons 03 and 04."""

import anthropic
import pytest

import agentlib
import coursekit
from agentlib import tokens
from agentlib.context.cap import cap, cap_text
from agentlib.context.clear import PLACEHOLDER, Clearing, clear_tool_results
from agentlib.loop import run_agent
from agentlib.messages import copy_history, validate
from agentlib.tools import Toolbox
from agentlib.workspace import parse_notice
from coursekit import workloads

BETA = {"betas": ["context-management-2025-06-27"]}


def capped_needle(max_chars, silent):
    w = workloads.needle(400)
    ws = w.workspace
    w.toolbox = Toolbox([ws.list_files, cap(ws.read_file, max_chars=max_chars, silent=silent),
                         ws.search])
    return w


def test_cap_keeps_lines_and_says_where_to_continue(tmp_path):
    w = workloads.needle(400)
    read = cap(w.workspace.read_file, max_chars=2000)
    page = read("incident.log")
    assert len(page) <= 2000
    path, offset = parse_notice(page)
    assert path == "incident.log" and offset > 0
    # paging with the notice reassembles the file exactly
    text, offset = "", 0
    while True:
        page = read("incident.log", offset=offset)
        notice = parse_notice(page)
        text += page.rsplit("\n[truncated:", 1)[0] + "\n" if notice else page
        if not notice:
            break
        offset = notice[1]
    assert text == w.workspace.read_file("incident.log")
    assert read.__name__ == "read_file"  # the wrapper keeps the tool's name and schema


def test_cap_by_tokens_and_silent_mode():
    text = "word " * 5000
    out = cap_text(text, max_tokens=300)
    assert tokens.count_text(out) <= 300 and "more characters not shown" in out
    silent = cap_text(text, max_chars=1000, silent=True)
    assert len(silent) == 1000 and "truncated" not in silent
    assert cap_text("short", max_chars=100) == "short"
    with pytest.raises(ValueError):
        cap_text("x")


def test_silent_cap_fails_needle_noticed_cap_succeeds():
    client = coursekit.connect(offline=True, context_window=16_000)
    silent = run_agent(client, capped_needle(3000, silent=True), max_tokens=512)
    noticed = run_agent(client, capped_needle(3000, silent=False), max_tokens=512)
    assert silent.stopped == "answered" and not silent.score.success
    assert noticed.stopped == "answered" and noticed.score.success
    assert noticed.calls > silent.calls  # it paged on


def audit_history(n=12, steps=None):
    return run_agent(agentlib.connect(offline=True), workloads.audit(n),
                     max_steps=steps or 60).history


def test_clear_empties_old_results_keeps_blocks_and_never_mutates():
    history = audit_history(8)
    before = copy_history(history)
    out = clear_tool_results(history, keep=3)
    assert history == before  # input untouched
    validate(out)
    results = [b for m in out for b in (m["content"] if isinstance(m["content"], list) else [])
               if b.get("type") == "tool_result"]
    assert len(results) == len([b for m in history for b in m["content"]
                                if isinstance(b, dict) and b.get("type") == "tool_result"])
    assert [b["content"] == PLACEHOLDER for b in results] == \
        [True] * (len(results) - 3) + [False] * 3
    assert out.cleared_tool_uses == len(results) - 3
    assert out.cleared_input_tokens == tokens.count(history) - tokens.count(out)
    again = clear_tool_results(out, keep=3)  # nothing more to clear
    assert again.cleared_tool_uses == 0 and again == out


def test_clear_trigger_exclude_at_least_and_inputs():
    history = audit_history(8)
    total = tokens.count(history)
    assert clear_tool_results(history, trigger=total).cleared_tool_uses == 0
    assert clear_tool_results(history, trigger=total - 1).cleared_tool_uses > 0
    assert clear_tool_results(history, trigger={"type": "tool_uses", "value": 100}) == history
    kept_list = clear_tool_results(history, keep=0, exclude_tools=["list_files"])
    first_result = kept_list[2]["content"][0]
    assert first_result["content"] != PLACEHOLDER  # the listing was excluded
    assert clear_tool_results(history, keep=0, clear_at_least=10**9).cleared_tool_uses == 0
    no_inputs = clear_tool_results(history, keep=1, clear_tool_inputs=True)
    uses = [b for m in no_inputs if m["role"] == "assistant" for b in m["content"]
            if b["type"] == "tool_use"]
    assert uses[0]["input"] == {} and uses[-1]["input"] != {}
    validate(no_inputs)


def test_deleting_a_result_is_the_400_but_emptying_is_not():
    client = agentlib.connect(offline=True)
    w = workloads.audit(6)
    history = audit_history(6, steps=4)
    deleted = history[:2] + history[3:]  # the first tool_result message removed
    with pytest.raises(anthropic.BadRequestError) as e:
        client.messages.create(model="course-model-1", max_tokens=100, tools=w.tools, messages=deleted)
    assert "tool_use` ids were found without `tool_result`" in e.value.message
    emptied = clear_tool_results(history, keep=0)
    r = client.messages.create(model="course-model-1", max_tokens=100, tools=w.tools, messages=emptied)
    assert r.stop_reason in ("tool_use", "end_turn", "max_tokens")


def test_clearing_finishes_where_append_only_overflows_with_the_same_score():
    small = coursekit.connect(offline=True, context_window=8000)
    w = workloads.audit(12)
    plain = run_agent(small, w, max_tokens=512)
    assert plain.stopped.startswith("error: prompt is too long")
    clearing = Clearing(keep=3, trigger=4000)
    cleared = run_agent(small, w, max_tokens=512, context=[clearing])
    full = run_agent(agentlib.connect(offline=True), w)
    assert cleared.score.success and full.score.success
    assert cleared.peak_input_tokens < 8000 and clearing.total_cleared > 0
    assert any(e.startswith("cleared ") for s in cleared.steps for e in s.events)
    # the cleared defaults file had to be read again
    reads = [c[1]["path"] for c in cleared.tool_calls("read_file")]
    assert reads.count("services/_defaults.conf") >= 2


def test_server_side_clearing_matches_client_side():
    w = workloads.audit(12)
    edit = {"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens",
                                                           "value": 4000}}
    small = coursekit.connect(offline=True, context_window=8000)
    server = run_agent(small, w, max_tokens=512,
                       extra={**BETA, "context_management": {"edits": [edit]}})
    assert server.score.success
    applied = [e for s in server.steps for e in s.events if e.startswith("server: clear")]
    assert applied and "cleared_tool_uses=" in applied[0]
    # the client keeps its full history: nothing in it is cleared
    assert not any(b.get("content") == PLACEHOLDER for m in server.history
                   for b in m["content"] if isinstance(b, dict))
    client_side = run_agent(small, w, max_tokens=512, context=[Clearing(3, trigger=4000)])
    assert client_side.score.success == server.score.success


def test_server_side_clearing_defaults_and_bad_edits():
    client = agentlib.connect(offline=True)
    w = workloads.audit(6)
    history = audit_history(6, steps=6)
    r = client.beta.messages.create(
        model="course-model-1", max_tokens=100, tools=w.tools, messages=history, **BETA,
        context_management={"edits": [{"type": "clear_tool_uses_20250919"}]})
    assert r.context_management.applied_edits == []  # far below the 100,000 default
    r = client.beta.messages.create(
        model="course-model-1", max_tokens=100, tools=w.tools, messages=history, **BETA,
        context_management={"edits": [{"type": "clear_tool_uses_20250919",
                                       "trigger": {"type": "input_tokens", "value": 100},
                                       "keep": {"type": "tool_uses", "value": 1}}]})
    edit = r.context_management.applied_edits[0]
    n_results = sum(1 for m in history for b in m["content"]
                    if isinstance(b, dict) and b.get("type") == "tool_result")
    assert edit.type == "clear_tool_uses_20250919" and edit.cleared_tool_uses == n_results - 1
    assert edit.cleared_input_tokens > 0
    with pytest.raises(anthropic.BadRequestError, match="Input tag 'nope' found using 'type'"):
        client.beta.messages.create(model="course-model-1", max_tokens=100, messages=history,
                                    tools=w.tools, **BETA,
                                    context_management={"edits": [{"type": "nope"}]})


def test_cap_stays_in_budget_with_a_long_path_and_keeps_blank_lines(tmp_path):
    from agentlib.workspace import Workspace

    long = "logs/" + "very-long-folder-name/" * 4 + "app.log"
    text = "".join(f"line {i}\n" if i % 7 else "\n" for i in range(400))
    ws = Workspace.from_files(tmp_path, {long: text})
    read = cap(ws.read_file, max_chars=1000)
    offset, pages = 0, []
    while True:
        page = read(long, offset=offset)
        assert len(page) <= 1000
        notice = parse_notice(page)
        pages.append(page.rsplit("\n[truncated:", 1)[0] + "\n" if notice else page)
        if not notice:
            break
        offset = notice[1]
    assert "".join(pages) == text
    with pytest.raises(ValueError):
        cap_text("x" * 500, max_chars=60)
