"""Messages in the API's own shape (plain dicts), and the API's rules for a valid history.

`validate(messages)` is the client's pre-flight check, worded as the API's 400: strategies
use it to prove that what they return would be accepted. (The stand-in has its own copy of
these rules, `standin/history.py`; a test holds the two to the same verdicts.)
"""

from __future__ import annotations

import json
from typing import Any

from apiwire import models

Message = dict[str, Any]
Block = dict[str, Any]

SUMMARY_MARK = "[Summary of earlier turns]"  # opens the user message a compaction leaves
TRUNCATION_MARK = "[Earlier turns removed"  # opens the marker a truncation leaves

# ---------------------------------------------------------------- building blocks


def text(s: str) -> Block:
    """A text block."""
    return {"type": "text", "text": s}


def tool_use(id: str, name: str, input: dict | None = None) -> Block:
    """A tool_use block (the model asking for a tool call)."""
    return {"type": "tool_use", "id": id, "name": name, "input": dict(input or {})}


def tool_result(tool_use_id: str, content: str | list, is_error: bool = False) -> Block:
    """A tool_result block (the host's answer to one tool_use)."""
    block: Block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


def user(*content: str | Block) -> Message:
    """A user message; strings become text blocks."""
    return {"role": "user", "content": [text(c) if isinstance(c, str) else c for c in content]}


def assistant(*content: str | Block) -> Message:
    """An assistant message; strings become text blocks."""
    return {"role": "assistant", "content": [text(c) if isinstance(c, str) else c for c in content]}


def system_message(*content: str | Block) -> Message:
    """A mid-conversation system message: an instruction from you, the operator, appended
    where it becomes true instead of an edit of the top-level `system`; strings become text
    blocks (docs/api-facts.md 2.13)."""
    return {"role": "system", "content": [text(c) if isinstance(c, str) else c for c in content]}


def tool_addition(name: str) -> Block:
    """Offer `name`, a tool of the request's `tools`, from here on (in a system message; beta
    `mid-conversation-tool-changes-2026-07-01`): `tools` itself never changes."""
    return {"type": "tool_addition", "tool": {"type": "tool_reference", "name": name}}


def tool_removal(name: str) -> Block:
    """Withdraw `name` from here on (in a system message; same beta as `tool_addition`)."""
    return {"type": "tool_removal", "tool": {"type": "tool_reference", "name": name}}


def append_system(messages: list[Message], *content: str | Block) -> list[Message]:
    """The history with a system message appended: a new list, nothing before it changed, so
    the cached prefix and every thinking block stay valid. It follows a user turn (the task
    or tool results) and precedes the assistant's next turn; after an assistant turn the
    API refuses it, and so does this (a HistoryError)."""
    out = [*messages, system_message(*content)]
    _check_system_places(out)
    return out


# ---------------------------------------------------------------- reading messages


def blocks(message: Message) -> list[Block]:
    """The content of a message as a list of blocks (a plain string becomes one text block)."""
    content = message.get("content")
    if isinstance(content, str):
        return [text(content)]
    return list(content or [])


def result_text(block: Block) -> str:
    """The text inside a tool_result block, whether its content is a string or blocks."""
    content = block.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))


def message_text(message: Message) -> str:
    """All text blocks of a message, joined."""
    return "\n".join(b["text"] for b in blocks(message) if b.get("type") == "text")


def starts_with_tool_result(message: Message) -> bool:
    """True when a message opens with a tool_result: a history may not be cut just before it."""
    bs = blocks(message)
    return bool(bs) and bs[0].get("type") == "tool_result"


# ---------------------------------------------------------------- validation

