"""The offline course model: a deterministic stand-in for the Messages API.

It answers HTTP requests the way the API does (same paths, same JSON, same 400 texts),
so the real `anthropic` SDK can talk to it through `transport.OfflineTransport`. What it
says comes from `agent.respond`, which sees only the request: the model's whole
knowledge is its context window. It is not Claude, and its tokenizer (tiktoken cl100k)
is not Claude's: offline, every model counts with it. Each behaviour and its source:
docs/api-facts.md.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any
from urllib.parse import unquote

import orjson

from apiwire import models
from standin import (
    agent,
    compaction,
    edits,
    listing,
    reply,
    servertools,
    stream,
    thinking,
    tokens,
    tooling,
)
from standin import betas as B
from standin import request as checks
from standin.cache import PromptCache, segments
from standin.diagnostics import Diagnostics, bind_settings
from standin.errors import APIError
from standin.unscripted import Unscripted

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
MESSAGES = ("/v1/messages", "/v1/messages/count_tokens")


def read_json(body: bytes) -> dict:
    """The request body as the API reads it. Its parser's own words come back in the 400
    ("The request body is not valid JSON: no low surrogate in string: line 1 column 12
    (char 11)": orjson's, as the API's captured errors show), for any lone surrogate, any
    byte that is not UTF-8 and any nesting over 1,024 levels (docs/api-facts.md 19.11)."""
    try:
        request = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise APIError(400, f"The request body is not valid JSON: {e}") from None
    if not isinstance(request, dict):
        raise APIError(400, "request body must be a JSON object")
    return request


def has_key(headers: dict[str, str]) -> bool:
    """An API key as the SDKs send one: `x-api-key`, or `Authorization: Bearer` (a token)."""
    bearer = headers.get("authorization", "")
    return bool(headers.get("x-api-key", "").strip()) or \
        (bearer[:7].lower() == "bearer " and bool(bearer[7:].strip()))


def digest(*parts: Any) -> str:
    """A stable hash of JSON-able parts: ids derive from the request, not from time."""
    h = hashlib.sha256()
    for p in parts:
        h.update(json.dumps(p, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


class CourseModel:
    """The offline Messages API. State: its settings, the count of calls (for faults) and
    the prompt cache. `context_window`, when given, replaces every model's window;
    `unscripted`, a seed, puts the unscripted layer (`unscripted.py`) around the agent;
    `thinking_summaries`: `between_tools` notes shown summarized show a summary
    (`thinking.summary`), as the docs say Claude's do; by default their full text."""

    def __init__(self, context_window: int | None = None,
                 faults: dict[int, int] | None = None, model: str | None = None,
                 unscripted: int | None = None, thinking_summaries: bool = False):
        self.context_window = int(context_window) if context_window else None
        self.thinking_summaries = thinking_summaries  # between_tools notes shown as summaries
        self.faults = {int(k): int(v) for k, v in (faults or {}).items()}
        self.model = model
        self.calls = 0  # create/count calls received, retries included
        self.salt = b""  # mixed into request ids: a server sets its own at each start
        self._requests = itertools.count(1)  # numbers each request (thread-safe `next`)
        self.cache = PromptCache()
        self.diagnostics = Diagnostics()
        self.unscripted = None if unscripted is None else Unscripted(unscripted)
        self.respond = self.unscripted.respond if self.unscripted else agent.respond

    # ------------------------------------------------------------------ HTTP entry point
    def request_id(self, body_digest: str = "") -> str:
        """A new id for each request, as the API gives: from the body's digest and the
        request's number (a repeated request gets another id; a kernel replays the same)."""
        n = next(self._requests)
        seed = b"%s%d:%s" % (self.salt, n, body_digest.encode("ascii"))
        return "req_offline_" + hashlib.sha256(seed).hexdigest()[:24]

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes
               ) -> tuple[int, dict[str, str], bytes]:
        """Answer one HTTP request: (status, headers, body). `path` may carry its query."""
        body_digest = hashlib.sha256(body).hexdigest()  # the ids derive from it
        request_id = self.request_id(body_digest)
        path, _, query = path.partition("?")
        path = unquote(path)  # as the SDK quotes a model id into `/v1/models/{model_id}`
        self.calls += 1
        try:
            if self.calls in self.faults:
                status = self.faults[self.calls]
                raise APIError(status, FAULT_MESSAGES.get(status, "injected fault"))
            if self.unscripted and path == "/v1/messages" and \
                    self.unscripted.overloaded(self.calls):
                raise APIError(529, "Overloaded")
            if len(body) > MAX_REQUEST_BYTES:
                raise APIError(413, "Request exceeds the maximum allowed number of bytes.")
            listed = method == "GET" and (path == "/v1/models" or path.startswith("/v1/models/"))
            if not listed and (method != "POST" or path not in MESSAGES):
                raise APIError(404, f"Not found: {method} {path}")
            if not has_key(headers):
                raise APIError(401, "x-api-key header is required")
            out = {"request-id": request_id, "content-type": "application/json"}
            if listed:
                return 200, out, _dump(listing.answer(path, query, self.context_window))
            request = read_json(body)
            betas = B.parse(headers.get("anthropic-beta", ""))
            checks.check_headers(headers)
            if path.endswith("count_tokens"):
                return 200, out, _dump(self.count_tokens(request, betas))
            result = self.create(request, betas, body_digest)
            if request.get("diagnostics") is not None:  # cache diagnostics: api-facts 5.11
                result["diagnostics"] = self.diagnostics.answer(request, betas, result,
                                                                hidden_prompt(request))
            if request.get("stream"):
                return 200, {**out, "content-type": "text/event-stream"}, stream.events(result)
            return 200, out, _dump(result)
        except APIError as e:
            return self.error(e, request_id)
        except RecursionError:  # nesting within the parser's 1,024 levels, too deep for Python
            return self.error(APIError(400, "The request body is nested too deeply for the "
                                       "offline course model to read (the API's parser "
                                       "takes up to 1,024 levels); send flatter JSON."),
                              request_id)
        except Exception as e:  # a bug in the stand-in must still look like an API answer
            return self.error(APIError(500, f"offline course model failed: "
                                            f"{type(e).__name__}: {e}"), request_id)

    def error(self, e: APIError, request_id: str):
        detail = {"details": e.details} if e.details else {}
        body = {"type": "error", "error": {"type": ERROR_TYPES.get(e.status, "api_error"),
                                           "message": e.message, **detail},
                "request_id": request_id}
        headers = {"request-id": request_id, "content-type": "application/json",
                   "x-should-retry": "true" if e.status in (408, 409, 429, 500, 529) else "false"}
        if e.status in (429, 529, 500):
            headers["retry-after-ms"] = "5"  # keep SDK retries fast offline
        return e.status, headers, _dump(body)

    # ------------------------------------------------------------------ what the model sees
    def _read(self, request: dict, betas: set[str], counting: bool):
        """Check a request; return (row, thinking, the edits, the history the model sees,
        the tools, the history's prefix digests: read once, for the checks and the reply,
        the thinking blocks dropped by `drop_block`)."""
        row = checks.check(request, betas, counting)
        cfg = thinking.config(row, request, betas)
        if cfg and "compaction" in request:  # "nothing fails when you compact": a block that
            cfg = {**cfg, "mismatch": "drop_block"}  # no longer binds is not summarized
        checks.forced_tool(request)
        segments(request, counted=False)  # checks the cache breakpoints
        compaction.check(request["messages"])
        prefixes = thinking.Prefixes(request.get("tools"), request.get("system"),
                                     request["messages"])
        dropped: list[str] = []
        seen = thinking.seen(row, cfg, request.get("tools"), request.get("system"),
                             request["messages"], prefixes, dropped)
        catalog = tooling.Catalog(request.get("tools"), request["messages"])
        if not counting:
            servertools.check_resume(request, spoken(request["messages"]))
        return row, cfg, edits.parse(request.get("context_management"), betas), \
            compaction.visible(seen), catalog, prefixes, dropped

    @staticmethod
    def _count(catalog, messages, system) -> int:
        """What the model's context holds: the tools sent up front, the history with the
        calls a script made left out and each tool_reference expanded to its definition."""
        return tokens.count(catalog.expand(tooling.hide_programmatic(messages)), system=system,
                            tools=catalog.upfront)

    def window(self, row) -> int:
        return self.context_window or row.window

    # ------------------------------------------------------------------ endpoints
    def count_tokens(self, request: dict, betas: set[str]) -> dict:
        """Input tokens after existing compaction blocks and the clearing edits (top-level
        `compaction` is accepted and ignored, as the API does)."""
        row, _, todo, messages, catalog, _, _ = self._read(request, betas, counting=True)
        system, tools = request.get("system"), catalog.upfront
        hidden = hidden_prompt(request)
        before = self._count(catalog, messages, system) + hidden
        messages, _ = edits.apply(todo, messages, system, tools, row, hidden)
        result: dict = {"input_tokens": self._count(catalog, messages, system) + hidden}
        if "context_management" in request:
            result["context_management"] = {"original_input_tokens": before}
        return result

    def create(self, request: dict, betas: set[str], key: str = "") -> dict:
        row, cfg, todo, messages, catalog, prefixes, dropped = self._read(request, betas,
                                                                          counting=False)
        system, tools = request.get("system"), catalog.upfront
        key = key or digest(request)  # from the request bytes: same request, same ids
        hidden = hidden_prompt(request)  # counted in usage, never sent by the client
        if "compaction" in request:
            frame, chain = prefixes.state(len(request["messages"]))
            block = compaction.on_demand(request, messages, {
                "frame": frame, "chain": chain, "bound": row.binds_thinking,
                "last_role": request["messages"][-1]["role"]})
            usage = {"input_tokens": self._count(catalog, messages, system) + hidden,
                     "output_tokens": tokens.count(block)}
            return self._message(request, key, [block], "compaction", usage)
        compact = edits.compact_edit(todo)
        first = request["messages"][0]["content"]
        if compact and isinstance(first, list) and first and first[0].get("type") == \
                "compaction" and first[0].get("signature") is not None:  # course wording
            raise APIError(400, "context_management.edits: the `compact_20260112` edit cannot "
                           "run on a request that carries a signed (on-demand) compaction block")
        messages, applied = edits.apply(todo, messages, system, tools, row, hidden)
        counted = catalog.expand(tooling.hide_programmatic(messages))  # as `_count` reads it
        input_tokens = tokens.count(counted, system=system, tools=tools) + hidden
        iterations = [] if B.COMPACT_EDIT in betas else None
        if compact and input_tokens > compact["trigger"]:
            block = {"type": "compaction",
                     "content": compaction.summary(messages, compact["instructions"])}
            iterations.append(_iteration("compaction", input_tokens, tokens.count(block)))
            if compact["pause"]:
                return self._message(request, key, [block], "compaction",
                                     {"input_tokens": 0, "output_tokens": 0},
                                     applied, iterations)
            messages = [{"role": "assistant", "content": [block]}]
            counted = catalog.expand(tooling.hide_programmatic(messages))
            input_tokens = tokens.count(counted, system=system, tools=tools) + hidden
        else:
            block = None
        window = self.window(row)
        if input_tokens > window:
            raise APIError(400, f"prompt is too long: {input_tokens} tokens > {window} maximum")
        turn = servertools.run(catalog, spoken(messages),
                               self._decide(instructions(system, messages), request, cfg, key),
                               key, digest)
        content = turn.content or [{"type": "text", "text": "…"}]
        content, stop_sequence = reply.stop_at(content, request.get("stop_sequences") or [])
        stop_reason = "stop_sequence" if stop_sequence else "pause_turn" if turn.paused else \
            "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        max_tokens, room = request["max_tokens"], window - input_tokens
        budget = min(max_tokens, room)
        if tokens.count(content) > budget:
            content = reply.fit(content, budget)
            stop_reason = "max_tokens" if max_tokens <= room else "model_context_window_exceeded"
        output_tokens = min(tokens.count([b for b in content if b["type"] not in
                                          tooling.SERVER_BLOCKS and not b.get("caller")]), budget)
        thought = sum(tokens.count(b) for b in content if b["type"] == "thinking")
        content = reply.sign(row, cfg, content, prefixes,
                             summaries=self.thinking_summaries)
        if iterations is not None:
            iterations.append(_iteration("message", input_tokens, output_tokens))
        if block:  # the compaction block comes first; its tokens are its own iteration
            content = [block] + content
        segs = bind_settings(segments({**request, "tools": tools}, counted, hidden),
                             request)  # thinking, tool_choice: api-facts 5.12
        usage = self.cache.account(segs, input_tokens, row.min_cacheable)
        usage["output_tokens"] = output_tokens
        if turn.searches:
            usage["server_tool_use"] = {"web_search_requests": 0, "web_fetch_requests": 0,
                                        "tool_search_requests": turn.searches}
        if cfg:
            usage["output_tokens_details"] = {"thinking_tokens": thought}
        response = self._message(request, key, content, stop_reason, usage, applied,
                                 iterations, stop_sequence)
        if B.BINDING in betas:  # every response under the beta lists what it dropped
            response["input_transformations"] = [
                {"type": "thinking_dropped", "path": path, "reason": "prefix_binding_mismatch"}
                for path in dropped]
        box = checks.container(request) or (servertools.container_id(
            messages + [{"role": "assistant", "content": content}], digest)
            if turn.used_code or catalog.code and servertools.pending_script(messages) else None)
        if box:
            response["container"] = {"id": box, "expires_at": servertools.EXPIRES_AT}
        return response

    def _decide(self, system, request: dict, cfg, key: str):
        """The model's step, given the tools it can see and the history: shaped as the API
        shapes a reply (ids, tool_choice, thinking)."""
        steps = []

        def decide(visible: list[dict], messages: list[dict]) -> list[dict]:
            seed = key if not steps else digest(key, len(steps))
            steps.append(seed)
            blocks = self.respond(system=system, tools=visible, messages=messages, seed=seed)
            return reply.shape(blocks, {**request, "tools": visible}, cfg, messages, seed,
                               digest)
        return decide

    def _message(self, request, key, content, stop_reason, usage, applied=None,
                 iterations=None, stop_sequence=None) -> dict:
        """The response body of a create call."""
        usage = {"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                 "cache_creation": {"ephemeral_5m_input_tokens": 0,
                                    "ephemeral_1h_input_tokens": 0},
                 **usage, "service_tier": "standard"}
        if iterations:
            usage["iterations"] = iterations
        response = {"id": f"msg_{key[:24]}", "type": "message", "role": "assistant",
                    "model": request["model"], "content": content, "stop_reason": stop_reason,
                    "stop_sequence": stop_sequence, "usage": usage}
        if "context_management" in request:
            response["context_management"] = {"applied_edits": applied or []}
        return response


