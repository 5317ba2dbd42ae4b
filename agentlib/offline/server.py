"""The offline course model: a deterministic stand-in for the Messages API.

It answers HTTP requests the way the API does (same paths, same JSON, same 400 texts),
so the real `anthropic` SDK can talk to it through `transport.OfflineTransport`. What it
says comes from `agent.respond`, which sees only the request: the model's whole
knowledge is its context window. It is not Claude, and its tokenizer (tiktoken cl100k)
is not Claude's.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .. import tokens
from ..messages import HistoryError, validate
from . import agent, edits, summarizer
from .cache import PromptCache
from .errors import APIError

ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
    404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
    500: "api_error", 529: "overloaded_error",
}
FAULT_MESSAGES = {
    429: "Number of request tokens has exceeded your per-minute rate limit (injected fault)",
    500: "Internal server error (injected fault)",
    529: "Overloaded (injected fault)",
}
MAX_REQUEST_BYTES = 32 * 1024 * 1024  # the API's 32 MB request limit




def digest(*parts: Any) -> str:
    """A stable hash of JSON-able parts: ids derive from the request, not from time."""
    h = hashlib.sha256()
    for p in parts:
        h.update(json.dumps(p, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


class CourseModel:
    """The offline Messages API. State: its settings and the count of calls (for faults)."""

    def __init__(self, context_window: int = 200_000, faults: dict[int, int] | None = None,
                 model: str | None = None):
        self.context_window = int(context_window)
        self.faults = {int(k): int(v) for k, v in (faults or {}).items()}
        self.model = model
        self.calls = 0  # create/count calls received, retries included
        self.cache = PromptCache()

    # ------------------------------------------------------------------ HTTP entry point
    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes
               ) -> tuple[int, dict[str, str], bytes]:
        """Answer one HTTP request: (status, headers, body)."""
        request_id = "req_offline_" + hashlib.sha256(body).hexdigest()[:24]
        self.calls += 1
        try:
            if self.calls in self.faults:
                status = self.faults[self.calls]
                raise APIError(status, FAULT_MESSAGES.get(status, "injected fault"))
            if len(body) > MAX_REQUEST_BYTES:
                raise APIError(413, "Request exceeds the maximum allowed number of bytes.")
            if method != "POST" or path not in ("/v1/messages", "/v1/messages/count_tokens"):
                raise APIError(404, f"Not found: {method} {path}")
            try:
                request = json.loads(body or b"null")
            except ValueError as e:
                raise APIError(400, f"There was an error parsing the body: {e}") from None
            if not isinstance(request, dict):
                raise APIError(400, "request body must be a JSON object")
            betas = [b.strip() for b in headers.get("anthropic-beta", "").split(",") if b.strip()]
            if path.endswith("count_tokens"):
                result = {"input_tokens": self.count_tokens(request)}
            else:
                result = self.create(request, betas, hashlib.sha256(body).hexdigest())
            return 200, {"request-id": request_id, "content-type": "application/json"}, \
                _dump(result)
        except APIError as e:
            return self.error(e.status, e.message, request_id)
        except Exception as e:  # a bug in the stand-in must still look like an API answer
            return self.error(500, f"offline course model failed: {type(e).__name__}: {e}",
                              request_id)

    def error(self, status: int, message: str, request_id: str):
        body = {"type": "error",
                "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message},
                "request_id": request_id}
        headers = {"request-id": request_id, "content-type": "application/json",
                   "x-should-retry": "true" if status in (408, 409, 429, 500, 529) else "false"}
        if status in (429, 529, 500):
            headers["retry-after-ms"] = "5"  # keep SDK retries fast offline
        return status, headers, _dump(body)

    # ------------------------------------------------------------------ endpoints
    def count_tokens(self, request: dict) -> int:
        system, tools, messages = self.check_request(request, need_max_tokens=False)
        return tokens.count(messages, system=system, tools=tools)

    def create(self, request: dict, betas: list[str], key: str = "") -> dict:
        if request.get("stream"):
            raise APIError(400, "stream: streaming is not offered by the offline course model; "
                           "call client.messages.create(...) without stream=True")
        system, tools, messages = self.check_request(request, need_max_tokens=True)
        max_tokens = request["max_tokens"]
        key = key or digest(request)  # from the request bytes: same request, same ids
        config = request.get("context_management")
        compact = edits.compaction_edit(config)
        messages = edits.after_compaction(messages)
        messages, applied = edits.apply(config, messages, system, tools)
        input_tokens = tokens.count(messages, system=system, tools=tools)
        iterations = []
        if compact and input_tokens > compact["trigger"]:
            summary = summarizer.summarize(summarizer.turns_from_messages(messages),
                                           compact["instructions"] or summarizer.SERVER_PROMPT)
            compaction = {"type": "compaction", "content": summary}
            out_tokens = tokens.count(compaction)
            iterations.append({"type": "compaction", "input_tokens": input_tokens,
                               "output_tokens": out_tokens, "cache_creation_input_tokens": 0,
                               "cache_read_input_tokens": 0})
            if compact["pause"]:
                return self._message(request, key, [compaction], "compaction", 0, 0, config,
                                     applied, iterations)
            messages = [{"role": "assistant", "content": [compaction]}]
            input_tokens = tokens.count(messages, system=system, tools=tools)
        if input_tokens > self.context_window:
            raise APIError(400, f"prompt is too long: {input_tokens} tokens > "
                           f"{self.context_window} maximum")
        if input_tokens + max_tokens > self.context_window:
            raise APIError(400, "input length and `max_tokens` exceed context limit: "
                           f"{input_tokens} + {max_tokens} > {self.context_window}, decrease "
                           "input length or `max_tokens` and try again")
        content = agent.respond(system=system, tools=tools, messages=messages, seed=key)
        for n, block in enumerate(content):
            if block["type"] == "tool_use":
                block["id"] = f"toolu_{digest(key, n)[:24]}"
        stop_reason = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        output_tokens = tokens.count(content)
        if output_tokens > max_tokens:
            content, stop_reason = _cut_to(content, max_tokens), "max_tokens"
            output_tokens = min(tokens.count(content), max_tokens)
        if iterations:  # the compaction block comes first; its tokens are its own iteration
            content = [compaction] + content
            iterations.append({"type": "message", "input_tokens": input_tokens,
                               "output_tokens": output_tokens, "cache_creation_input_tokens": 0,
                               "cache_read_input_tokens": 0})
        cached = self.cache.account(system, tools, messages, input_tokens)
        return self._message(request, key, content, stop_reason, input_tokens, output_tokens,
                             config, applied, iterations, cached)

    def _message(self, request, key, content, stop_reason, input_tokens, output_tokens,
                 config, applied, iterations, cached=None) -> dict:
        """The response body of a create call."""
        fresh, written, read = cached or (input_tokens, 0, 0)
        response = {
            "id": f"msg_{key[:24]}", "type": "message", "role": "assistant",
            "model": request["model"], "content": content,
            "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": fresh, "output_tokens": output_tokens,
                      "cache_creation_input_tokens": written, "cache_read_input_tokens": read},
        }
        if iterations:
            response["usage"]["iterations"] = iterations
        if config is not None:
            response["context_management"] = {"applied_edits": applied}
        return response

    # ------------------------------------------------------------------ request checks
    def check_request(self, request: dict, need_max_tokens: bool):
        """Check top-level fields and the history, answering the API's 400 texts."""
        if not isinstance(request.get("model"), str) or not request["model"]:
            raise APIError(400, "model: Field required")
        if need_max_tokens:
            mt = request.get("max_tokens")
            if "max_tokens" not in request:
                raise APIError(400, "max_tokens: Field required")
            if not isinstance(mt, int) or isinstance(mt, bool) or mt < 1:
                raise APIError(400, "max_tokens: Input should be a valid integer greater than "
                               "or equal to 1")
        if "messages" not in request:
            raise APIError(400, "messages: Field required")
        messages = request["messages"]
        try:
            validate(messages)
        except HistoryError as e:
            raise APIError(400, e.api_message) from None
        system = request.get("system")
        if system is not None:
            ok = isinstance(system, str) or (
                isinstance(system, list) and all(
                    isinstance(b, dict) and b.get("type") == "text"
                    and isinstance(b.get("text"), str) for b in system))
            if not ok:
                raise APIError(400, "system: Input should be a valid string or a list of text "
                               "blocks")
        tools = request.get("tools") or []
        if not isinstance(tools, list):
            raise APIError(400, "tools: Input should be a valid list")
        for i, t in enumerate(tools):
            if not isinstance(t, dict) or not isinstance(t.get("name"), str):
                raise APIError(400, f"tools.{i}.name: Field required")
            if "type" not in t and not isinstance(t.get("input_schema"), dict):
                raise APIError(400, f"tools.{i}.input_schema: Field required")
        return system, tools, messages


def _cut_to(content: list[dict], max_tokens: int) -> list[dict]:
    """Keep what fits in max_tokens: the leading text, cut by tokens (a tool call is lost)."""
    enc = tokens.encoding()
    budget = max(1, max_tokens - tokens.BLOCK_OVERHEAD)
    first = next((b["text"] for b in content if b["type"] == "text"), "…")
    return [{"type": "text", "text": enc.decode(enc.encode(first, disallowed_special=())[:budget])
             or "…"}]


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