LESSON_HINTS = {
    "split": "a cut or a deletion separated a tool_use from its tool_result; "
    "see lessons/02_truncation_and_the_400.ipynb",
    "orphan": "the tool_use this result answers is not in the message just before it (was it cut "
    "or deleted?); see lessons/02_truncation_and_the_400.ipynb and 04 (empty, never delete)",
    "empty": "every message needs content; to clear a result, replace its text with a placeholder "
    "(lessons/04_clearing_old_tool_results.ipynb)",
    "blank": "a text block must hold some non-whitespace text",
    "system": "a `role: \"system\"` message goes after a user turn (tool results included) and "
    "before the assistant's next turn or last, never first; appended there it changes nothing "
    "before it (lessons/04b_clearing_on_the_server_and_bound_thinking.ipynb)",
    "none": "send at least one user message (lessons/01_append_only_growth.ipynb)",
    "too_long": "the history no longer fits the window; lessons 02-05 show ways to shrink it "
    "(lessons/01_append_only_growth.ipynb shows why it grows)",
    "shape": "each message is {'role': 'user'|'assistant'|'system', 'content': str | list of "
    "blocks}",
    "prefill": "a history must end with a user turn (the task, or the newest tool results), "
    "so a strategy keeps the newest turn whole, its results emptied at most "
    "(lessons/02_truncation_and_the_400.ipynb; lessons/07_choosing_and_combining.ipynb)",
}
PREFILL_REFUSED = ("This model does not support assistant message prefill. The conversation "
                   "must end with a user message.")  # the API's words (docs/api-facts.md 2.11)

ROLES = ("user", "assistant", "system")
BLOCK_TYPES = {
    "text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking",
    "compaction", "search_result", "server_tool_use",
}


class HistoryError(ValueError):
    """A history the API would reject. `api_message` is the API's exact text."""

    def __init__(self, api_message: str, hint: str = "", index: int | None = None):
        self.api_message = api_message
        self.hint = LESSON_HINTS.get(hint, hint)
        self.index = index
        super().__init__(api_message + (f"\n  hint: {self.hint}" if self.hint else ""))


def _check_block(i: int, j: int, b: Any, role: str) -> None:
    where = f"messages.{i}.content.{j}"
    if not isinstance(b, dict):
        raise HistoryError(f"{where}: Input should be a valid dictionary", "shape", i)
    kind = b.get("type")
    if kind not in BLOCK_TYPES:
        expected = ", ".join(f"'{t}'" for t in sorted(BLOCK_TYPES))
        raise HistoryError(
            f"{where}: Input tag '{kind}' found using 'type' does not match any of the expected "
            f"tags: {expected}", "shape", i)
    if kind == "text":
        if not isinstance(b.get("text"), str):
            raise HistoryError(f"{where}.text: Input should be a valid string", "shape", i)
    elif kind == "tool_use":
        if role != "assistant":
            raise HistoryError(f"{where}: `tool_use` blocks can only be in `assistant` messages",
                               "shape", i)
        for field, typ, word in (("id", str, "string"), ("name", str, "string"),
                                 ("input", dict, "dictionary")):
            if field not in b:
                raise HistoryError(f"{where}.{field}: Field required", "shape", i)
            if not isinstance(b[field], typ):
                raise HistoryError(f"{where}.{field}: Input should be a valid {word}", "shape", i)
    elif kind == "tool_result":
        if role != "user":
            raise HistoryError(f"{where}: `tool_result` blocks can only be in `user` messages",
                               "shape", i)
        if not isinstance(b.get("tool_use_id"), str):
            raise HistoryError(f"{where}.tool_use_id: Field required", "shape", i)
        content = b.get("content", "")
        if isinstance(content, list):
            for k, c in enumerate(content):
                if not isinstance(c, dict) or c.get("type") not in ("text", "image", "document",
                                                                     "search_result"):
                    raise HistoryError(f"{where}.content.{k}: Input should be a text, image, "
                                       "document or search_result block", "shape", i)
                if c.get("type") == "text" and not isinstance(c.get("text"), str):
                    raise HistoryError(f"{where}.content.{k}.text: Input should be a valid string",
                                       "shape", i)
        elif not isinstance(content, str):
            raise HistoryError(f"{where}.content: Input should be a valid string or list",
                               "shape", i)


SYSTEM_BLOCK_TYPES = ("text", "tool_addition", "tool_removal")


