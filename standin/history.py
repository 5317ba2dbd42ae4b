"""How the stand-in reads a history: blocks, result text, and the API's rules for a valid one.

The server's own copy of the rules (it imports nothing of the agent): `validate` raises
`HistoryError` worded as the API words its 400. `agentlib.messages.validate` is the client's
pre-flight check that lesson 2 derives; `tests/test_standin_independent.py` holds the two
to the same verdicts and messages.
"""

from __future__ import annotations

from typing import Any

Block = dict[str, Any]

SUMMARY_MARK = "[Summary of earlier turns]"  # how the course's compactor opens its summary


def blocks(message: dict) -> list[Block]:
    """The content of a message as a list of blocks (a plain string becomes one text block)."""
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content or [])


def result_text(block: Block) -> str:
    """The text inside a tool_result block, whether its content is a string or blocks."""
    content = block.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))


ROLES = ("user", "assistant", "system")
BLOCK_TYPES = {
    "text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking",
    "compaction", "search_result", "server_tool_use",
}


class HistoryError(ValueError):
    """A history the API rejects; the message is the API's exact text."""

    def __init__(self, api_message: str, hint: str = "", index: int | None = None):
        self.api_message = api_message
        super().__init__(api_message)


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


def validate(messages: Any) -> None:
    """Raise HistoryError, worded as the API words its 400, if the API would reject `messages`.

    Consecutive same-role messages are merged into one turn, as the API does; indices in
    errors are positions in the list as given.
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
