"""The course's small windows with Claude: a client-side `context_window`, as SDK middleware.

Offline the stand-in enforces a lesson's small window itself. With Claude (or the
unscripted stand-in, its test double) `coursekit.connect(context_window=N)` installs a
`WindowGuard`: before a `messages.create` it asks `count_tokens` for the request's size and
refuses a request over the window with the API's `prompt is too long` 400, saying that the
client enforced it; a request that fits but leaves less room than `max_tokens` gets
`max_tokens` lowered to the room left, so the reply ends where the window would end it
(`stop_reason: max_tokens`).
"""

from __future__ import annotations

import json

import anthropic

try:  # anthropic >= 2.14 ships on httpx2
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from agentlib import models
from agentlib.metering import CREATE, body_of, is_create

COUNT = "/v1/messages/count_tokens"
COUNT_FIELDS = {"model", "messages", "system", "tools", "tool_choice", "thinking",
                "cache_control", "output_config", "speed", "context_management", "compaction"}


def too_long(count: int, window: int, model: str) -> anthropic.BadRequestError:
    """The API's 400 for a prompt over the window, worded to say the client refused it."""
    row = models.get(model)
    own = f"{row.window:,} tokens" if row else "unknown"
    message = (f"prompt is too long: {count} tokens > {window} maximum (context_window={window} "
               "is enforced by the course's client, not by the API: it counted this request with "
               f"count_tokens and did not send it; {model}'s own window is {own})")
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": message},
            "request_id": None}
    response = httpx.Response(400, headers={"x-should-retry": "false"}, json=body,
                              request=httpx.Request("POST", "https://client.invalid" + CREATE))
    return anthropic.BadRequestError(f"Error code: 400 - {body}", response=response, body=body)


class WindowGuard(anthropic.Middleware):
    """Enforce `window` (tokens) before sending, with `count_tokens`."""

    def __init__(self, window: int):
        if not isinstance(window, int) or isinstance(window, bool) or window < 1:
            raise ValueError(f"context_window must be a positive number of tokens, "
                             f"got {window!r}")
        self.window = window

    def _count_request(self, request):
        body = {k: v for k, v in body_of(request).items() if k in COUNT_FIELDS}
        out = request.copy(url=str(request.url).replace(CREATE, COUNT, 1), body=body)
        out.stream, out.stream_cls = False, None
        return out

    def _fit(self, request, count: int | None):
        """The request to send after the window check (max_tokens lowered if need be)."""
        if count is None:
            return request
        body = body_of(request)
        model = body.get("model", "")
        if count > self.window:
            raise too_long(count, self.window, model)
        room, max_tokens = self.window - count, body.get("max_tokens", 0)
        budget = (body.get("thinking") or {}).get("budget_tokens")
        if max_tokens > room and (budget is None or budget < room):
            return request.copy(body={**body, "max_tokens": room})
        return request

    @staticmethod
    def _count_of(response) -> int | None:
        if response.http_response.status_code != 200:
            return None  # the create will get the API's own error for this request
        return json.loads(response.http_response.content).get("input_tokens")

    def handle(self, request, call_next):
        if not is_create(request):
            return call_next(request)
        counted = call_next(self._count_request(request))
        counted.http_response.read()
        return call_next(self._fit(request, self._count_of(counted)))

    async def handle_async(self, request, call_next):
        if not is_create(request):
            return await call_next(request)
        counted = await call_next(self._count_request(request))
        await counted.http_response.aread()
        return await call_next(self._fit(request, self._count_of(counted)))
