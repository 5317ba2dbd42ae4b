"""The stand-in over real HTTP on 127.0.0.1 (`standin.http`, `python3 course.py serve`).

Each test starts its own server on a free port (port 0) in a background thread; two run
`python -m standin.http` as a process. Every reply is checked against what the same model
answers in process (`CourseModel.handle`, the SDK's transport), byte for byte.
"""

import http.client
import importlib.util
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import anthropic
import pytest
from hypothesis import given
from hypothesis import strategies as st

import standin
from agentlib.loop import DEFAULT_SYSTEM
from agentlib.messages import append_system, tool_removal, user
from coursekit import workloads
from standin.http import StandinServer, build_model

REPO = Path(__file__).resolve().parents[1]
MODEL = "course-model-1"
TASK = "Read `incident.log` and report the confirmed root cause of the incident."
LOG_TOOL = {"name": "read_file", "description": "Read a file.",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                             "required": ["path"]}}
CREATE = {"model": MODEL, "max_tokens": 512, "tools": [LOG_TOOL],
          "messages": [{"role": "user", "content": TASK}]}
COUNT = {"model": MODEL, "messages": [{"role": "user", "content": TASK}]}
STREAM_ORDER = re.compile(r"message_start (ping )*(content_block_start (content_block_delta )+"
                          r"content_block_stop (ping )*)+message_delta message_stop")
RAW_HEADERS = {"content-type": "application/json", "anthropic-version": "2023-06-01",
               "x-api-key": "offline"}


@pytest.fixture(autouse=True)
def scripted(monkeypatch):
    """The scripted course model, whatever the shell says."""
    for name in ("AGENTLIB_UNSCRIPTED", "AGENTLIB_SEED", "AGENTLIB_MODEL"):
        monkeypatch.delenv(name, raising=False)


def serve(model=None) -> StandinServer:
    server = StandinServer(model or build_model(), port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    return server


@pytest.fixture
def server():
    s = serve()
    yield s
    s.shutdown()
    s.server_close()


def sdk(server, **kw) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=server.url, api_key="x", max_retries=0, **kw)


def local_sdk() -> anthropic.Anthropic:
    """The same SDK on a fresh model in process (what `agentlib.connect()` does offline)."""
    _, http = standin.in_process()
    return anthropic.Anthropic(base_url=standin.BASE_URL, api_key="x", http_client=http,
                               max_retries=0)


def post(server, path: str, body, headers: dict | None = None):
    """(status, headers, body bytes) of one raw request with http.client: no SDK at all."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
    try:
        conn.request("POST", path, body=data, headers={**RAW_HEADERS, **(headers or {})})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def no_id(body: bytes) -> bytes:
    return re.sub(rb"req_offline_[0-9a-f]+", b"req_ID", body)


def api_error(body: bytes, kind: str) -> str:
    """The error message of a reply in the API's error shape, `kind` its type."""
    data = json.loads(body)
    assert set(data) == {"type", "error", "request_id"} and data["type"] == "error", data
    assert data["error"]["type"] == kind and data["request_id"].startswith("req_"), data
    return data["error"]["message"]


def sse_types(body: bytes) -> list[str]:
    """The event names of an SSE body, each checked against the `type` in its data."""
    names = []
    for event in body.decode().strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in event.splitlines())
        assert json.loads(lines["data"])["type"] == lines["event"]
        names.append(lines["event"])
    return names


# ---------------------------------------------------------------- through the SDK
def test_the_sdk_creates_a_message_as_in_process(server):
    reply = sdk(server).messages.create(**CREATE)
    assert [b.type for b in reply.content] == ["text", "tool_use"]
    assert reply.content[1].input == {"path": "incident.log"}
    assert reply.to_dict() == local_sdk().messages.create(**CREATE).to_dict()


def test_count_tokens_and_the_beta_forms(server):
    client, local = sdk(server), local_sdk()
    assert client.messages.count_tokens(**COUNT).input_tokens == \
        local.messages.count_tokens(**COUNT).input_tokens > 0
    beta = client.beta.messages.create(**CREATE, betas=["context-management-2025-06-27"])
    assert beta.to_dict() == local.beta.messages.create(
        **CREATE, betas=["context-management-2025-06-27"]).to_dict()
    assert client.beta.messages.count_tokens(**COUNT).input_tokens == \
        local.messages.count_tokens(**COUNT).input_tokens


