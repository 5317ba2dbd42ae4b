"""The offline course model knows only its window: edit a history, check the next action."""

import pytest

import agentlib
import coursekit
from agentlib import models
from agentlib.context import SlidingWindow, truncate
from agentlib.loop import run_agent
from agentlib.messages import tool_result, user, validate
from agentlib.tools import Toolbox
from coursekit import workloads
from standin.agent import NO_TASK


@pytest.fixture(scope="module")
def client():
    return agentlib.connect(offline=True)


def next_reply(client, workload, messages):
    validate(messages)
    r = client.messages.create(model="course-model-1", max_tokens=2048,
                               tools=workload.tools, messages=messages)
    return r


def first_steps(client, workload, n):
    """The history after n requests of an append-only run."""
    return run_agent(client, workload, max_steps=n).history


def calls(reply):
    return [(b.name, b.input) for b in reply.content if b.type == "tool_use"]


def test_audit_append_only_scores_full(client):
    run = run_agent(client, workloads.audit(12))
    assert run.stopped == "answered"
    assert run.score.success and run.score.precision == 1.0 and run.score.recall == 1.0


def test_overflow_ends_the_run_and_keeps_the_trace(client):
    """Near the window the reply is cut to the room left (200, not an answer); past it the
    request is refused with the API's 400. Either way the run stops and keeps its trace."""
    audit = workloads.audit(12)
    window = 6000 + models.tool_prompt_tokens("course-model-1", audit.tools)  # the API's own
    small = coursekit.connect(offline=True, context_window=window)
    run = run_agent(small, audit, max_tokens=256)
    assert run.stopped == "cut: model_context_window_exceeded"
    last = run.steps[-1]
    assert last.error is None and last.stop_reason == "model_context_window_exceeded"
    assert last.input_tokens + 256 > window >= last.input_tokens + last.output_tokens
    assert run.answer is None and not last.tool_calls  # the call did not fit: lost
    needle = run_agent(small, workloads.needle(400), max_tokens=256)  # a big read jumps over
    assert needle.stopped.startswith("error: prompt is too long: ")
    assert needle.steps[-1].error.endswith(f"> {window} maximum")
    assert all(s.input_tokens > 0 for s in run.steps[:-1]) and len(run.steps) > 3


def test_task_removed_means_no_task(client):
    w = workloads.audit(12)
    reply = next_reply(client, w, [user("Please continue.")])
    assert reply.content[0].text == NO_TASK and reply.stop_reason == "end_turn"


def test_task_visible_starts_by_listing(client):
    w = workloads.audit(5)
    reply = next_reply(client, w, [user(w.task)])
    assert calls(reply) == [("list_files", {})]


def test_findings_removed_are_forgotten(client):
    w = workloads.audit(12)
    full = run_agent(client, w)
    cut = run_agent(client, w, context=[SlidingWindow(6)])
    assert full.score.recall == 1.0
    assert cut.score.recall < 1.0 and cut.score.precision == 1.0  # forgets, invents nothing


def test_cleared_result_is_read_again(client):
    w = workloads.audit(12)
    history = first_steps(client, w, 3)  # list, then read the first file
    last = history[-1]
    assert last["content"][0]["type"] == "tool_result"
    cleared = history[:-1] + [{"role": "user", "content": [
        tool_result(last["content"][0]["tool_use_id"], "[cleared to save context]")]}]
    before = calls(next_reply(client, w, history))
    after = calls(next_reply(client, w, cleared))
    read_path = history[-2]["content"][-1]["input"]["path"]
    assert after == [("read_file", {"path": read_path})]
    assert before != after


