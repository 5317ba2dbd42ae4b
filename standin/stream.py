"""Streaming: a finished message served as server-sent events, in the API's order.

message_start (empty content), ping, then per block content_block_start, its deltas and
content_block_stop, then message_delta (stop reason, final usage) and message_stop. The
model has already answered, so the chunks are fixed slices of the text: the same request
always streams the same bytes. Shapes: docs/api-facts.md, section 11.
"""

from __future__ import annotations

import json

CHUNK = 48  # characters per text, thinking or input_json delta


def _event(kind: str, data: dict) -> bytes:
    payload = json.dumps({"type": kind, **data}, ensure_ascii=False, separators=(",", ":"))
    return f"event: {kind}\ndata: {payload}\n\n".encode()


def _chunks(s: str) -> list[str]:
    return [s[i:i + CHUNK] for i in range(0, len(s), CHUNK)] or [""]


def _block_events(i: int, b: dict) -> list[bytes]:
    """content_block_start, the deltas and content_block_stop of one block."""
    kind = b["type"]
    if kind == "text":
        start, deltas = {"type": "text", "text": ""}, [
            {"type": "text_delta", "text": c} for c in _chunks(b["text"])]
    elif kind in ("tool_use", "server_tool_use"):  # a server tool's call streams the same way
        start = {**{k: v for k, v in b.items() if k != "input"}, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": c}
                  for c in _chunks(json.dumps(b["input"], ensure_ascii=False))]
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": c} for c in _chunks(b["thinking"])
                  if c] + [{"type": "signature_delta", "signature": b["signature"]}]
    elif kind == "compaction" and b.get("signature") is None:  # a threshold compaction's
        start = {"type": "compaction", "content": None}
        deltas = [{"type": "compaction_delta", "content": b["content"],
                   "encrypted_content": None}]
    else:  # a block that arrives whole (an on-demand compaction block too, signature and all)
        start, deltas = b, []
    out = [_event("content_block_start", {"index": i, "content_block": start})]
    out += [_event("content_block_delta", {"index": i, "delta": d}) for d in deltas]
    out.append(_event("content_block_stop", {"index": i}))
    return out


def events(message: dict) -> bytes:
    """The whole SSE body for a finished message."""
    usage = message["usage"]
    head = {**message, "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {**usage, "output_tokens": min(1, usage["output_tokens"])}}
    head.pop("context_management", None)
    out = [_event("message_start", {"message": head}), _event("ping", {})]
    for i, b in enumerate(message["content"]):
        out += _block_events(i, b)
    final_usage = {k: v for k, v in usage.items() if k != "cache_creation"}
    delta = {"delta": {"stop_reason": message["stop_reason"],
                       "stop_sequence": message["stop_sequence"]}, "usage": final_usage}
    if "context_management" in message:
        delta["context_management"] = message["context_management"]
    out += [_event("message_delta", delta), _event("message_stop", {})]
    return b"".join(out)
