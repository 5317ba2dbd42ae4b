"""The SDK's own example scripts, run unchanged but for marked lines, against the stand-in.

The copies live in tests/sdk_examples/ (from anthropics/anthropic-sdk-python at commit
009b0353); every changed line ends with `# course: ...`. Both examples thread by default
(`tool_runner` sends `thread`); the stand-in answers `thread_unsupported_request` and the
SDK falls back to sending the whole conversation, so each run makes one extra request.
"""

import runpy
from pathlib import Path

from coursekit import workloads

EXAMPLES = Path(__file__).parent / "sdk_examples"


def _printed(into: list):
    def fake_print(*args, **kwargs):
        into.extend(args)
    return fake_print


def test_tools_runner_example_finds_the_root_cause():
    """examples/tools_runner.py. Changed: the client line (the offline client); `rich.print`
    became `print`, because `rich` is not installed in the course's environment; the user's
    question ("What is the weather in SF?", not a course task) became the needle task, and
    the workspace's `read_file` joined `get_weather` in `tools`, since the course model only
    performs the course's tasks. The model name (claude-sonnet-5, which thinks by default)
    and everything else are the example's."""
    printed: list = []
    module = runpy.run_path(str(EXAMPLES / "tools_runner.py"),
                            init_globals={"print": _printed(printed)})
    work, client = module["work"], module["client"]
    final = printed[-1]
    assert final.stop_reason == "end_turn" and final.model == "claude-sonnet-5"
    answer = "\n".join(b.text for b in final.content if b.type == "text")
    assert work.score(answer).success, answer
    assert any(b.type == "thinking" for m in printed for b in m.content)  # Sonnet 5 thinks
    # turn 1 threaded and refused, turn 1 again in full, then one request per tool round
    assert client.course_model.calls == len(printed) + 1


def test_memory_example_audits_and_keeps_notes(tmp_path, monkeypatch):
    """examples/memory/basic.py. Changed: the client line (the offline client); the audit's
    `list_files` and `read_file` tools joined `memory` in `tools`, since the course model
    only performs the course's tasks and the audit needs them. The interactive session is
    fed by the test (the audit task, `/memory_view`, `/quit`) through `input`, and runs in
    a temporary folder, where the example's memory tool keeps ./memory."""
    monkeypatch.chdir(tmp_path)
    task = workloads.audit(12).task
    typed = iter([task, "/memory_view", "/quit"])
    printed: list = []
    runpy.run_path(str(EXAMPLES / "memory_basic.py"), run_name="__main__",
                   init_globals={"input": lambda prompt="": next(typed),
                                 "print": _printed(printed)})
    text = "".join(str(p) for p in printed)
    answer = text[text.index("Answer:"):text.index("📁 Memory contents:")]
    assert workloads.audit(12).score(answer).success, answer
    notes = (tmp_path / "memory" / "memories" / "notes.md").read_text(encoding="utf-8")
    assert "Noted [13/13]" in notes  # the findings went to memory before the answer
    assert "[Memory tool called: view]" in text and "[Memory tool called: create]" in text
    assert "notes.md" in text.split("📁 Memory contents:")[1]