@pytest.mark.parametrize("messages", [
    [],
    [{"role": "user", "content": TASK},
     {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read_file",
                                        "input": {"path": "incident.log"}}]},
     {"role": "user", "content": "go on"}],
], ids=["no-messages", "tool_use-without-tool_result"])
def test_a_400_is_worded_as_in_process(server, messages):
    params = {**CREATE, "messages": messages}
    with pytest.raises(anthropic.BadRequestError) as remote:
        sdk(server).messages.create(**params)
    with pytest.raises(anthropic.BadRequestError) as local:
        local_sdk().messages.create(**params)
    assert {**remote.value.body, "request_id": ""} == {**local.value.body, "request_id": ""}
    assert remote.value.response.headers["x-should-retry"] == "false"
    assert "tool_result" in str(remote.value.body) or "at least one message" in \
        str(remote.value.body)


def test_the_sdk_streams_the_apis_events(server):
    with sdk(server).messages.stream(**CREATE) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_message()
    # the SDK drops `ping` and adds its own events (`text`, `input_json`); the API's:
    api = [k for k in kinds if k.startswith(("message_", "content_block_"))]
    assert STREAM_ORDER.fullmatch(" ".join(api)), kinds
    assert {"text", "input_json"} <= set(kinds)
    with local_sdk().messages.stream(**CREATE) as local:
        assert final.to_dict() == local.get_final_message().to_dict()


# ---------------------------------------------------------------- raw HTTP, no SDK
def test_a_raw_client_reads_the_event_stream_chunked(server):
    status, headers, body = post(server, "/v1/messages", {**CREATE, "stream": True})
    assert status == 200 and headers["content-type"] == "text/event-stream"
    assert headers["transfer-encoding"] == "chunked"
    kinds = sse_types(body)
    assert STREAM_ORDER.fullmatch(" ".join(kinds)), kinds
    assert kinds.count("content_block_start") == 2  # the text, then the tool_use
    deltas = [json.loads(e.split("data: ", 1)[1])["delta"] for e in body.decode().split("\n\n")
              if e.startswith("event: content_block_delta")]
    tool_json = "".join(d["partial_json"] for d in deltas if d["type"] == "input_json_delta")
    assert json.loads(tool_json) == {"path": "incident.log"}


def test_urllib_alone_gets_a_message(server):
    request = urllib.request.Request(server.url + "/v1/messages?beta=true",
                                     data=json.dumps(CREATE).encode(), headers=RAW_HEADERS)
    with urllib.request.urlopen(request, timeout=10) as r:
        reply = json.loads(r.read())
    assert reply["type"] == "message" and reply["stop_reason"] == "tool_use"


@pytest.mark.parametrize("body, words", [
    (b"{not json", "The request body is not valid JSON: unexpected character, expected a "
                   "string key: line 1 column 2 (char 1)"),
    (b"[1, 2, 3]", "request body must be a JSON object"),
    (b"", "The request body is not valid JSON: Input is a zero-length, empty document: "
          "line 1 column 1 (char 0)"),
], ids=["bad-json", "json-array", "empty"])
def test_a_body_that_is_not_a_json_object_is_a_400(server, body, words):
    status, headers, out = post(server, "/v1/messages", body)
    assert status == 400 and headers["content-type"] == "application/json"
    assert api_error(out, "invalid_request_error") == words
    assert headers["request-id"] == json.loads(out)["request_id"]


@pytest.mark.parametrize("method, path", [("GET", "/v1/messages"), ("POST", "/v1/nothing"),
                                          ("DELETE", "/"), ("BREW", "/v1/messages")])
def test_an_unknown_path_or_method_is_a_404(server, method, path):
    conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
    conn.request(method, path, headers=RAW_HEADERS)
    r = conn.getresponse()
    out = r.read()
    conn.close()
    assert r.status == 404
    assert api_error(out, "not_found_error") == f"Not found: {method} {path.split('?')[0]}"


def test_a_garbled_request_line_gets_the_apis_shape_not_html(server):
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as s:
        s.sendall(b"POST /v1/messages HTTP/1.1 and more\r\n\r\n")
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert api_error(body, "invalid_request_error")


def test_a_chunked_body_is_read_as_a_whole(server):
    data = json.dumps(CREATE).encode()
    conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
    conn.request("POST", "/v1/messages", body=iter([data[:50], data[50:]]), headers=RAW_HEADERS,
                 encode_chunked=True)
    r = conn.getresponse()
    out = r.read()
    conn.close()
    assert (r.status, out) == post(server, "/v1/messages", CREATE)[::2]


