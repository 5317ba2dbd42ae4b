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

import standin
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
    assert remote.value.body == local.value.body
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
    (b"{not json", "There was an error parsing the body"),
    (b"[1, 2, 3]", "request body must be a JSON object"),
    (b"", "request body must be a JSON object"),
], ids=["bad-json", "json-array", "empty"])
def test_a_body_that_is_not_a_json_object_is_a_400(server, body, words):
    status, headers, out = post(server, "/v1/messages", body)
    assert status == 400 and headers["content-type"] == "application/json"
    assert words in api_error(out, "invalid_request_error")
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


def test_course_py_serve_runs_the_module_with_the_venvs_python(monkeypatch):
    spec = importlib.util.spec_from_file_location("course_script", REPO / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    ran = []
    monkeypatch.setattr(course, "run", lambda cmd, **kw: ran.append(cmd) or 0)
    assert course.COMMANDS["serve"](Path("venv-python"), ["--port", "9000"]) == 0
    assert ran == [["venv-python", "-m", "standin.http", "--port", "9000"]]
    assert "course.py serve" in course.USAGE