def test_inherit_needs_defaults_and_rereads_them_when_cleared(client):
    w = workloads.audit(12)
    run = run_agent(client, w)
    reads = [c[1]["path"] for c in run.tool_calls("read_file")]
    assert reads.count("services/_defaults.conf") == 1  # visible all along: read once
    # clear every tool result except the newest: the defaults must be fetched again
    from agentlib.messages import blocks

    def clear_old(messages):
        out = []
        for i, m in enumerate(messages):
            if i < len(messages) - 1 and any(b.get("type") == "tool_result" for b in blocks(m)):
                m = {"role": "user", "content": [
                    dict(b, content="[cleared]") if b.get("type") == "tool_result" else b
                    for b in blocks(m)]}
            out.append(m)
        return out
    cleared = run_agent(client, w, context=[clear_old])
    rereads = [c[1]["path"] for c in cleared.tool_calls("read_file")]
    assert rereads.count("services/_defaults.conf") > 1
    assert cleared.score.success


def test_notice_is_followed_and_silent_cut_is_not(client):
    w = workloads.needle(200)
    ws = w.workspace
    w.toolbox = Toolbox([ws.list_files, ws.read_file])  # no search: paging is the only way
    page = ws.read_file("incident.log", 0, 50)
    assert "[truncated:" in page
    base = [user(w.task), {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "read_file",
         "input": {"path": "incident.log"}}]}]
    noticed = next_reply(client, w, base + [user(tool_result("toolu_1", page))])
    assert calls(noticed) == [("read_file", {"path": "incident.log", "offset": 50})]
    silent = page.rsplit("\n[truncated:", 1)[0]
    answered = next_reply(client, w, base + [user(tool_result("toolu_1", silent))])
    assert calls(answered) == [] and not w.score(answered.content[0].text).success


def test_a_long_cut_log_is_searched_then_read_around_the_matches(client):
    """Offered `search`, with most of the log still to go, the model searches for what the
    task names and reads only the lines around each match, the decisive one first."""
    w = workloads.needle(2000)
    ws = w.workspace
    page = ws.read_file("incident.log", 0, 50)
    base = [user(w.task), {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "read_file",
         "input": {"path": "incident.log"}}]}]
    first = base + [user(tool_result("toolu_1", page))]
    assert calls(next_reply(client, w, first)) == [("search", {"pattern": "root cause"})]
    hits = ws.search("root cause")
    searched = first + [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_2", "name": "search",
         "input": {"pattern": "root cause"}}]}, user(tool_result("toolu_2", hits))]
    confirmed = int(hits.splitlines()[-1].split(":")[1])  # "path:line: text"
    assert calls(next_reply(client, w, searched)) == [
        ("read_file", {"path": "incident.log", "offset": confirmed - 3, "limit": 5})]
    run = run_agent(client, w, max_tokens=512)  # uncapped: one read, no search
    assert run.calls == 2 and not run.tool_calls("search") and run.score.success


def test_a_short_cut_is_paged_even_with_search(client):
    w = workloads.needle(200)
    page = w.workspace.read_file("incident.log", 0, 150)  # 50 lines to go: one more page
    base = [user(w.task), {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "read_file",
         "input": {"path": "incident.log"}}]}]
    nxt = next_reply(client, w, base + [user(tool_result("toolu_1", page))])
    assert calls(nxt) == [("read_file", {"path": "incident.log", "offset": 150})]


def test_constraint_visible_is_kept_and_invisible_is_broken(client):
    w = workloads.constraints()
    full = run_agent(client, w)
    assert full.score.success and full.score.constraint_kept
    cut = run_agent(client, w, context=[SlidingWindow(8)])
    assert cut.score.constraint_kept is False


def test_runs_are_deterministic(client):
    a = run_agent(agentlib.connect(offline=True), workloads.audit(8, seed=3))
    b = run_agent(agentlib.connect(offline=True), workloads.audit(8, seed=3))
    assert [(s.input_tokens, s.output_tokens, s.tool_calls) for s in a.steps] == \
           [(s.input_tokens, s.output_tokens, s.tool_calls) for s in b.steps]
    assert a.history == b.history


def test_truncate_keeps_pairs_and_task():
    w = workloads.audit(12)
    history = run_agent(agentlib.connect(offline=True), w, max_steps=8).history
    for k in range(1, len(history) + 2):
        out = truncate(history, k)
        validate(out)
        assert out[0] == history[0] and out[-1] == history[-1]
    assert truncate(history, 3, marker=False)[0] == history[0]


