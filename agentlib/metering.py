"""The meter as an SDK middleware: refuse a request past the budget, record what came back.

`connect()` installs `Metering` on every client (sync and async, Claude or the stand-in).
Before a `messages.create` (plain, beta or streamed) it refuses a request whose worst case
would take the process past its budget (`meter.BudgetExceeded`); after it, it records the
response's usage in the client's meter (for a stream, once the stream has been read). The
SDK runs middleware inside its retry loop, once per attempt; errors raised here reach the
caller unchanged (a 400 is not retried).
"""

from __future__ import annotations

import json

import anthropic

try:  # anthropic >= 2.14 ships on httpx2
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from agentlib.meter import Meter

CREATE = "/v1/messages"


def path_of(url) -> str:
    return str(url).split("?", 1)[0].rstrip("/")


def body_of(request) -> dict:
    """The request's JSON body; {} when it is not an object (the API answers that 400)."""
    return request.json if isinstance(request.json, dict) else {}


def is_create(request) -> bool:
    """A `messages.create` (plain, beta or streamed): the requests that cost money."""
    return request.method.lower() == "post" and path_of(request.url).endswith(CREATE) \
        and isinstance(request.json, dict)


def _usage_of(content: bytes, content_type: str) -> tuple[str | None, dict | None]:
    """(model, usage) of a response body: a message as JSON, or a server-sent event stream
    (message_start's usage, updated by message_delta's)."""
    text = content.decode("utf-8", errors="replace")
    if "text/event-stream" not in content_type:
        try:
            data = json.loads(text)
        except ValueError:
            return None, None
        return (data.get("model"), data.get("usage")) if isinstance(data, dict) else (None, None)
    model, usage = None, None
    for line in text.splitlines():
        if not line.startswith("data:"):
            continue
        try:
            event = json.loads(line[5:])
        except ValueError:
            continue
        if event.get("type") == "message_start":
            model = event["message"].get("model")
            usage = dict(event["message"].get("usage") or {})
        elif event.get("type") == "message_delta" and usage is not None:
            usage.update({k: v for k, v in (event.get("usage") or {}).items() if v is not None})
    return model, usage


def _decoded(http: httpx.Response, raw: bytes) -> bytes:
    """Raw bytes of a body, with its content-encoding (gzip, ...) undone."""
    try:
        decoder = http._get_content_decoder()
        return decoder.decode(raw) + decoder.flush()
    except Exception:  # pragma: no cover - an unknown encoding: meter nothing rather than fail
        return b""


class _Tee(httpx.SyncByteStream):
    """A response stream passed through unchanged; `done(raw)` once it ends or is closed."""

    def __init__(self, inner, done):
        self.inner, self.done, self.raw = inner, done, bytearray()

    def __iter__(self):
        for chunk in self.inner:
            self.raw += chunk
            yield chunk
        self._finish()

    def close(self):
        self.inner.close()
        self._finish()

    def _finish(self):
        if self.done:
            done, self.done = self.done, None
            done(bytes(self.raw))


class _AsyncTee(httpx.AsyncByteStream):
    def __init__(self, inner, done):
        self.inner, self.done, self.raw = inner, done, bytearray()

    async def __aiter__(self):
        async for chunk in self.inner:
            self.raw += chunk
            yield chunk
        self._finish()

    async def aclose(self):
        await self.inner.aclose()
        self._finish()

    _finish = _Tee._finish


class Metering(anthropic.Middleware):
    """The budget check before a request and the meter after it."""

    def __init__(self, meter: Meter):
        self.meter = meter

    def _check_budget(self, request) -> None:
        if self.meter.root.budget is None:
            return
        body = body_of(request)
        count = len(json.dumps(body, ensure_ascii=False, default=str)) // 3  # an upper bound
        self.meter.check(body.get("model", ""), count, body.get("max_tokens", 0))

    def _observe(self, response, model: str, asynchronous: bool) -> None:
        http = response.http_response
        if http.status_code != 200:
            return

        def done(raw: bytes, decoded: bool = False) -> None:
            content = raw if decoded else _decoded(http, raw)
            found, usage = _usage_of(content, http.headers.get("content-type", ""))
            if usage:
                self.meter.record(found or model, usage)

        if hasattr(http, "_content"):  # already read (every non-streamed call)
            done(http.content, decoded=True)
        else:
            http.stream = (_AsyncTee if asynchronous else _Tee)(http.stream, done)

    def handle(self, request, call_next):
        if not is_create(request):
            return call_next(request)
        self._check_budget(request)
        response = call_next(request)
        self._observe(response, body_of(request).get("model", ""), asynchronous=False)
        return response

    async def handle_async(self, request, call_next):
        if not is_create(request):
            return await call_next(request)
        self._check_budget(request)
        response = await call_next(request)
        self._observe(response, body_of(request).get("model", ""), asynchronous=True)
        return response
