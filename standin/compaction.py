"""Server-side compaction: the `compact_20260112` edit, top-level `compaction` (on demand),
and what a later request sees of a history that holds a compaction block.

The server writes the summary with its own default prompt, the one the docs give, which
asks for a summary wrapped in <summary></summary>; `instructions` replace it. The summary
is bounded: no line over LINE_MAX tokens, the whole under SUMMARY_MAX (the docs do not
say how long a summary is; their example is 3,500 tokens for 180,000). A compaction block
with `content: null` (a failed compaction) is a no-op. Sources: docs/api-facts.md, §7.
"""

from __future__ import annotations

import base64
import hmac
import json

from standin import summarizer, tokens
from standin.errors import APIError, extra

TRIGGER, MINIMUM = 150_000, 50_000
SUMMARY_MAX, LINE_MAX = 8_192, 2_048
KEY = b"offline-course-model: compaction blocks"
# The default prompt the docs give (docs/api-facts.md 7.1.3).
DEFAULT_PROMPT = (
    "You have written a partial transcript for the initial task above. Please write a "
    "summary of the transcript. The purpose of this summary is to provide continuity so you "
    "can continue to make progress towards solving the task in a future context, where the "
    "raw history above may not be accessible and will be replaced with this summary. Write "
    "down anything that would be helpful, including the state, next steps, learnings etc. "
    "You must wrap your summary in a <summary></summary> block.")


def check(messages: list[dict]) -> None:
    """The compaction blocks of a history, as the API checks them: no empty summary; a
    signed (on-demand) block unchanged, first in `messages` (the messages it summarizes
    removed), and only one (docs/api-facts.md 7.2)."""
    signed = []
    for i, m in enumerate(messages):
        content = m.get("content")
        for j, b in enumerate(content if isinstance(content, list) else []):
            if not isinstance(b, dict) or b.get("type") != "compaction":
                continue
            if b.get("content") == "":
                raise APIError(400, f"messages.{i}.content.{j}.content: Empty string content "
                               "is not allowed")
            if b.get("signature") is None:
                continue  # a threshold block, or a client's own
            if opened(b) is None:
                raise APIError(400, f"messages.{i}.content.{j}: the compaction block's "
                               "signature does not match its content",
                               {"error_code": "compaction_signature_invalid"})
            signed.append((i, j))
    if signed and signed[0] != (0, 0):  # course wording: the docs give the code only
        i, j = signed[0]
        raise APIError(400, f"messages.{i}.content.{j}: a signed compaction block goes first "
                       "in `messages`, in place of the messages it summarizes; remove the "
                       "messages in front of it", {"error_code": "compaction_block_misplaced"})
    if len(signed) > 1:
        i, j = signed[1]
        raise APIError(400, f"messages.{i}.content.{j}: a request carries one `compaction` "
                       "block: send only the newest")


def visible(messages: list[dict]) -> list[dict]:
    """What the model sees of a history: from the newest compaction block with content on
    (a block with `content: null` drops nothing). `check` has passed."""
    for i in range(len(messages) - 1, -1, -1):
        content = messages[i].get("content")
        if not isinstance(content, list):
            continue
        for j in range(len(content) - 1, -1, -1):
            b = content[j]
            if isinstance(b, dict) and b.get("type") == "compaction" and \
                    b.get("content") is not None:
                return [{**messages[i], "content": content[j:]}] + messages[i + 1:]
    return messages


def edit_config(edit: dict, where: str) -> dict:
    """The checked `compact_20260112` edit, with its defaults."""
    trigger = edit.get("trigger") or {"type": "input_tokens", "value": TRIGGER}
    if not isinstance(trigger, dict) or trigger.get("type") != "input_tokens" or \
            not isinstance(trigger.get("value"), int):
        raise APIError(400, f"{where}.trigger: `input_tokens` is the only supported trigger "
                       "type, with an integer `value`")
    if trigger["value"] < MINIMUM:
        raise APIError(400, f"{where}.trigger.value: must be at least {MINIMUM} input tokens, "
                       f"got {trigger['value']}")
    instructions = edit.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise APIError(400, f"{where}.instructions: Input should be a valid string")
    return {"trigger": trigger["value"], "instructions": instructions,
            "pause": bool(edit.get("pause_after_compaction", False))}


def summary(messages: list[dict], instructions: str | None) -> str:
    """The server's summary of what the model sees, bounded and shaped as asked."""
    prompt = instructions if instructions and instructions.strip() else DEFAULT_PROMPT
    text = summarizer.summarize(summarizer.turns_from_messages(messages), prompt)
    text = bounded(text)
    return f"<summary>\n{text}\n</summary>" if "<summary></summary>" in prompt else text


def bounded(text: str) -> str:
    """A summary restates, it does not copy: long lines are cut, and so is the whole."""
    enc, out, used = tokens.encoding(), [], 0
    for line in text.splitlines():
        ids = enc.encode(line, disallowed_special=())
        if len(ids) > LINE_MAX:
            line = enc.decode(ids[:LINE_MAX]) + " […]"
        n = tokens.count_text(line) + 1
        if used + n > SUMMARY_MAX:
            out.append("[…the summary stops here: it reached its length limit]")
            break
        out.append(line)
        used += n
    return "\n".join(out)


def seal(content, carried: dict) -> str:
    """The signature of an on-demand compaction block: what it carries (the binding of the
    messages it replaces, for the thinking kept after it) and an HMAC of that and of its
    content."""
    payload = json.dumps(carried, sort_keys=True).encode("utf-8")
    mac = hmac.digest(KEY, payload + b"\n" + (content or "").encode("utf-8"), "sha256")
    return base64.b64encode(payload + mac).decode("ascii")


def opened(block: dict) -> dict | None:
    """What a signed block made here carries, or None if it was changed (or not made here)."""
    try:
        raw = base64.b64decode(block.get("signature") or "", validate=True)
        payload, mac = raw[:-32], raw[-32:]
        content = (block.get("content") or "").encode("utf-8")
        if hmac.compare_digest(mac, hmac.digest(KEY, payload + b"\n" + content, "sha256")):
            return json.loads(payload)
    except (ValueError, TypeError, AttributeError):
        pass
    return None


def on_demand(request: dict, messages: list[dict], carried: dict) -> dict:
    """Top-level `compaction`: the signed compaction block that replaces `messages`.
    `carried`: the binding of the request's messages, which the block stands in for in the
    prefix of every thinking block kept after it (`thinking.Prefixes`)."""
    spec = request["compaction"]
    if not isinstance(spec, dict) or spec.get("type") != "summarize":
        raise APIError(400, "compaction.type: Input should be 'summarize'")
    for key in set(spec) - {"type", "instructions"}:
        raise extra(f"compaction.{key}")
    if "context_management" in request:  # course wording: the docs give no text
        raise APIError(400, "compaction: cannot be combined with `context_management`")
    if not any(isinstance(b, dict) and b.get("type") != "compaction"
               for m in messages for b in (m["content"] if isinstance(m["content"], list)
                                           else [{"type": "text"}])):
        raise APIError(400, "compaction: there is nothing to summarize after the last "
                       "compaction block", {"error_code": "compaction_nothing_to_summarize"})
    text = summary(messages, spec.get("instructions"))
    return {"type": "compaction", "content": text, "signature": seal(text, carried)}