def test_notes_tool_keeps_findings_through_truncation_and_resumes(tmp_path):
    from agentlib.context.notes import NOTES_RULES, Notes
    from agentlib.loop import DEFAULT_SYSTEM

    client = agentlib.connect(offline=True)
    w = workloads.audit(12)
    system = DEFAULT_SYSTEM + " " + NOTES_RULES
    cut = run_agent(client, w, context=[SlidingWindow(6)])
    notes = Notes(tmp_path / "a")
    kept = run_agent(client, w, context=[SlidingWindow(6)], system=system,
                     extra_tools=notes.toolbox())
    assert cut.score.recall < 1.0 and kept.score.success
    assert kept.steps[0].tool_calls == [("notes", {"action": "read"})]  # read first
    # a restart mid-task resumes from the notes with fewer steps than a cold start
    half = Notes(tmp_path / "b")
    run_agent(client, w, system=system, extra_tools=half.toolbox(), max_steps=8)
    resumed = run_agent(client, w, system=system, extra_tools=half.toolbox())
    cold = run_agent(client, w, system=system, extra_tools=Notes(tmp_path / "c").toolbox())
    assert resumed.score.success and cold.score.success
    assert resumed.calls < cold.calls
    # the same tool without the rules in the system prompt is not used
    plain = run_agent(client, w, extra_tools=Notes(tmp_path / "d").toolbox())
    assert not plain.tool_calls("notes")


def test_notes_writes_are_atomic(tmp_path, monkeypatch):
    import os

    from agentlib.context.notes import Notes

    notes = Notes(tmp_path)
    notes.notes("write", "old notes")

    def crash(*args):
        raise OSError("disk died mid-write")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        notes.notes("append", "new line")
    assert notes.read() == "old notes\n"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.md"]  # no temp file left
    with pytest.raises(ValueError):
        Notes(tmp_path, "../escape.md")


def test_memory_tool_through_the_sdk_backend(tmp_path):
    from agentlib.context.memory import MEMORY_RULES, memory_toolbox
    from agentlib.loop import DEFAULT_SYSTEM

    client = agentlib.connect(offline=True)
    w = workloads.audit(12)
    system = DEFAULT_SYSTEM + " " + MEMORY_RULES
    run = run_agent(client, w, context=[SlidingWindow(6)], system=system,
                    extra_tools=memory_toolbox(tmp_path / "m"))
    assert run.score.success
    assert run.steps[0].tool_calls == [("memory", {"command": "view",
                                                   "path": "/memories/notes.md"})]
    assert not any(s.error for s in run.steps)
    notes = (tmp_path / "m" / "memories" / "notes.md").read_text(encoding="utf-8")
    assert "Noted [13/13]" in notes and notes.count("Plan: ") >= 1
    resumed = run_agent(client, w, system=system, extra_tools=memory_toolbox(tmp_path / "m"))
    assert resumed.score.success and resumed.calls <= 3
    # the SDK's backend refuses escapes; the model gets an is_error result
    box = memory_toolbox(tmp_path / "m")
    for bad in ("/etc/passwd", "/memories/../../secret", "../x", "/memories/../notes"):
        out = box.run({"type": "tool_use", "id": "toolu_x", "name": "memory",
                       "input": {"command": "view", "path": bad}})
        assert out.get("is_error") and "memories" in out["content"]


def test_notes_refuse_a_symlink_out_of_the_folder(tmp_path):
    from agentlib.context.notes import Notes

    outside = tmp_path / "secret.txt"
    outside.write_text("secret", encoding="utf-8")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "notes.md").symlink_to(outside)
    notes = Notes(folder)
    out = notes.toolbox().run({"type": "tool_use", "id": "toolu_1", "name": "notes",
                               "input": {"action": "read"}})
    assert out.get("is_error") and "secret" not in out["content"].replace("secret.txt", "")
    with pytest.raises(PermissionError):
        notes.notes("append", "x")
    assert outside.read_text(encoding="utf-8") == "secret"