def _check_system_block(i: int, j: int, b: Any, role: str) -> None:
    """A block of a mid-conversation system message: text, or a tool change naming a tool."""
    where = f"messages.{i}.content.{j}"
    if not isinstance(b, dict):
        raise HistoryError(f"{where}: Input should be a valid dictionary", "shape", i)
    kind = b.get("type")
    if kind not in SYSTEM_BLOCK_TYPES:
        expected = ", ".join(f"'{t}'" for t in SYSTEM_BLOCK_TYPES)
        raise HistoryError(
            f"{where}: Input tag '{kind}' found using 'type' does not match any of the expected "
            f"tags: {expected}", "shape", i)
    if kind == "text" and not isinstance(b.get("text"), str):
        raise HistoryError(f"{where}.text: Input should be a valid string", "shape", i)
    if kind != "text" and not isinstance(b.get("tool"), dict):
        raise HistoryError(f"{where}.tool: Field required", "shape", i)


def _ends_in_server_result(message: dict) -> bool:
    """An assistant turn whose last block is a server tool's (a paused turn)."""
    bs = blocks(message)
    kind = bs[-1].get("type", "") if bs and isinstance(bs[-1], dict) else ""
    return kind == "server_tool_use" or kind.endswith("_tool_result") and kind != "tool_result"


def _check_system_places(messages: list) -> None:
    """A run of `role: "system"` messages, judged as one: not first; right after a user turn
    (its tool results count) or an assistant turn ending in a server tool result; right
    before an assistant turn, or last."""
    i, last = 0, len(messages) - 1
    while i <= last:
        if messages[i]["role"] != "system":
            i += 1
            continue
        end = i
        while end < last and messages[end + 1]["role"] == "system":
            end += 1
        if i == 0:
            raise HistoryError("messages.0: role 'system' cannot be the first message; put "
                               "instructions that apply from the start in the top-level "
                               "`system` field", "system", 0)
        before = messages[i - 1]
        if before["role"] != "user" and not _ends_in_server_result(before):
            raise HistoryError(f"messages.{i}: role 'system' must follow a 'user' message or an "
                               "'assistant' message ending in a server tool result", "system", i)
        if end < last and messages[end + 1]["role"] != "assistant":
            raise HistoryError(f"messages.{end}: role 'system' must precede an 'assistant' "
                               "message or end the array", "system", end)
        i = end + 1

def _texts_of(b: Block) -> list[str]:
    if b.get("type") == "text":
        return [b["text"]]
    if b.get("type") == "tool_result" and isinstance(b.get("content"), list):
        return [c["text"] for c in b["content"] if c.get("type") == "text"]
    return []


