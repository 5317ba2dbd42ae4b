"""Thinking: which `thinking` a request may ask for, signed thinking blocks, and checking
that they come back unmodified.

A signature is opaque to the client, as the API's is: here it carries the thinking text
(so a block shown with `display: "omitted"` still counts as context) and an HMAC with a
fixed course key, so a changed block is caught. On models that bind thinking to the
conversation (Sonnet 5.5 and the other 5.5 models) it also covers the history before the
block, so editing that history invalidates it. Texts: docs/api-facts.md, section 9.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from functools import lru_cache

from apiwire.models import Model
from standin import compaction, memo
from standin.errors import APIError, extra

KEY = b"offline-course-model: a fixed key, not a secret"
BINDING = "thinking-binding-controls-2026-08-01"
TAGS = ("adaptive", "between_tools", "disabled", "enabled")
TOOL_USE = "Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior."


MISMATCH = ("error", "drop_block")


def config(row: Model, request: dict, betas: frozenset | set = frozenset()) -> dict | None:
    """The thinking a request gets, checked against the model; None when it does not think.
    With the beta `thinking-binding-controls-2026-08-01`, `block_binding` says what a block
    that fails the prefix check does: `"error"` (the default) or `"drop_block"`."""
    spec = request.get("thinking")
    forced = (request.get("tool_choice") or {}).get("type") in ("any", "tool")
    if spec is None:
        kind = row.thinking if row.thinking != "off" else None
        spec = {"type": kind} if kind else None
    if spec is None:
        return None
    if not isinstance(spec, dict) or spec.get("type") not in TAGS:
        tag = spec.get("type") if isinstance(spec, dict) else spec
        raise APIError(400, f"thinking: Input tag '{tag}' found using 'type' does not match any "
                       f"of the expected tags: {', '.join(repr(t) for t in TAGS)}")
    kind = spec["type"]
    for key in spec:
        if key not in ("type", "budget_tokens", "display", "block_binding") or \
                key == "block_binding" and (BINDING not in betas or
                                            kind not in ("adaptive", "enabled")):
            raise extra(f"thinking.{kind}.{key}")
    mismatch = _binding(spec, kind)
    if kind not in row.thinking_types:
        raise APIError(400, refusal(kind, row))
    if kind == "disabled":
        return None
    display = spec.get("display") or row.display
    if display not in ("summarized", "omitted"):
        raise APIError(400, f"thinking.{kind}.display: Input should be 'summarized' or 'omitted'")
    if kind == "enabled":
        budget = spec.get("budget_tokens")
        if not isinstance(budget, int) or budget < 1024:
            raise APIError(400, "thinking.enabled.budget_tokens: Input should be greater than "
                           "or equal to 1024")
        if "max_tokens" in request and budget >= request["max_tokens"]:
            raise APIError(400, "`max_tokens` must be greater than `thinking.budget_tokens`. "
                           "Please consult our documentation at https://docs.claude.com/en/"
                           "docs/build-with-claude/extended-thinking#max-tokens-and-context-"
                           "window-size")
        if forced:
            raise APIError(400, "Thinking may not be enabled when tool_choice forces tool use")
    elif forced and not row.forced_tools_with_thinking:  # course wording: text not found
        raise APIError(400, "tool_choice: forced tool use (`any` or `tool`) is not supported "
                       f"with thinking on this model. Use `auto` or `none`. {TOOL_USE}")
    return {"type": kind, "display": display, "mismatch": mismatch,
            "controls": BINDING in betas}


def _binding(spec: dict, kind: str) -> str | None:
    """`thinking.block_binding.prefix_mismatch_behavior`, checked (None: not set)."""
    binding = spec.get("block_binding")
    if binding is None:
        return None
    where = f"thinking.{kind}.block_binding"
    if not isinstance(binding, dict):
        raise APIError(400, f"{where}: Input should be a valid dictionary")
    for key in binding:
        if key != "prefix_mismatch_behavior":
            raise extra(f"{where}.{key}")
    value = binding.get("prefix_mismatch_behavior")
    if value is not None and value not in MISMATCH:
        raise APIError(400, f"{where}.prefix_mismatch_behavior: Input should be 'error' or "
                       "'drop_block'")
    return value


def refusal(kind: str, row: Model) -> str:
    """The API's text for a thinking type this model does not take."""
    if kind == "adaptive":
        return "adaptive thinking is not supported on this model"
    if kind == "disabled" and "enabled" in row.thinking_types:
        return ('"thinking.type.disabled" is not supported for this model. Thinking defaults '
                'to adaptive mode when not specified; use "thinking.type.enabled" with '
                '"budget_tokens" for extended thinking.')
    hint = f" {TOOL_USE}" if "adaptive" in row.thinking_types else ""
    return f'"thinking.type.{kind}" is not supported for this model.{hint}'