def spoken(messages: list[dict]) -> list[dict]:
    """The conversation without its mid-conversation system messages (which the model reads
    as instructions: `instructions`)."""
    return [m for m in messages if m["role"] != "system"] if any(
        m["role"] == "system" for m in messages) else messages


def instructions(system, messages: list[dict]):
    """The system prompt the course model reads: the top-level one, then each
    mid-conversation system message's text, in order (later ones take precedence, as the
    docs say; the course model reads them all as it reads the system prompt)."""
    said = [b["text"] if isinstance(b, dict) else b for m in messages if m["role"] == "system"
            for b in (m["content"] if isinstance(m["content"], list) else [m["content"]])
            if not isinstance(b, dict) or b.get("type") == "text"]
    if not said:
        return system
    top = "\n".join(b.get("text", "") for b in system) if isinstance(system, list) else system
    return "\n\n".join(t for t in [top or "", *said] if t)


def hidden_prompt(request: dict) -> int:
    """The tool-use system prompt the API adds to a request with tools (docs/api-facts.md
    8.5): the client never sends it and cannot count it; `usage.input_tokens` includes it."""
    return models.tool_prompt_tokens(request["model"], request.get("tools"),
                                     request.get("tool_choice"))


def _iteration(kind: str, input_tokens: int, output_tokens: int) -> dict:
    return {"type": kind, "input_tokens": input_tokens, "output_tokens": output_tokens,
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}}


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