def validate(messages: Any, *, model: str | None = None) -> None:
    """Raise HistoryError, worded as the API words its 400, if the API would reject `messages`.

    Consecutive same-role messages are merged into one turn, as the API does; indices in
    errors are positions in the list as given. With `model`, also what that model refuses:
    a history that ends on an assistant turn (a prefill), for a model that takes none.
    """
    if not isinstance(messages, list):
        raise HistoryError("messages: Input should be a valid list", "shape")
    if not messages:
        raise HistoryError("messages: at least one message is required", "none")
    last = len(messages) - 1
    # 1. shape of every message and block
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            raise HistoryError(f"messages.{i}: Input should be a valid dictionary", "shape", i)
        role = m.get("role")
        if role not in ROLES:
            raise HistoryError(f"messages.{i}.role: Input should be 'user', 'assistant' or "
                               "'system'", "shape", i)
        if "content" not in m:
            raise HistoryError(f"messages.{i}.content: Field required", "shape", i)
        content = m["content"]
        if not isinstance(content, str | list):
            raise HistoryError(f"messages.{i}.content: Input should be a valid string or list",
                               "shape", i)
        if not content and not (i == last and role == "assistant"):
            raise HistoryError(
                f"messages.{i}: all messages must have non-empty content except for the "
                "optional final assistant message", "empty", i)
        for j, b in enumerate(blocks(m)):
            (_check_system_block if role == "system" else _check_block)(i, j, b, role)
    # 2. blank text
    for i, m in enumerate(messages):
        final_prefill = i == last and m["role"] == "assistant"
        for b in blocks(m):
            for s in _texts_of(b):
                if not s.strip() and not (final_prefill and s == ""):
                    raise HistoryError("messages: text content blocks must contain "
                                       "non-whitespace text", "blank", i)
    # 3. where mid-conversation system messages stand; then merge consecutive same-role
    # messages into turns, system messages aside: (role, [(msg index, block index, block)])
    _check_system_places(messages)
    turns: list[tuple[str, list[tuple[int, int, Block]]]] = []
    for i, m in enumerate(messages):
        if m["role"] == "system":
            continue
        entries = [(i, j, b) for j, b in enumerate(blocks(m))]
        if turns and turns[-1][0] == m["role"]:
            turns[-1][1].extend(entries)
        else:
            turns.append((m["role"], entries))
    # 4. tool pairs, in order of position
    for t, (role, entries) in enumerate(turns):
        if role == "user":
            prev_ids = set()
            if t > 0:
                prev_ids = {b["id"] for _, _, b in turns[t - 1][1] if b["type"] == "tool_use"}
            bad = [(i, j, b) for i, j, b in entries
                   if b["type"] == "tool_result" and b["tool_use_id"] not in prev_ids]
            if bad:
                i, j, _ = bad[0]
                ids = ", ".join(b["tool_use_id"] for _, _, b in bad)
                raise HistoryError(
                    f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` "
                    f"blocks: {ids}. Each `tool_result` block must have a corresponding "
                    "`tool_use` block in the previous message.", "orphan", i)
        else:
            uses = [(i, b) for i, _, b in entries if b["type"] == "tool_use"]
            if not uses:
                continue
            answered: set[str] = set()
            if t + 1 < len(turns):
                for _, _, b in turns[t + 1][1]:
                    if b["type"] != "tool_result":
                        break
                    answered.add(b["tool_use_id"])
            missing = [(i, b) for i, b in uses if b["id"] not in answered]
            if missing:
                i = missing[0][0]
                ids = ", ".join(b["id"] for _, b in missing)
                raise HistoryError(
                    f"messages.{i}: `tool_use` ids were found without `tool_result` blocks "
                    f"immediately after: {ids}. Each `tool_use` block must have a corresponding "
                    "`tool_result` block in the next message.", "split", i)
    # 5. what this model refuses: system messages where it takes none; a final assistant turn
    # (a prefill) on the newer models
    said = next((i for i, m in enumerate(messages) if m["role"] == "system"), None)
    if model is not None and said is not None and not _system_messages(model):
        raise HistoryError(system_refused(model), f"messages.{said} is a `role: \"system\"` "
                           f"message, which {model} takes none of; {LESSON_HINTS['system']}",
                           said)
    if model is not None and messages[last]["role"] == "assistant" and not _prefill(model) \
            and not all(b.get("type") == "compaction" for b in blocks(messages[last]) or [{}]):
        raise HistoryError(PREFILL_REFUSED, f"messages.{last}, the last message, is the "
                           f"assistant's, and {model} takes no prefill; {LESSON_HINTS['prefill']}", last)


def _system_messages(model: str) -> bool:
    """Whether `model` takes mid-conversation system messages (the catalog's
    `system_messages`); a model the catalog does not know is checked by the API itself."""
    row = models.CATALOG.get(model)
    return row is None or row.system_messages


def system_refused(model: str) -> str:
    """The API's words for a `role: "system"` message on a model that takes none: the 4.5
    models' older text, the newer models' short one (docs/api-facts.md 2.13)."""
    row = models.CATALOG.get(model)
    if row is not None and row.tokenizer == "old" and "adaptive" not in row.thinking_types:
        return ('messages: Unexpected role "system". The Messages API accepts a top-level '
                '`system` parameter, not "system" as an input message role.')
    return "role 'system' is not supported on this model"


def _prefill(model: str) -> bool:
    """Whether `model` takes a final assistant message (the catalog's `prefill`); a model
    the catalog does not know is checked by the API itself."""
    row = models.CATALOG.get(model)
    return row is None or row.prefill


def is_valid(messages: Any) -> bool:
    """True when `validate` accepts the history."""
    try:
        validate(messages)
    except HistoryError:
        return False
    return True


def copy_history(messages: list[Message]) -> list[Message]:
    """A deep copy (strategies return new lists and never mutate their input)."""
    return json.loads(json.dumps(messages))