# ---------------------------------------------------------------- signatures

DROPPED = ("cache_control", "signature", "thinking")
# what JSON with sorted keys shows when a dict holds a key of DROPPED or a None value
_MARKS = (*(f'"{k}": ' for k in DROPPED), ": null")


def _canonical(x):
    """A message list as JSON-able data without what may change in transit (None values,
    cache_control, the shown thinking text)."""
    if isinstance(x, dict):
        return {k: _canonical(v) if isinstance(v, dict | list) else v
                for k, v in sorted(x.items()) if v is not None and k not in DROPPED}
    if isinstance(x, list):
        return [_canonical(v) if isinstance(v, dict | list) else v for v in x]
    return x


def _canonical_json(x) -> bytes:
    """The JSON of `_canonical(x)`. A user message (a task, tool results: most of a history's
    bytes) seldom holds anything to drop, and then its JSON with sorted keys is already it:
    that text shows any key to drop or None value (such text inside a string only sends
    it the slow way). An assistant message, with its thinking, goes the slow way at once."""
    if isinstance(x, dict) and x.get("role") == "user":
        data = json.dumps(x, sort_keys=True, ensure_ascii=False)
        if not any(mark in data for mark in _MARKS):
            return data.encode("utf-8")
    return json.dumps(_canonical(x), ensure_ascii=False).encode("utf-8")


# a message's canonical JSON, by its exact value: serialized once, not once per request
_json = memo.ByValue(_canonical_json)


def _referenced(m: dict) -> list[str]:
    """The tools a message names by `tool_reference`: in a tool change, a tool result or a
    tool search result (what brings a deferred tool into the conversation)."""
    names = []
    for b in m.get("content") if isinstance(m.get("content"), list) else []:
        if not isinstance(b, dict):
            continue
        kind, inner = b.get("type"), b.get("content")
        if kind in ("tool_addition", "tool_removal") and isinstance(b.get("tool"), dict):
            names.append(b["tool"].get("name"))
        elif kind == "tool_result" and isinstance(inner, list):
            names += [c.get("tool_name") for c in inner
                      if isinstance(c, dict) and c.get("type") == "tool_reference"]
        elif kind == "tool_search_tool_result" and isinstance(inner, dict):
            names += [r.get("tool_name") for r in inner.get("tool_references") or []
                      if isinstance(r, dict)]
    return names


class Prefixes:
    """Each bound block's prefix, "the top-level `system` prompt, `tools`, and `messages`
    before the block" (docs/api-facts.md 9.4), as a digest, each message read once: a frame
    (the system prompt and the tools not deferred) and a chain, one sha256 per message, so
    the digest of the first `i` messages is the frame and the chain after them.

    A deferred tool joins the chain where a message first names it ("the prefix check ignores
    a deferred tool until a tool_addition block references it"). A history opening with a
    signed on-demand compaction block starts from the chain that block carries, the binding
    of the messages it replaced, so the turns kept after it keep their thinking under the
    docs' conditions (docs/api-facts.md 7.2.5)."""

    def __init__(self, tools, system, messages: list[dict], json_of=None):
        self.tools, self.system, self.messages = tools or [], system, messages
        self.json = json_of or _json
        self.frame = None  # made when first asked: nothing is read unasked
        self.chain, self.n = b"", 0
        self.deferred: dict = {}
        self.named: set = set()
        self.first_kept = None  # the role the message after a swapped-in block must not have

    def _start(self) -> None:
        upfront = [t for t in self.tools if not (isinstance(t, dict) and t.get("defer_loading"))]
        self.deferred = {t.get("name"): t for t in self.tools
                         if isinstance(t, dict) and t.get("defer_loading")}
        self.frame = hashlib.sha256(b"[" + self.json(upfront) + b", " + self.json(self.system)
                                    + b"]").digest()

    def _fold(self, m: dict) -> None:
        data = self.json(m)
        if self.deferred:
            new = [n for n in _referenced(m) if n in self.deferred and n not in self.named]
            self.named.update(new)
            data += b"".join(self.json(self.deferred[n]) for n in new)
        self.chain = hashlib.sha256(self.chain + data).digest()

    def _opening(self, m: dict) -> None:
        """Message 0: an on-demand block's carried chain, then the rest of the message."""
        content = m.get("content") if isinstance(m, dict) else None
        first = content[0] if isinstance(content, list) and content else None
        carried = compaction.opened(first) if isinstance(first, dict) and \
            first.get("type") == "compaction" else None
        if not carried or "chain" not in carried:
            return self._fold(m)
        ok = carried["frame"] == self.frame.hex() and carried["bound"]
        self.chain = bytes.fromhex(carried["chain"])
        if not ok:  # another system, other tools, or summarized on a model that binds nothing
            self.chain = hashlib.sha256(b"unbound" + self.chain).digest()
        self.first_kept = carried["last_role"]
        if len(content) > 1:
            self._kept({**m, "content": content[1:]})

    def _kept(self, m: dict) -> None:
        """The first message after the block: merged into the last summarized one (same role)
        or a system message between them, the kept thinking no longer matches."""
        if m.get("role") in (self.first_kept, "system"):
            self.chain = hashlib.sha256(b"merged" + self.chain).digest()
        self.first_kept = None
        self._fold(m)

    def state(self, i: int) -> tuple[str, str]:
        """(frame, chain) after the first `i` messages, as hex; `i` never goes back."""
        if self.frame is None:
            self._start()
        if i < self.n:
            raise ValueError(f"prefix {i} is behind the {self.n} messages already read")
        for m in self.messages[self.n:i]:
            if self.n == 0:
                self._opening(m)
            elif self.first_kept is not None:
                self._kept(m)
            else:
                self._fold(m)
            self.n += 1
        return self.frame.hex(), self.chain.hex()

    def at(self, i: int) -> str:
        """The digest of the first `i` messages' prefix."""
        frame, chain = self.state(i)
        return hashlib.sha256(bytes.fromhex(frame) + bytes.fromhex(chain)).hexdigest()[:32]


