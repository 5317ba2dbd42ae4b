"""Tool search, deferred loading and programmatic calls: what the model sees of `tools`.

- A tool with `defer_loading: true` is not in the model's context (nor in `input_tokens`)
  until a `tool_reference` names it: in a server `tool_search_tool_result` or in a client
  `tool_result`. The definition is then expanded where the reference is, so it counts from
  that message on and the cached prefix (tools, system) stays as it was.
- The server's tool search (regex or bm25) runs here (`search`), 3 to 5 references.
- A `tool_use` block carrying a `caller` other than `direct` was made by a script in the
  code execution tool: it and its `tool_result` never enter the model's context.
Sources: docs/api-facts.md, section 20.
"""

from __future__ import annotations

import json
import math
import re

from standin.errors import APIError, unsupported

SEARCH_TYPES = {"tool_search_tool_regex_20251119": "tool_search_tool_regex",
                "tool_search_tool_regex": "tool_search_tool_regex",
                "tool_search_tool_bm25_20251119": "tool_search_tool_bm25",
                "tool_search_tool_bm25": "tool_search_tool_bm25"}
CODE_TYPES = ("code_execution_20250825", "code_execution_20260120", "code_execution_20260521")
CALLERS = ("direct", *CODE_TYPES)
CUSTOM_KEYS = {"type", "name", "description", "input_schema", "cache_control", "defer_loading",
               "allowed_callers"}
SERVER_KEYS = {"type", "name", "cache_control", "defer_loading", "allowed_callers"}
SERVER_BLOCKS = ("tool_search_tool_result", "code_execution_tool_result")
MAX_PATTERN = 200
MAX_RESULTS = 5


def _quoted(values) -> str:
    values = [f"'{v}'" for v in values]
    return ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else values[0]


def check(tools: list) -> None:
    """The new tool fields, checked as the API checks them (tools is already a list of
    dicts with names). Raises the API's 400 where its words are known, else a clear one."""
    names = [t["name"] for t in tools]
    kinds = {t.get("type", "custom") for t in tools}
    for i, t in enumerate(tools):
        kind = t.get("type", "custom")
        where = f"tools.{i}"
        if kind in SEARCH_TYPES or kind in CODE_TYPES:
            name = SEARCH_TYPES.get(kind, "code_execution")
            if t["name"] != name:
                raise APIError(400, f"{where}.name: Input should be '{name}'")
            keys = SERVER_KEYS
            if t.get("defer_loading") and kind in SEARCH_TYPES:
                raise APIError(400, f"{where}.defer_loading: the tool search tool itself cannot "
                               "be deferred: it is what loads the deferred tools (remove "
                               "`defer_loading` from it)")
        elif kind == "custom":
            keys = CUSTOM_KEYS
        else:
            continue
        for key in t:
            if key not in keys:
                raise unsupported(f"{where}.{key}")
        if "defer_loading" in t and not isinstance(t["defer_loading"], bool):
            raise APIError(400, f"{where}.defer_loading: Input should be a valid boolean")
        callers = t.get("allowed_callers")
        if callers is not None:
            if not isinstance(callers, list):
                raise APIError(400, f"{where}.allowed_callers: Input should be a valid list")
            for k, c in enumerate(callers):
                if c not in CALLERS:
                    raise APIError(400, f"{where}.allowed_callers.{k}: Input should be "
                                   f"{_quoted(CALLERS)}")
                if c != "direct" and c not in kinds:
                    raise APIError(400, f"{where}.allowed_callers.{k}: `{c}` needs the code "
                                   f"execution tool `{{\"type\": \"{c}\", \"name\": "
                                   "\"code_execution\"}` in `tools`")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise APIError(400, f"tools: Tool names must be unique (`{dup}` appears twice)")
    if tools and all(t.get("defer_loading") is True for t in tools):
        raise APIError(400, "All tools have defer_loading set. At least one tool must be "
                       "non-deferred.")
    if sum(t.get("type") in CODE_TYPES for t in tools) > 1:
        raise APIError(400, "tools: at most one code execution tool may be given")


