"""What the client checks before it sends a request, and meters after: an SDK middleware.

`connect()` installs a `Guard` on every client (sync and async, the real API or the
stand-in). Before a `messages.create` (plain, beta or streamed) it

- enforces a simulated `context_window` when one is given for Claude (or the unscripted
  stand-in): it asks `count_tokens` for the request's size and refuses a request over the
  window with the API's `prompt is too long` 400, saying that the client enforced it; a
  request that fits but leaves less room than `max_tokens` gets `max_tokens` lowered to the
  room left, so the reply ends where the window would end it (`stop_reason: max_tokens`);
- refuses a request whose worst case would take the process past its budget
  (`meter.BudgetExceeded`);

and after it records the response's usage in the client's meter (for a stream, once the
stream has been read). The SDK runs middleware inside its retry loop, once per attempt;
errors raised here propagate to the caller unchanged (a 400 is not retried).
"""

from __future__ import annotations

import json

import anthropic

try:  # anthropic >= 2.14 ships on httpx2
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from . import models
from .meter import Meter

CREATE, COUNT = "/v1/messages", "/v1/messages/count_tokens"
COUNT_FIELDS = {"model", "messages", "system", "tools", "tool_choice", "thinking",
                "cache_control", "output_config", "speed", "context_management", "compaction"}


def _path(url: str) -> str:
    return url.split("?", 1)[0].rstrip("/")


def _body(request) -> dict:
    """The request's JSON body; {} when it is not an object (the API answers that 400)."""
    return request.json if isinstance(request.json, dict) else {}


def too_long(count: int, window: int, model: str) -> anthropic.BadRequestError:
    """The API's 400 for a prompt over the window, worded to say the client refused it."""
    row = models.get(model)
    own = f"{row.window:,} tokens" if row else "unknown"
    message = (f"prompt is too long: {count} tokens > {window} maximum (context_window={window} "
               "is enforced by agentlib's client, not by the API: it counted this request with "
               f"count_tokens and did not send it; {model}'s own window is {own})")
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": message},
            "request_id": None}
    response = httpx.Response(400, headers={"x-should-retry": "false"}, json=body,
                              request=httpx.Request("POST", "https://client.invalid" + CREATE))
    return anthropic.BadRequestError(f"Error code: 400 - {body}", response=response, body=body)


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


class Guard(anthropic.Middleware):
    """The client's checks and meter; `window`: the simulated context window (tokens)."""

    def __init__(self, meter: Meter, window: int | None = None):
        if window is not None and (not isinstance(window, int) or window < 1):
            raise ValueError(f"context_window must be a positive number of tokens, "
                             f"got {window!r}")
        self.meter, self.window = meter, window

    # ------------------------------------------------------------ the pure parts
    def _count_request(self, request):
        body = {k: v for k, v in _body(request).items() if k in COUNT_FIELDS}
        out = request.copy(url=COUNT, body=body)
        out.stream, out.stream_cls = False, None
        return out

    def _fit(self, request, count: int | None):
        """The request to send after the window check (max_tokens lowered if need be)."""
        body = _body(request)
        if self.window is None or count is None:
            return request
        model = body.get("model", "")
        if count > self.window:
            raise too_long(count, self.window, model)
        room, max_tokens = self.window - count, body.get("max_tokens", 0)
        budget = (body.get("thinking") or {}).get("budget_tokens")
        if max_tokens > room and (budget is None or budget < room):
            return request.copy(body={**body, "max_tokens": room})
        return request

    def _check_budget(self, request, count: int | None) -> None:
        if self.meter.root.budget is None:
            return
        body = _body(request)
        if count is None:  # a rough upper bound: JSON characters / 3
            count = len(json.dumps(body, ensure_ascii=False, default=str)) // 3
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

    @staticmethod
    def _is_create(request) -> bool:
        return request.method.lower() == "post" and _path(request.url) == CREATE \
            and isinstance(request.json, dict)

    @staticmethod
    def _count_of(response) -> int | None:
        if response.http_response.status_code != 200:
            return None  # the create will get the API's own error for this request
        return json.loads(response.http_response.content).get("input_tokens")

    # ------------------------------------------------------------ the middleware
    def handle(self, request, call_next):
        if not self._is_create(request):
            return call_next(request)
        count = None
        if self.window is not None:
            counted = call_next(self._count_request(request))
            counted.http_response.read()
            count = self._count_of(counted)
        request = self._fit(request, count)
        self._check_budget(request, count)
        response = call_next(request)
        self._observe(response, _body(request).get("model", ""), asynchronous=False)
        return response

    async def handle_async(self, request, call_next):
        if not self._is_create(request):
            return await call_next(request)
        count = None
        if self.window is not None:
            counted = await call_next(self._count_request(request))
            await counted.http_response.aread()
            count = self._count_of(counted)
        request = self._fit(request, count)
        self._check_budget(request, count)
        response = await call_next(request)
        self._observe(response, _body(request).get("model", ""), asynchronous=True)
        return response
