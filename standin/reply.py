"""The reply: what the agent decided, shaped by the request the way the API shapes it.

Tool calls get ids; `tool_choice` `none` or `disable_parallel_tool_use` limit the calls;
thinking comes first (or, with `between_tools`, the notes between tool calls come back as
thinking); a stop sequence ends the text; and the whole is cut to `max_tokens` or to the
room the context window leaves (`stop_reason: "model_context_window_exceeded"`: current
models answer into the room left instead of refusing). Sources: docs/api-facts.md §3, §9, §12.
"""

from __future__ import annotations

from standin import thinking, tokens
from standin.history import blocks


def thought(content: list[dict], messages: list[dict]) -> str:
    """The course model's thinking: what it sees and what it will do next."""
    results = sum(1 for m in messages for b in blocks(m) if b.get("type") == "tool_result")
    calls = [b["name"] for b in content if b["type"] == "tool_use"]
    plan = f"I will call {', '.join(calls)}." if calls else "I have what I need to answer."
    seen = f"{len(messages)} message{'s' * (len(messages) != 1)} and {results} tool " \
        f"result{'s' * (results != 1)}"
    return f"I can see {seen}. {plan}"


def shape(content: list[dict], request: dict, cfg: dict | None, messages: list[dict],
          key: str, digest) -> list[dict]:
    """Ids, tool_choice and thinking (unsigned, full text) applied to the agent's content.
    A model calls only the tools it is given: a call to any other is dropped."""
    offered = {t.get("name") for t in request.get("tools") or []}
    direct = {t.get("name") for t in request.get("tools") or []
              if "direct" in (t.get("allowed_callers") or ["direct"])}
    content = [b for b in content if b["type"] not in ("tool_use", "server_tool_use") or
               b["name"] in (direct if b["type"] == "tool_use" else offered)]
    for n, b in enumerate(content):
        if b["type"] == "tool_use" and not b.get("id"):
            b["id"] = f"toolu_{digest(key, n)[:24]}"
    choice = request.get("tool_choice") or {}
    if choice.get("type") == "none":
        content = [b for b in content if b["type"] != "tool_use"]
    elif choice.get("disable_parallel_tool_use"):
        first = next((i for i, b in enumerate(content) if b["type"] == "tool_use"), None)
        content = [b for i, b in enumerate(content)
                   if b["type"] != "tool_use" or i == first]
    content = content or [{"type": "text", "text": "…"}]
    if cfg is None:
        return content
    if cfg["type"] == "between_tools":
        if not any(b["type"] == "tool_use" for b in content):
            return content
        notes = "\n".join(b["text"] for b in content if b["type"] == "text")
        calls = [b for b in content if b["type"] != "text"]
        return ([{"type": "thinking", "thinking": notes}] if notes else []) + calls
    if cfg["type"] == "adaptive" and (request.get("output_config") or {}).get("effort") == "low":
        return content  # at low effort the course model answers without thinking
    return [{"type": "thinking", "thinking": thought(content, messages)}] + content


def stop_at(content: list[dict], stops: list[str]) -> tuple[list[dict], str | None]:
    """Cut the reply at the first stop sequence in its text; the calls after it are lost."""
    for i, b in enumerate(content):
        if b["type"] != "text":
            continue
        hits = [(b["text"].find(s), s) for s in stops if s in b["text"]]
        if hits:
            at, s = min(hits)
            head = [{"type": "text", "text": b["text"][:at]}] if b["text"][:at] else []
            return content[:i] + head, s
    return content, None


def fit(content: list[dict], budget: int) -> list[dict]:
    """Keep what fits in `budget` output tokens, in order; a text or thinking block is cut,
    a tool call that does not fit is lost."""
    enc, out, used = tokens.encoding(), [], 0
    for b in content:
        n = tokens.count(b)
        if used + n <= budget:
            out.append(b)
            used += n
            continue
        field = {"text": "text", "thinking": "thinking"}.get(b["type"])
        room = budget - used - tokens.BLOCK_OVERHEAD
        if field and room > 0:
            cut = enc.decode(enc.encode(b[field], disallowed_special=())[:room])
            out.append({**b, field: cut})
        break
    return out if out or budget == 0 else [{"type": "text", "text": "…"}]


def sign(row, cfg, content: list[dict], prefixes: thinking.Prefixes, *,
         summaries: bool = False) -> list[dict]:
    """The final blocks: thinking shown or omitted as asked, each signed, bound to the
    whole history of the request (`prefixes`) where the model binds thinking
    (`summaries`: `thinking.block`'s)."""
    return [thinking.block(row, cfg, b["thinking"], prefixes, summaries=summaries)
            if b["type"] == "thinking" else b for b in content]