def references(messages: list) -> list[tuple[int, str]]:
    """(message index, tool name) of every `tool_reference`, in order."""
    out = []
    for i, m in enumerate(messages):
        for b in m.get("content") if isinstance(m.get("content"), list) else []:
            if not isinstance(b, dict):
                continue
            if b.get("type") == "tool_search_tool_result":
                found = b.get("content") if isinstance(b.get("content"), dict) else {}
                out += [(i, r.get("tool_name")) for r in found.get("tool_references") or []
                        if isinstance(r, dict)]
            elif b.get("type") == "tool_result" and isinstance(b.get("content"), list):
                out += [(i, c.get("tool_name")) for c in b["content"]
                        if isinstance(c, dict) and c.get("type") == "tool_reference"]
    return out


def tool_changes(messages: list) -> dict[str, bool]:
    """The `tool_addition` / `tool_removal` blocks of the history's system messages, in
    order: each tool's last state (True: offered from there on; False: withdrawn)."""
    state: dict[str, bool] = {}
    for m in messages:
        if m.get("role") != "system" or not isinstance(m.get("content"), list):
            continue
        for b in m["content"]:
            if isinstance(b, dict) and b.get("type") in ("tool_addition", "tool_removal"):
                state[(b.get("tool") or {}).get("name")] = b["type"] == "tool_addition"
    return state


class Catalog:
    """The request's tools, sorted: what the model sees up front, what is deferred, what
    the history has loaded (a `tool_reference`, or a `tool_addition`) or withdrawn (a
    `tool_removal`), and which calls a script made."""

    def __init__(self, tools: list | None, messages: list):
        self.tools = list(tools or [])
        self.by_name = {t["name"]: t for t in self.tools}
        found = references(messages)
        for _, name in found:
            if name not in self.by_name:
                raise APIError(400, f"Tool reference '{name}' has no corresponding tool "
                               "definition")
        self.changes = tool_changes(messages)
        self.loaded = {name for _, name in found} | {n for n, on in self.changes.items() if on}
        self.upfront = [t for t in self.tools if not t.get("defer_loading")]
        self.code = next((t for t in self.tools if t.get("type") in CODE_TYPES), None)
        self.search = next((t for t in self.tools if t.get("type") in SEARCH_TYPES), None)

    @property
    def deferred(self) -> list[dict]:
        return [t for t in self.tools if t.get("defer_loading")]

    def visible(self, extra: set[str] = frozenset()) -> list[dict]:
        """The definitions the model can read and call: up front, then those loaded."""
        loaded = self.loaded | set(extra)
        return [t for t in self.tools if (not t.get("defer_loading") or t["name"] in loaded)
                and self.changes.get(t["name"], True)]

    def callers(self, name: str) -> list[str]:
        t = self.by_name.get(name) or {}
        return t.get("allowed_callers") or ["direct"]

    def expand(self, messages: list) -> list:
        """The history as the model's context counts it: each `tool_reference` replaced by
        its tool's definition, where it stands."""
        out = []
        for m in messages:
            content = m.get("content")
            if not isinstance(content, list) or not any(
                    b.get("type") in ("tool_result", "tool_search_tool_result") and
                    isinstance(b.get("content"), list | dict) or
                    b.get("type") == "tool_addition" for b in content):
                out.append(m)  # nothing to expand: the message itself, not a copy
                continue
            blocks = []
            for b in content:
                name = (b.get("tool") or {}).get("name") if b.get("type") == "tool_addition" \
                    else None
                if (self.by_name.get(name) or {}).get("defer_loading"):  # surfaced here
                    b = {"type": "text", "text": json.dumps(self.by_name[name], sort_keys=True,
                                                            ensure_ascii=False)}
                elif b.get("type") == "tool_result" and isinstance(b.get("content"), list):
                    b = {**b, "content": [self._definition_text(c) for c in b["content"]]}
                elif b.get("type") == "tool_search_tool_result" and \
                        isinstance(b.get("content"), dict):
                    refs = b["content"].get("tool_references") or []
                    b = {**b, "content": {**b["content"], "tool_references": [
                        self.by_name.get(r.get("tool_name"), r) for r in refs]}}
                blocks.append(b)
            out.append({**m, "content": blocks})
        return out

    def _definition_text(self, c: dict) -> dict:
        if c.get("type") != "tool_reference":
            return c
        definition = self.by_name[c["tool_name"]]
        return {"type": "text", "text": json.dumps(definition, sort_keys=True,
                                                   ensure_ascii=False)}


