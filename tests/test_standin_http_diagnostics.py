"""Cache diagnostics over real HTTP (`python3 course.py serve`): the same answers as in
process, through the SDK and through a raw client, streamed and not (docs/api-facts.md 5.11)."""

import http.client
import json
import threading

import anthropic
import pytest

import standin
from standin.http import StandinServer, build_model

MODEL = "course-model-1"
SYSTEM = "You read incident logs carefully and note each finding. " * 100
LOG_TOOL = {"name": "read_file", "description": "Read a file.",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                             "required": ["path"]}}


@pytest.fixture(autouse=True)
def scripted(monkeypatch):
    for name in ("AGENTLIB_UNSCRIPTED", "AGENTLIB_SEED", "AGENTLIB_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server():
    s = StandinServer(build_model(), port=0)
    threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield s
    s.shutdown()
    s.server_close()


def request(system: str, previous: str | None, **kw) -> dict:
    return {"model": MODEL, "max_tokens": 256, "tools": [LOG_TOOL], "system": system,
            "cache_control": {"type": "ephemeral"}, "diagnostics": {"previous_message_id": previous},
            "messages": [{"role": "user", "content": "Read `incident.log`."}], **kw}


def two_turns(client: anthropic.Anthropic):
    first = client.messages.create(**request(SYSTEM + "Now: 09:00", None))
    second = client.messages.create(**request(SYSTEM + "Now: 09:05", first.id))
    return first, second


def test_the_sdk_over_http_gets_what_it_gets_in_process(server):
    remote = anthropic.Anthropic(base_url=server.url, api_key="x", max_retries=0)
    _, http_client = standin.in_process()
    local = anthropic.Anthropic(base_url=standin.BASE_URL, api_key="x", http_client=http_client,
                                max_retries=0)
    first, second = two_turns(remote)
    assert first.diagnostics is None
    assert second.diagnostics.cache_miss_reason.type == "system_changed"
    assert [r.to_dict() for r in (first, second)] == [r.to_dict() for r in two_turns(local)]


def post(server, body: dict) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
    try:
        conn.request("POST", "/v1/messages", body=json.dumps(body).encode(),
                     headers={"content-type": "application/json", "x-api-key": "offline",
                              "anthropic-version": "2023-06-01"})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_a_raw_client_reads_the_reason_plain_and_streamed(server):
    status, body = post(server, request(SYSTEM, None))
    assert status == 200 and json.loads(body)["diagnostics"] is None
    first = json.loads(body)["id"]
    status, body = post(server, request(SYSTEM, "msg_unknown"))
    assert json.loads(body)["diagnostics"] == {
        "cache_miss_reason": {"type": "previous_message_not_found"}}
    status, body = post(server, request(SYSTEM + "!", first, stream=True))
    start = json.loads(body.decode().split("\n\n")[0].split("data: ", 1)[1])
    assert start["type"] == "message_start"
    reason = start["message"]["diagnostics"]["cache_miss_reason"]
    assert reason["type"] == "system_changed" and reason["cache_missed_input_tokens"] > 1000
    status, body = post(server, request(SYSTEM, None, diagnostics={"previous_message_id": 1}))
    assert status == 400 and json.loads(body)["error"]["message"] == \
        "diagnostics.previous_message_id: Input should be a valid string"
