"""The stand-in as a real HTTP server: any client can reach it (`python3 course.py serve`).

    python -m standin.http [--port 8765] [--seed N] [--context-window N] [--quiet]

It listens on 127.0.0.1 only and hands every request, whatever its method or path, to
`CourseModel.handle`, the same entry point the in-process transport uses, so a request
gets the same reply byte for byte over HTTP as in process (all but the request id, new
for each request). What the server adds is only HTTP itself:

- the path with its query string, as `transport.py` passes it; repeated headers are
  joined with ", ", as httpx joins them;
- a JSON reply is sent with Content-Length; a `text/event-stream` reply is sent with
  chunked transfer encoding to an HTTP/1.1 client, one chunk per server-sent event,
  flushed as it goes, and to an HTTP/1.0 client as a plain stream that ends when the
  connection closes (RFC 9112 forbids chunked in a reply to HTTP/1.0);
- what never reaches the model gets an error in the API's shape, never an HTML page or a
  traceback: a body that cannot be read (400), over the 32 MB limit (413), a request line
  or headers http.server refuses (400/414/431), an unexpected failure (500 `api_error`);
- SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`) and SIGHUP (a closed terminal) stop it and
  free the port.

The model keeps state (its call counter, the prompt cache) and does no I/O: one lock
serializes the calls into it, so concurrent requests are each answered as if sent one
after another. Each behaviour and its source: docs/api-facts.md, section 19.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import socketserver
import sys
import threading
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standin import in_process
from standin.errors import APIError
from standin.server import ERROR_TYPES, MAX_REQUEST_BYTES, CourseModel, _dump

HOST = "127.0.0.1"
DEFAULT_PORT = 8765
Reply = tuple[int, dict[str, str], bytes]


def error_reply(model: CourseModel, status: int, message: str) -> Reply:
    """An error in the API's shape, headers included (`CourseModel.error`); a 4xx the
    model's table lacks (414, 431) is an `invalid_request_error`, as the docs allow."""
    status, headers, out = model.error(APIError(status, message), model.request_id())
    if status < 500 and status not in ERROR_TYPES:
        data = json.loads(out)
        data["error"]["type"] = "invalid_request_error"
        out = _dump(data)
    return status, headers, out


def sse_events(body: bytes) -> Iterator[bytes]:
    """The events of an SSE body, each with its blank line: joined, they are the body."""
    start = 0
    while start < len(body):
        end = body.find(b"\n\n", start)
        end = len(body) if end < 0 else end + 2
        yield body[start:end]
        start = end


class BodyError(Exception):
    """A request body that cannot be read: answered with `status`, never passed on."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class StandinServer(ThreadingHTTPServer):
    """A threading HTTP server on 127.0.0.1 around one `CourseModel` (port 0: any free one)."""

    daemon_threads = True  # an idle keep-alive connection never holds up Ctrl-C
    request_queue_size = 128  # socketserver's 5 resets a burst of connections
    # SO_REUSEADDR lets a restart bind at once on POSIX; on Windows it would let a second
    # server share the port, which must fail instead
    allow_reuse_address = os.name != "nt"

    def __init__(self, model: CourseModel, port: int = 0, quiet: bool = True):
        self.model = model
        model.salt = os.urandom(8).hex().encode()  # ids unlike any earlier start's
        self.lock = threading.Lock()
        self.quiet = quiet
        super().__init__((HOST, port), Handler)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # without HTTPServer's getfqdn (a DNS lookup)
        self.server_name, self.server_port = self.server_address[:2]

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_port}"

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
        """The model's reply, one call at a time."""
        with self.lock:
            return self.model.handle(method, path, headers, body)

    def handle_error(self, request, client_address) -> None:
        """One line, never a traceback; a client that went away is not an error."""
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError):
            print(f"standin.http: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)


class Handler(BaseHTTPRequestHandler):
    """Every method goes to the model (which answers 404 to all but POST on its paths)."""

    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
    server: StandinServer

    def version_string(self) -> str:  # the Server header
        return "standin"

    def __getattr__(self, name: str):
        if name.startswith("do_"):  # do_POST, do_GET, do_PUT, ... any method at all
            return self.answer
        raise AttributeError(name)

    def answer(self) -> None:
        self.sent = False
        try:
            try:
                body = self.read_body()
            except BodyError as e:
                self.close_connection = True  # what is left of the body is not read
                return self.send(*error_reply(self.server.model, e.status, e.message))
            path = self.path.split("#", 1)[0]
            self.send(*self.server.answer(self.command, path, self.joined_headers(), body))
        except ConnectionError:
            self.close_connection = True  # the client went away
        except Exception as e:  # a bug here must still look like an API answer
            self.close_connection = True
            if not self.sent:
                self.send(*error_reply(self.server.model, 500, "offline stand-in server "
                                       f"failed: {type(e).__name__}: {e}"))

    def joined_headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        for key, value in self.headers.items():
            key = key.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        return headers

    def read_body(self) -> bytes:
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            return self.read_chunked()
        raw = self.headers.get("content-length")
        if raw is None:
            return b""
        try:
            length = int(raw)
            if length < 0:
                raise ValueError
        except ValueError:
            raise BodyError(400, f"Content-Length must be a number of bytes, got {raw!r}") \
                from None
        if length > MAX_REQUEST_BYTES:
            raise BodyError(413, "Request exceeds the maximum allowed number of bytes.")
        body = self.rfile.read(length)
        if len(body) < length:
            raise ConnectionResetError("the client closed the connection mid-body")
        return body

    def read_chunked(self) -> bytes:
        parts, total = [], 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
                if size < 0:
                    raise ValueError
            except ValueError:
                raise BodyError(400, "There was an error parsing the body: bad chunk size "
                                f"{line[:40]!r}") from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(parts)
            total += size
            if total > MAX_REQUEST_BYTES:
                raise BodyError(413, "Request exceeds the maximum allowed number of bytes.")
            parts.append(self.rfile.read(size))
            if len(parts[-1]) < size:
                raise ConnectionResetError("the client closed the connection mid-body")
            self.rfile.readline(1024)  # the CRLF after each chunk

    def send(self, status: int, headers: dict[str, str], body: bytes) -> None:
        """The reply as the model made it; an event stream event by event, chunked to an
        HTTP/1.1 client, close-delimited to an HTTP/1.0 one."""
        self.sent = True
        streaming = headers.get("content-type", "").startswith("text/event-stream")
        chunked = streaming and self.request_version == "HTTP/1.1"
        if streaming and not chunked:
            self.close_connection = True  # the end of the stream is the end of the connection
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        if streaming:
            self.send_header("cache-control", "no-cache")
            if chunked:
                self.send_header("transfer-encoding", "chunked")
        else:
            self.send_header("content-length", str(len(body)))
        if self.close_connection:
            self.send_header("connection", "close")
        self.end_headers()
        if self.command == "HEAD":
            return
        if not streaming:
            self.wfile.write(body)
            return
        for event in sse_events(body):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event) if chunked else event)
            self.wfile.flush()
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None
                   ) -> None:
        """http.server's own refusals (bad request line, headers too long, ...) in the
        API's shape instead of its HTML page."""
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # a garbled request line: still say HTTP/1.1
            self.request_version = "HTTP/1.1"
        try:
            text = message or HTTPStatus(code).phrase
        except ValueError:
            text = message or "error"
        self.send(*error_reply(self.server.model, code, text))

    def log_request(self, code="-", size="-") -> None:
        if not self.server.quiet:
            code = getattr(code, "value", code)
            print(f"{self.command or '-'} {getattr(self, 'path', '-')} {code}", file=sys.stderr,
                  flush=True)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server's name)
        if not self.server.quiet:
            print(f"standin.http: {format % args}", file=sys.stderr, flush=True)