def programmatic_ids(messages: list) -> set[str]:
    """The ids of the tool calls a script made (`caller` not `direct`)."""
    return {b.get("id") for m in messages if isinstance(m.get("content"), list)
            for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_use"
            and isinstance(b.get("caller"), dict) and b["caller"].get("type") != "direct"}


def hide_programmatic(messages: list) -> list:
    """The history without the calls a script made and their results: the model's context."""
    ids = programmatic_ids(messages)
    if not ids:
        return messages
    out = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):
            kept = [b for b in content if not (b.get("type") == "tool_use" and b.get("id") in ids)
                    and not (b.get("type") == "tool_result" and b.get("tool_use_id") in ids)]
            if not kept:
                continue
            m = {**m, "content": kept}
        if out and out[-1]["role"] == m["role"] and isinstance(m.get("content"), list) and \
                isinstance(out[-1].get("content"), list):
            out[-1] = {**out[-1], "content": out[-1]["content"] + m["content"]}
        else:
            out.append(m)
    return out


# ---------------------------------------------------------------- the server's tool search

def _text(t: dict) -> str:
    """What a search reads of a tool: name, description, argument names and descriptions."""
    props = (t.get("input_schema") or {}).get("properties") or {}
    args = " ".join(f"{k} {v.get('description', '')}" for k, v in props.items()
                    if isinstance(v, dict))
    return f"{t['name']} {t.get('description', '')} {args}"


WORD_RE = re.compile(r"[a-z0-9]+")


def search(kind: str, query, deferred: list[dict]) -> dict:
    """The `content` of a tool_search_tool_result: up to 5 references, or the error."""
    if not isinstance(query, str) or not query.strip():
        return {"type": "tool_search_tool_result_error", "error_code": "invalid_tool_input"}
    if kind == "tool_search_tool_regex":
        if len(query) > MAX_PATTERN:
            return {"type": "tool_search_tool_result_error", "error_code": "pattern_too_long"}
        try:
            pattern = re.compile(query)
        except re.error:
            return {"type": "tool_search_tool_result_error", "error_code": "invalid_pattern"}
        scored = [(len(pattern.findall(_text(t))) + 3 * bool(pattern.search(t["name"])), i, t)
                  for i, t in enumerate(deferred)]
    else:
        scored = _bm25(query, deferred)
    hits = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))[:MAX_RESULTS]
    return {"type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": t["name"]}
                                for _, _, t in hits]}


def _bm25(query: str, tools: list[dict], k1: float = 1.2, b: float = 0.75):
    docs = [WORD_RE.findall(_text(t).lower().replace("_", " ")) for t in tools]
    avg = sum(map(len, docs)) / max(1, len(docs))
    terms = set(WORD_RE.findall(query.lower().replace("_", " ")))
    words = [set(d) for d in docs]
    df = {term: sum(term in w for w in words) for term in terms}  # once per term, not per tool
    out = []
    for i, (t, doc) in enumerate(zip(tools, docs, strict=True)):
        score = 0.0
        for term in terms:
            tf = doc.count(term)
            if tf:
                idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / avg))
        out.append((round(score, 6), i, t))
    return out
