"""Reliability: faults, bad input, sandbox escapes and secret hygiene.

Each test counts what it tried, so the numbers in the team's notes can be checked.
"""

import os
import re
import subprocess
from pathlib import Path

import anthropic
import pytest

import agentlib
import coursekit
from agentlib.context.memory import memory_toolbox
from agentlib.context.notes import Notes
from agentlib.loop import run_agent
from agentlib.workspace import Workspace
from coursekit import workloads

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- faults

@pytest.mark.parametrize("faults", [
    {1: 529, 2: 529}, {3: 429, 4: 429}, {5: 500}, {2: 529, 6: 429, 9: 500},
])
def test_fault_bursts_are_retried_and_change_nothing(faults):
    w = workloads.audit(8)
    clean = run_agent(agentlib.connect(offline=True), w)
    faulty_client = coursekit.connect(offline=True, faults=faults)
    faulty = run_agent(faulty_client, w)
    assert faulty.score == clean.score and faulty.history == clean.history
    assert faulty_client.course_model.calls == clean.calls + len(faults)


def test_a_non_retryable_error_stops_the_run_and_keeps_the_trace():
    client = coursekit.connect(offline=True, faults={4: 500}, max_retries=0)
    run = run_agent(client, workloads.audit(8))
    assert run.stopped.startswith("error: Internal server error")
    assert len(run.steps) == 4 and run.steps[-1].error.startswith("500 InternalServerError")
    assert all(s.input_tokens > 0 for s in run.steps[:3]) and run.answer is None
    assert len(run.history) == 7  # task + three request/response rounds, nothing lost


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("make, args", [
    (workloads.audit, {"n_files": 0}), (workloads.audit, {"n_files": "12"}),
    (workloads.audit, {"n_files": True}), (workloads.needle, {"n_lines": 5}),
    (workloads.constraints, {"n_lookups": 99}),
])
def test_bad_workload_parameters_are_named(make, args):
    name = next(iter(args))
    with pytest.raises(ValueError, match=name):
        make(**args)


@pytest.mark.parametrize("tool_input, expected", [
    ({"path": 7}, "field 'path' must be string"),
    ({}, "missing required field 'path'"),
    ({"path": "x", "offset": "ten"}, "field 'offset' must be integer"),
    ({"path": "x", "colour": 1}, "unknown field 'colour'"),
    ({"path": "a" * 10_000_000}, "Error:"),
])
def test_bad_tool_inputs_from_the_model_are_is_error_results(tmp_path, tool_input, expected):
    w = workloads.audit(3, root=str(tmp_path / "ws"))
    out = w.toolbox.run({"type": "tool_use", "id": "toolu_bad", "name": "read_file",
                         "input": tool_input})
    assert out["is_error"] and expected in out["content"]
    assert len(out["content"]) < 2_000  # a huge input is not echoed back


def test_run_agent_refuses_nonsense_settings():
    with pytest.raises(ValueError, match="max_steps"):
        run_agent(agentlib.connect(offline=True), workloads.audit(3), max_steps=0)


# ---------------------------------------------------------------- sandbox

ESCAPES = ["../x", "/etc/passwd", "a/../../x", "x\0y", "n" * 300, "a/" * 2100 + "x",
           "..\\x", "C:\\Windows\\win.ini"]


def test_every_tool_refuses_every_escape(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    ws = Workspace.from_files(tmp_path / "ws", {"a.txt": "hello\n"})
    (tmp_path / "ws" / "link").symlink_to(secret)
    attempts = 0
    for path in [*ESCAPES, "link"]:
        for name, args in (("read_file", {"path": path}),):
            out = agentlib.tools.Toolbox(ws.tools()).run(
                {"type": "tool_use", "id": "toolu_x", "name": name, "input": args})
            attempts += 1
            assert out.get("is_error") and "TOP SECRET" not in out["content"], path
    for filename in ["../notes.md", "/etc/passwd", "a/b.md", "", "..", "x\0y"]:
        attempts += 1
        with pytest.raises(ValueError):
            Notes(tmp_path / "notes", filename)
    box = memory_toolbox(tmp_path / "mem")
    (tmp_path / "mem" / "memories").mkdir(parents=True, exist_ok=True)
    (tmp_path / "mem" / "memories" / "link").symlink_to(secret)
    for path in ["/etc/passwd", "/memories/../../secret.txt", "../x", "/memories/link",
                 "/memories/" + "n" * 300, "/memories/a\0b"]:
        for command in ("view", "create"):
            attempts += 1
            out = box.run({"type": "tool_use", "id": "toolu_m", "name": "memory",
                           "input": {"command": command, "path": path, "file_text": "x"}})
            assert out.get("is_error") and "TOP SECRET" not in out["content"], (command, path)
    assert secret.read_text(encoding="utf-8") == "TOP SECRET"
    assert attempts == 27


# ---------------------------------------------------------------- secrets

KEY = re.compile(r"sk-ant-[A-Za-z0-9_-]{20,}")


def test_no_api_key_in_the_repository():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    found = [f for f in files if (ROOT / f).is_file()
             and KEY.search((ROOT / f).read_text(encoding="utf-8", errors="ignore"))]
    assert not found and len(files) > 20


def test_connect_and_errors_never_echo_the_key(monkeypatch):
    fake = "sk-ant-api03-" + "x" * 40
    monkeypatch.setenv("ANTHROPIC_API_KEY", fake)
    monkeypatch.delenv("AGENTLIB_OFFLINE", raising=False)
    real = agentlib.connect()
    assert fake not in repr(real) and fake not in str(vars(real).get("_custom_headers"))
    offline = agentlib.connect(offline=True)
    assert offline.api_key != fake
    with pytest.raises(anthropic.BadRequestError) as e:
        offline.messages.create(model="course-model-1", max_tokens=10, messages=[])
    assert fake not in str(e.value) and fake not in repr(e.value.body)
    monkeypatch.setenv("AGENTLIB_OFFLINE", "1")
    assert hasattr(agentlib.connect(), "course_model")


def test_files_are_opened_as_utf8():
    out = subprocess.run([str(Path(os.sys.executable).parent / "ruff"), "check",
                          "--select", "PLW1514", "--preview", "agentlib", "scripts",
                          "course.py", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