def build_model(seed: int | None = None, context_window: int | None = None) -> CourseModel:
    """The model `standin.in_process` builds: unscripted from `seed` if given, else what
    AGENTLIB_UNSCRIPTED/AGENTLIB_SEED say (the scripted course model by default)."""
    model, client = in_process(context_window=context_window,
                               unscripted=True if seed is not None else None, seed=seed)
    client.close()  # only the model is wanted here
    return model


def address_in_use(e: OSError) -> bool:
    return e.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)) or \
        getattr(e, "winerror", None) == 10048


STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")  # Ctrl-C; kill and timeout; a closed terminal


def interrupted(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python3 course.py serve",
        description="Serve the offline stand-in for the Messages API over HTTP on 127.0.0.1: "
                    "POST /v1/messages (stream: true too), /v1/messages/count_tokens and GET "
                    "/v1/models.")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT,
                    help=f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free one)")
    ap.add_argument("--seed", type=int, help="serve the unscripted stand-in, varied from N")
    ap.add_argument("--context-window", type=int, metavar="N",
                    help="replace every model's context window with N tokens")
    ap.add_argument("--quiet", action="store_true", help="no line per request on stderr")
    a = ap.parse_args(argv)
    if not 0 <= a.port <= 65535:
        ap.error(f"--port must be between 0 and 65535, got {a.port}")
    if a.context_window is not None and a.context_window <= 0:
        ap.error(f"--context-window must be a positive number of tokens, got {a.context_window}")
    model = build_model(a.seed, a.context_window)
    try:
        server = StandinServer(model, a.port, quiet=a.quiet)
    except OSError as e:
        if address_in_use(e):
            print(f"port {a.port} is already in use on {HOST} (another `course.py serve`, or "
                  f"another program). Stop it, or choose another port with --port, e.g. "
                  f"python3 course.py serve --port {a.port + 1 if a.port < 65535 else 8766}",
                  file=sys.stderr)
        else:
            print(f"cannot listen on {HOST}:{a.port}: {e.strerror or e}. Choose another port "
                  "with --port.", file=sys.stderr)
        return 2
    what = ("the scripted course model" if model.unscripted is None else
            f"the unscripted stand-in, seed {model.unscripted.seed}, answering as {model.model}")
    window = f", every window {model.context_window:,} tokens" if model.context_window else ""
    # Ctrl-C stops it even when started as a background job (which inherits SIGINT
    # ignored); `kill` and `timeout` (SIGTERM) and a closed terminal (SIGHUP) as cleanly:
    # from before the line that says it listens, so a signal sent on reading it is obeyed
    for name in STOP_SIGNALS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), interrupted)
    try:
        print(f"The offline stand-in for the Messages API ({what}{window}; not Claude) is "
              f"listening on {server.url}\n"
              "Point any client at it with these two variables (the anthropic SDKs read them; "
              "any API key string works, nothing leaves this machine):\n"
              f"ANTHROPIC_BASE_URL={server.url}\n"
              "ANTHROPIC_API_KEY=offline\n"
              "Ctrl-C stops it.", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("The offline stand-in stopped.", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C before the server was up
        sys.exit(130)