def test_a_body_over_32_mb_is_refused_unread(server):
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as s:
        s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Length: 40000000\r\n\r\n")
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    assert api_error(body, "request_too_large") == \
        "Request exceeds the maximum allowed number of bytes."


def test_an_unexpected_failure_is_an_api_error_500_not_a_traceback(server, monkeypatch):
    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(server, "answer", broken)
    status, headers, out = post(server, "/v1/messages", CREATE)
    assert status == 500 and headers["x-should-retry"] == "true"
    assert api_error(out, "api_error") == "offline stand-in server failed: RuntimeError: boom"
    assert "Traceback" not in out.decode()


# ---------------------------------------------------------------- same bytes, any order
def sequence():
    """(path, body, extra headers): a create, a stream, a count, a beta, a 400, and a
    cached prefix twice (the prompt cache is state: the second call reads it)."""
    cached = {**CREATE, "system": [{"type": "text", "text": "You audit logs. " * 600,
                                    "cache_control": {"type": "ephemeral"}}]}
    return [
        ("/v1/messages", CREATE, {}),
        ("/v1/messages", {**CREATE, "stream": True}, {}),
        ("/v1/messages/count_tokens", COUNT, {}),
        ("/v1/messages?beta=true", CREATE, {"anthropic-beta": "context-management-2025-06-27"}),
        ("/v1/messages", {**CREATE, "messages": []}, {}),
        ("/v1/messages", b"{oops", {}),
        ("/v1/messages", cached, {}),
        ("/v1/messages", cached, {}),
    ]


def test_replies_are_byte_for_byte_the_in_process_ones(server):
    local = build_model()
    for path, body, extra in sequence():
        status, headers, out = post(server, path, body, extra)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        want_status, want_headers, want = local.handle(
            "POST", path.split("?")[0], {**RAW_HEADERS, **extra}, data)
        assert (status, no_id(out)) == (want_status, no_id(want)), path
        assert {k: v for k, v in headers.items() if k in want_headers and k != "request-id"} \
            == {k: v for k, v in want_headers.items() if k != "request-id"}
    assert json.loads(out)["usage"]["cache_read_input_tokens"] > 0  # the cache was shared