def prefix_digest(tools, system, messages: list[dict]) -> str:
    """The same digest computed afresh, each message serialized anew (no memory): what
    `Prefixes` must give at every step."""
    return Prefixes(tools, system, messages, json_of=_canonical_json).at(len(messages))


def sign(row: Model, text: str, shown: str, prefix: str) -> str:
    """The block's signature: its thinking, what was shown, the binding, and an HMAC."""
    payload = json.dumps({"model": row.id, "thinking": text, "shown": shown,
                          "prefix": prefix if row.binds_thinking else ""},
                         ensure_ascii=False, sort_keys=True).encode("utf-8")
    return base64.b64encode(payload + hmac.digest(KEY, payload, "sha256")).decode("ascii")


def open_signature(signature) -> dict | None:
    """The payload of a signature this server made, or None. A history comes back with
    every request, so a signature already opened is remembered (`_opened`)."""
    if isinstance(signature, str):
        payload = _opened(signature)
        return None if payload is None else dict(payload)
    return _open(signature)


@lru_cache(maxsize=16_384)
def _opened(signature: str) -> dict | None:
    return _open(signature)


def _open(signature) -> dict | None:
    try:
        raw = base64.b64decode(signature, validate=True)
        payload, mac = raw[:-32], raw[-32:]
        if hmac.compare_digest(mac, hmac.digest(KEY, payload, "sha256")):
            return json.loads(payload)
    except (ValueError, TypeError):
        pass
    return None


def summary(text: str) -> str:
    """The summary shown for notes written between tool calls (course choice, the docs give
    no wording): each line up to its first ": ", what it is about without what it found."""
    return "\n".join(line.split(": ", 1)[0] + ("." if ": " in line else "")
                     for line in text.splitlines())


def block(row: Model, cfg: dict, text: str, prefixes: Prefixes, *,
          summaries: bool = False) -> dict:
    """A signed thinking block for the reply to the whole history of `prefixes` (its digest
    is read only on a model that binds thinking). With `summaries`, a `between_tools`
    block shown summarized shows `summary(text)`; the signature keeps the full notes,
    which the model reads when the block comes back (docs/api-facts.md 9.6)."""
    shown = text if cfg["display"] == "summarized" else ""
    if summaries and shown and cfg["type"] == "between_tools":
        shown = summary(text)
    prefix = prefixes.at(len(prefixes.messages)) if row.binds_thinking else ""
    return {"type": "thinking", "thinking": shown, "signature": sign(row, text, shown, prefix)}


# ---------------------------------------------------------------- the history

def _current_turn(messages: list[dict]) -> int:
    """Index of the first message of the current turn: after the last user message that is
    more than tool results (a tool loop is one turn)."""
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        content = m["content"] if isinstance(m["content"], list) else [{"type": "text"}]
        if m["role"] == "user" and any(b.get("type") != "tool_result" for b in content):
            return i + 1
    return 0


