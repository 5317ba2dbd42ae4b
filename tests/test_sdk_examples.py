"""The SDK's own example scripts, run unchanged but for marked lines, against the stand-in.

The copies live in tests/sdk_examples/ (from the source distribution of the anthropic SDK
2.14.0, the version constraints.txt pins); every changed line ends with `# course: ...`. Both examples thread by default
(`tool_runner` sends `thread`); the stand-in answers `thread_unsupported_request` and the
SDK falls back to sending the whole conversation, so each run makes one extra request.
"""

import copy
import re
import runpy
import sys
import threading
from pathlib import Path

import anthropic
import pytest

from coursekit import workloads

EXAMPLES = Path(__file__).parent / "sdk_examples"
sys.path.insert(0, str(EXAMPLES))
import all_params  # noqa: E402  (tests/sdk_examples/all_params.py)


def _printed(into: list):
    def fake_print(*args, **kwargs):
        into.extend(args)
    return fake_print


def test_tools_runner_example_finds_the_root_cause():
    """examples/tools_runner.py. Changed: the client line (the offline client); `rich.print`
    became `print`, because `rich` is not installed in the course's environment; the user's
    question ("What is the weather in SF?", not a course task) became the needle task, and
    the workspace's `read_file` joined `get_weather` in `tools`, since the course model only
    performs the course's tasks. The model name (claude-sonnet-5-5, which thinks by default)
    and everything else are the example's."""
    printed: list = []
    module = runpy.run_path(str(EXAMPLES / "tools_runner.py"),
                            init_globals={"print": _printed(printed)})
    work, client = module["work"], module["client"]
    final = printed[-1]
    assert final.stop_reason == "end_turn" and final.model == "claude-sonnet-5-5"
    answer = "\n".join(b.text for b in final.content if b.type == "text")
    assert work.score(answer).success, answer
    assert any(b.type == "thinking" for m in printed for b in m.content)  # Sonnet 5.5 thinks
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


# ---------------------------------------------------------------- every parameter the SDK sends
NOT_OFFERED = re.compile(r"^(?P<where>[\w.\-]+): .+ is not supported by the offline course "
                         r"model\. It emulates only what the course uses")
EMULATED_BETAS = ["context-management-2025-06-27", "compact-2026-09-04",
                  "message-threads-2026-08-12"]
REFUSALS = {  # documented answers to these requests as the SDK's tests write them
    # §11.1: the generated test's placeholder beta `string` is no beta at all
    "Unexpected value(s) `string` for the `anthropic-beta` header": "betas",
    # §20: the one tool is deferred and no tool search tool is given to find it
    "All tools have defer_loading set. At least one tool must be non-deferred.":
        "tools.0.defer_loading",
    # §2.9: beta fields sent without their betas, which are refused by name (§9.4, §11)
    "output_config.task_budget: Extra inputs are not permitted": "output_config.task_budget",
    "thinking.adaptive.block_binding: Extra inputs are not permitted": "thinking.block_binding",
    # §7.2.2: on-demand compaction is a request of its own, not with context editing
    "compaction: cannot be combined with `context_management`": "compaction",
}


def _drop(params: dict, where: str) -> None:
    """Take the parameter at a dotted path (`tools.0.strict`) out of `params`."""
    *path, last = where.split(".")
    obj = params
    for key in path:
        obj = obj[int(key)] if isinstance(obj, list) else obj[key]
    assert (last if isinstance(obj, dict) else int(last)) in (obj if isinstance(obj, dict)
                                                              else range(len(obj))), where
    del obj[int(last) if isinstance(obj, list) else last]


def replay(client, method: str, params: dict) -> list[str]:
    """Send the SDK's request; while it is refused, take out what the refusal names and send
    again. Each refusal must name a parameter of the request in the course's words (or be
    one of the documented answers above); the request left must be served. Returns what
    was refused, in order."""
    call = client
    for name in method.split("."):
        call = getattr(call, name)
    refused = []
    for _ in range(40):
        try:
            reply = call(**params)
            if params.get("stream"):
                events = list(reply)
                assert events[-1].type == "message_stop"
            return refused
        except anthropic.APIStatusError as e:
            assert e.status_code == 400, (e.status_code, e.body)
            text = e.body["error"]["message"]
            assert "Input should be" not in text, text  # never a validation error of a type
            named = NOT_OFFERED.match(text)
            if named and named["where"] == "anthropic-beta":
                refused.append(f"betas={params['betas']}")
                params["betas"] = EMULATED_BETAS
            elif named and named["where"] in ("user_profile_id", "workspace_id"):  # headers
                refused.append(named["where"])
                del params[named["where"]]
            elif named:
                refused.append(named["where"])
                _drop(params, named["where"])
            elif (e.body["error"].get("details") or {}).get("error_code") == \
                    "thread_unsupported_request":  # §12: the SDK's runner falls back
                refused.append("thread")
                del params["thread"]
            else:
                where = next((w for t, w in REFUSALS.items() if text.startswith(t)), None)
                assert where, f"neither served nor refused by name: {text}"
                refused.append(f"({where})")
                if where == "betas":
                    params["betas"] = EMULATED_BETAS
                else:
                    _drop(params, where)
    raise AssertionError(f"still refused after 40 tries: {refused}")


@pytest.fixture(scope="module")
def served():
    from standin.http import StandinServer, build_model

    server = StandinServer(build_model(), port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name", sorted(all_params.CALLS))
def test_the_sdks_all_parameter_requests_are_served_or_refused_by_name(served, name):
    """The SDK 2.14 generated tests' requests with every parameter, over HTTP, the replies
    read with strict validation: each parameter is served, or refused by name."""
    method, params = all_params.CALLS[name]
    client = anthropic.Anthropic(base_url=served.url, api_key="offline", max_retries=0,
                                 _strict_response_validation=True)
    sent = copy.deepcopy(params)
    refused = replay(client, method, sent)
    facts = (EXAMPLES.parent.parent / "docs" / "api-facts.md").read_text(encoding="utf-8")
    section = facts[facts.index("## 10. Request parameters"):facts.index("## 11. Betas")]
    for where in refused:
        top = where.strip("()").split("=")[0].split(".")
        assert f"`{top[0]}`" in section or f"`{top[-1]}`" in section, \
            f"docs/api-facts.md section 10 does not say what happens to {where}"
    assert "container.skills" in refused or "container" not in params
    # what was left was served: most of the request
    assert len(sent) > len(params) // 2, (sorted(sent), refused)