def test_twenty_requests_at_once_are_each_answered_as_sequentially(server):
    bodies = []
    for i in range(20):
        text = f"Request {i}: " + "please " * i + TASK
        body = {**CREATE, "messages": [{"role": "user", "content": text}]}
        bodies.append(("/v1/messages/count_tokens", {**COUNT, "messages": body["messages"]})
                      if i % 5 == 4 else ("/v1/messages", {**body, "stream": i % 3 == 0}))
    local = build_model()
    expected = [local.handle("POST", path, RAW_HEADERS, json.dumps(body).encode())
                for path, body in bodies]
    got: list = [None] * len(bodies)
    start = threading.Barrier(len(bodies))

    def send(i):
        start.wait()
        got[i] = post(server, *bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(g is not None for g in got)
    for (status, _, out), (want_status, _, want) in zip(got, expected, strict=True):
        assert (status, out) == (want_status, want)
    assert len({out for _, _, out in got}) == len(bodies)  # twenty different replies



def test_over_http_a_system_message_and_a_tool_change_answer_as_in_process(server):
    w = workloads.audit(3)
    body = {"model": "claude-sonnet-5-5", "max_tokens": 512, "tools": w.tools, "system": DEFAULT_SYSTEM,
            "messages": append_system([user(w.task)], tool_removal("list_files"),
                                      "Listing is disabled; the files are services/auth.conf.")}
    status, _, raw = post(server, "/v1/messages", body,
                          {"anthropic-beta": "mid-conversation-tool-changes-2026-07-01"})
    assert status == 200
    here = local_sdk().beta.messages.create(**body, betas=["mid-conversation-tool-changes-2026-07-01"]).to_dict()
    there = json.loads(raw)
    assert there["content"] == here["content"] and there["usage"] == here["usage"]
    assert "list_files" not in [b.get("name") for b in there["content"]]
    status, _, raw = post(server, "/v1/messages", {**body, "model": "claude-sonnet-5"},
                          {"anthropic-beta": "mid-conversation-tool-changes-2026-07-01"})
    assert status == 400 and json.loads(raw)["error"]["message"] == \
        "role 'system' is not supported on this model"
    reply = sdk(server).messages.create(**{**body, "messages": append_system(
        [user(w.task)], "Reminder: answer as a list.")})
    assert reply.stop_reason == "tool_use"

# ---------------------------------------------------------------- the command
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`python -m standin.http --port PORT` as a process, its output read by two threads."""

    def __init__(self, port: int):
        env = {k: v for k, v in os.environ.items()
               if k not in ("AGENTLIB_UNSCRIPTED", "AGENTLIB_SEED", "AGENTLIB_MODEL")}
        self.proc = subprocess.Popen([sys.executable, "-m", "standin.http", "--port", str(port)],
                                     cwd=REPO, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue = queue.Queue()
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self.read, args=(stream, into), daemon=True)
                        for stream, into in ((self.proc.stdout, self.out),
                                             (self.proc.stderr, self.err))]
        for t in self.readers:
            t.start()

    def read(self, stream, into: list[str]) -> None:
        for line in stream:
            into.append(line)
            if into is self.out:
                self.lines.put(line)

    def wait_for_line(self, prefix: str, seconds: float = 20) -> str:
        """The first stdout line starting with `prefix`, waited for up to a deadline."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line.startswith(prefix):
                return line.strip()
        self.proc.kill()
        raise AssertionError(f"no {prefix!r} line in {seconds} s: {self.output()}")

    def finish(self, seconds: float = 15) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) once the process has ended (killed after `seconds`)."""
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for t in self.readers:
            t.join(5)
        return self.proc.returncode, "".join(self.out), "".join(self.err)

    def output(self) -> str:
        return "".join(self.out) + "".join(self.err)


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is POSIX")
def test_the_command_serves_until_ctrl_c():
    port = free_port()
    served = Served(port)
    try:
        line = served.wait_for_line("ANTHROPIC_BASE_URL=")
        assert line == f"ANTHROPIC_BASE_URL=http://127.0.0.1:{port}"
        client = anthropic.Anthropic(base_url=line.split("=", 1)[1], api_key="offline",
                                     max_retries=0)
        assert client.messages.create(**CREATE).stop_reason == "tool_use"
        served.proc.send_signal(signal.SIGINT)
    finally:
        code, out, err = served.finish()
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "The offline stand-in stopped."
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "POST /v1/messages 200" in err  # one line per request


def test_a_second_server_on_the_same_port_exits_2_and_says_why(server):
    code, out, err = Served(server.server_port).finish(30)
    assert code == 2, (out, err)
    assert f"port {server.server_port} is already in use" in err and "--port" in err
    assert "Traceback" not in err


def course_script():
    spec = importlib.util.spec_from_file_location("course_script", REPO / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    return course


def test_course_py_serve_becomes_the_module_with_the_venvs_python(monkeypatch):
    """On POSIX the launcher execs the server (one process: every signal reaches it);
    elsewhere it runs it as a child."""
    course, ran = course_script(), []
    monkeypatch.setattr(course.os, "execv", lambda path, cmd: ran.append(("exec", cmd)))
    monkeypatch.setattr(course.os, "chdir", lambda path: None)
    monkeypatch.setattr(course, "run", lambda cmd, **kw: ran.append(("run", cmd)) or 0)
    course.COMMANDS["serve"](Path("venv-python"), ["--port", "9000"])
    how = "exec" if os.name == "posix" else "run"
    assert ran == [(how, ["venv-python", "-m", "standin.http", "--port", "9000"])]
    assert "course.py serve" in course.USAGE


# ---------------------------------------------------------------- hostile bytes
def body_with(model: str = '"course-model-1"', key: str = '"model"', text: str = '"hi"') -> bytes:
    """A create body written by hand, so that it can hold what json.dumps never writes."""
    return (f'{{{key}: {model}, "max_tokens": 64, "messages": [{{"role": "user", '
            f'"content": {text}}}]}}').encode()


SURROGATE = "The request body is not valid JSON: no low surrogate in string: line 1 column"


@pytest.mark.parametrize("body, words", [
    (body_with(model='"\\ud800"'), SURROGATE),
    (body_with(key='"mod\\ud83del"'), SURROGATE),  # a JS string cut mid-emoji, in a field name
    (body_with(text='"cut \\ud83d"'), SURROGATE),
    (body_with(text='"\\udc00 alone"'),
     "The request body is not valid JSON: invalid high surrogate in string: line 1 column"),
    (body_with(text='"raw"').replace(b"raw", b"\xed\xa0\x80"),  # a surrogate in raw UTF-8
     "The request body is not valid JSON: str is not valid UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000,
     "The request body is not valid JSON: depth limit exceeded: line 1 column 1026 (char 1025)"),
    (body_with(text='[{"type": "text", "text": "hi", "x": ' + "[" * 1025 + "]" * 1025 + "}]"),
     "The request body is not valid JSON: depth limit exceeded"),
    (body_with(text="NaN"), "The request body is not valid JSON: unexpected character"),
], ids=["model", "field-name", "message-text", "lone-low", "utf8-surrogate-bytes",
        "nested-100000", "nested-1025-in-a-block", "nan"])
def test_a_malformed_body_is_the_apis_400_never_a_500(server, body, words):
    """Each answered as the API answers it (docs/api-facts.md 19.3): 400, not retryable,
    with its parser's words; the SDK raises it at once, with no retry."""
    status, headers, out = post(server, "/v1/messages", body)
    assert (status, headers["x-should-retry"]) == (400, "false")
    assert api_error(out, "invalid_request_error").startswith(words)
    client = anthropic.Anthropic(base_url=server.url, api_key="x", max_retries=3)
    calls = server.model.calls
    with pytest.raises(anthropic.BadRequestError, match="not valid JSON"):
        client.post("/v1/messages", cast_to=anthropic.types.Message, content=body,
                    options={"headers": {"content-type": "application/json"}})
    assert server.model.calls == calls + 1  # never retried