def seen(row: Model, cfg: dict | None, tools, system, messages: list[dict],
         prefixes: Prefixes | None = None, dropped: list | None = None) -> list[dict]:
    """The history as the model sees it: thinking blocks checked (400 if changed), their
    hidden text restored, and earlier turns' thinking dropped on models that do not keep it.
    A block bound to another conversation is a 400, or, with `prefix_mismatch_behavior:
    "drop_block"`, dropped with every thinking block after it, each path added to `dropped`
    (the response's `input_transformations`). `prefixes`: the history's digests, if the
    caller reads them on (else made here)."""
    last_assistant = max((i for i, m in enumerate(messages) if m["role"] == "assistant"),
                         default=-1)
    turn = _current_turn(messages)
    prefixes = Prefixes(tools, system, messages) if prefixes is None else prefixes
    dropped = [] if dropped is None else dropped
    drop = bool(cfg and cfg.get("mismatch") == "drop_block")
    failed = False  # a block failed the prefix check: with drop_block, every later one goes
    out = []
    for i, m in enumerate(messages):
        if m["role"] != "assistant" or not isinstance(m["content"], list):
            out.append(m)
            continue
        content = []
        for j, b in enumerate(m["content"]):
            kind = b.get("type") if isinstance(b, dict) else None
            if kind not in ("thinking", "redacted_thinking"):
                content.append(b)
                continue
            if i < turn and not row.keeps_thinking:
                continue  # stripped, unread, as the API does on these models
            where = f"messages.{i}.content.{j}"
            if failed:
                dropped.append(where)
                continue
            try:
                content.append(_checked(row, b, where, i == last_assistant, prefixes, i,
                                        bool(cfg and cfg.get("controls"))))
            except Mismatch:
                if not drop:
                    raise
                failed = True
                dropped.append(where)
        if content or not m["content"]:
            out.append({**m, "content": content})
    final = messages[-1]
    if cfg is None and final["role"] == "assistant" and any(
            isinstance(b, dict) and b.get("type") in ("thinking", "redacted_thinking")
            for b in final["content"] if isinstance(final["content"], list)):
        raise APIError(400, f"messages.{len(messages) - 1}.content.0: When thinking is disabled, "
                       "an `assistant` message in the final position cannot contain `thinking`. "
                       "To use thinking blocks, enable `thinking` in your request.")
    if cfg and cfg["type"] == "enabled" and 0 <= last_assistant and turn <= last_assistant:
        _starts_with_thinking(messages, last_assistant)
    return out


class Mismatch(APIError):
    """A block bound to a different conversation: the API's 400, or a drop (`drop_block`)."""


def _checked(row: Model, b: dict, where: str, latest: bool, prefixes: Prefixes,
             i: int, controls: bool = False) -> dict:
    if b["type"] == "redacted_thinking":  # never made here, so never valid (course wording)
        raise APIError(400, f"{where}: Invalid `data` in `redacted_thinking` block")
    payload = open_signature(b.get("signature"))
    if payload is None:
        raise APIError(400, f"{where}: Invalid `signature` in `thinking` block")
    if payload["shown"] != b.get("thinking"):
        if latest:
            raise APIError(400, f"{where}: `thinking` or `redacted_thinking` blocks in the "
                           "latest assistant message cannot be modified. These blocks must "
                           "remain as they were in the original response.")
        raise APIError(400, f"{where}: Invalid `signature` in `thinking` block")
    if row.binds_thinking and payload["prefix"] != prefixes.at(i):
        beta = "" if controls else (" That setting requires the `thinking-binding-controls-"
                                    "2026-08-01` value in the `anthropic-beta` header.")
        raise Mismatch(400, f"{where}: Invalid `signature` in `thinking` block. The block is "
                       "bound to a different conversation. Remove the block, or set "
                       "`thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\"."
                       + beta)
    return {"type": "thinking", "thinking": payload["thinking"]}


def _starts_with_thinking(messages: list[dict], i: int) -> None:
    """With manual thinking, the assistant message of an unfinished tool loop must start
    with its thinking block."""
    content = messages[i]["content"]
    first = content[0].get("type") if isinstance(content, list) and content else "text"
    if first not in ("thinking", "redacted_thinking"):
        raise APIError(400, f"messages.{i}.content.0.type: Expected `thinking` or "
                       f"`redacted_thinking`, but found `{first}`. When `thinking` is enabled, "
                       "a final `assistant` message must start with a thinking block "
                       "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). "
                       "We recommend you include thinking blocks from previous turns. To avoid "
                       "this requirement, disable `thinking`. Please consult our documentation "
                       "at https://docs.claude.com/en/docs/build-with-claude/extended-thinking")