def test_nesting_the_parser_takes_but_python_cannot_follow_is_a_400():
    """Within the parser's 1,024 levels, deeper than the stand-in's Python can recurse."""
    model = build_model()
    deep = "[" * 1000 + "]" * 1000
    body = body_with(text='[{"type": "text", "text": "hi"}]').replace(
        b'"max_tokens": 64', b'"max_tokens": 64, "metadata": {"user_id": "u"}, "tools": '
        b'[{"name": "t", "input_schema": {"type": "object", "x": ' + deep.encode() + b"}}]")
    status, headers, out = model.handle("POST", "/v1/messages", RAW_HEADERS, body)
    assert (status, headers["x-should-retry"]) == (400, "false"), out[:300]
    assert "nested too deeply" in api_error(out, "invalid_request_error")


def test_an_http_10_client_gets_a_plain_stream_that_ends_with_the_connection(server):
    body = json.dumps({**CREATE, "stream": True}).encode()
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as s:
        s.sendall(b"POST /v1/messages HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"X-Api-Key: k\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        raw = b""
        while chunk := s.recv(65536):  # the server closes: that is the end of the stream
            raw += chunk
    head, _, out = raw.partition(b"\r\n\r\n")
    head = head.decode().lower()
    assert head.split("\r\n")[0].split()[1] == "200" and "text/event-stream" in head
    assert "transfer-encoding" not in head and "content-length" not in head  # RFC 9112 6.1
    assert out == build_model().handle("POST", "/v1/messages", RAW_HEADERS, body)[2]
    assert STREAM_ORDER.fullmatch(" ".join(sse_types(out)))


def test_every_request_gets_its_own_request_id(server):
    ids = [post(server, "/v1/messages", body)[1]["request-id"]
           for body in (CREATE, CREATE, b"", b"", b"{oops")]
    ids.append(post(server, "/v1/messages", b"", {"Content-Length": "oops"})[1]["request-id"])
    assert len(set(ids)) == len(ids) and all(i.startswith("req_") for i in ids)
    other = serve()  # another start of the server: other ids for the same requests
    try:
        assert post(other, "/v1/messages", CREATE)[1]["request-id"] not in ids
    finally:
        other.shutdown()
        other.server_close()


def test_a_request_without_a_key_is_the_apis_401(server, monkeypatch):
    status, headers, out = post(server, "/v1/messages", CREATE, {"x-api-key": ""})
    assert (status, headers["x-should-retry"]) == (401, "false")
    assert api_error(out, "authentication_error") == "x-api-key header is required"
    assert post(server, "/v1/messages", CREATE, {"x-api-key": "",
                                                 "authorization": "Bearer t"})[0] == 200
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    keyless = anthropic.Anthropic(base_url=server.url, api_key=None, max_retries=3,
                                  default_headers={"Authorization": anthropic.Omit()})
    with pytest.raises(anthropic.AuthenticationError):
        keyless.messages.create(**CREATE)
    # the SDK sends its key as `Authorization: Bearer`: what the lessons' client does
    assert sdk(server).messages.create(**CREATE).type == "message"
    token = anthropic.Anthropic(base_url=server.url, auth_token="t", max_retries=0)
    assert token.models.list().data


def test_the_sdk_lists_and_retrieves_the_catalogs_models(server):
    from apiwire import models

    strict = anthropic.Anthropic(base_url=server.url, api_key="x", max_retries=0,
                                 _strict_response_validation=True)
    page = strict.models.list(limit=4)
    assert len(page.data) == 4 and page.has_more and page.first_id == page.data[0].id
    listed = [m.id for m in strict.models.list(limit=4)]  # every page, by after_id
    assert listed == [m.id for m in strict.models.list(limit=1000).data]
    served = {m for m in models.CATALOG if models.get(m) and models.CATALOG[m].status != "retired"}
    assert set(listed) <= served and "course-model-1" in listed
    assert set(listed) | {"claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-5"} == served
    back = strict.models.list(before_id=listed[5], limit=2)
    assert [m.id for m in back.data] == listed[3:5]
    one = strict.models.retrieve("claude-sonnet-5-5")
    assert (one.display_name, one.max_input_tokens, one.max_tokens, one.lifecycle) == \
        ("Claude Sonnet 5.5", 1_000_000, 128_000, "active")
    assert strict.models.retrieve("claude-haiku-4-5").id == "claude-haiku-4-5-20251001"
    assert strict.models.retrieve("claude-sonnet-4-5").lifecycle == "deprecated"
    retired = strict.models.list(lifecycle=["retired"]).data
    assert [m.id for m in retired] == ["claude-mythos-preview"]
    assert strict.beta.models.list().data[0].id == listed[0]
    with pytest.raises(anthropic.NotFoundError, match="model: claude-nothing"):
        strict.models.retrieve("claude-nothing")
    with pytest.raises(anthropic.BadRequestError, match="limit"):
        strict.models.list(limit=0)


@pytest.mark.parametrize("how", ["kill", "hangup", "ctrl-c", "timeout"])
@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_course_py_serve_stops_on_every_signal_and_frees_its_port(how):
    """`python3 course.py serve` stopped by `kill` (SIGTERM), a closed terminal (SIGHUP),
    Ctrl-C (SIGINT to the whole process group) or `timeout`: within 5 s, nothing left
    running, the port free again."""
    port = free_port()
    cmd = [sys.executable, str(REPO / "course.py"), "serve", "--port", str(port), "--quiet"]
    if how == "timeout":
        cmd = ["timeout", "5", *cmd]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("ANTHROPIC_BASE_URL="):
                break
        assert lines and lines[-1].startswith("ANTHROPIC_BASE_URL="), "".join(lines)
        start = time.monotonic()
        if how == "kill":
            proc.send_signal(signal.SIGTERM)
        elif how == "hangup":
            proc.send_signal(signal.SIGHUP)
        elif how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        code = proc.wait(timeout=15)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    rest = proc.stdout.read()
    assert took < 5 + (5 if how == "timeout" else 0), took
    assert code == (124 if how == "timeout" else 0), rest
    assert rest.strip().endswith("The offline stand-in stopped."), rest
    left = subprocess.run(["pgrep", "-f", f"standin.http --port {port}"],
                          capture_output=True, text=True).stdout.split()
    assert left == [], f"still running: {left}"
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # the port is free again


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) |
    st.text(st.characters(codec=None, exclude_categories=()), max_size=8),  # surrogates too
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=12)
FIELDS = sorted({*CREATE, "system", "tool_choice", "thinking", "stream", "stop_sequences",
                 "metadata", "container", "output_config", "context_management", "cache_control",
                 "service_tier", "speed", "max_tokens", "anything"})


@given(st.sampled_from(FIELDS), JSON, st.sampled_from(["top", "message", "block"]))
def test_no_body_gets_a_5xx(field, value, where):
    """Any JSON in any field (lone surrogates, deep lists, wrong types): an answer in the
    API's shape below 500, never a traceback or a retry."""
    model = build_model()
    request = json.loads(json.dumps(CREATE))
    if where == "top":
        request[field] = value
    elif where == "message":
        request["messages"][0][field] = value
    else:
        request["messages"][0]["content"] = [{"type": "text", "text": "hi", field: value}]
    body = json.dumps(request).encode()  # ensure_ascii: a lone surrogate as its \\u escape
    status, headers, out = model.handle("POST", "/v1/messages", RAW_HEADERS, body)
    assert status < 500, out[:300]
    assert status == 200 or headers["x-should-retry"] == "false"
