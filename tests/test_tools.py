"""Tests for agentlib.tools and agentlib.workspace: definitions from functions, the Toolbox,
the notice, the sandbox."""

import os
from typing import Literal

import pytest

from agentlib.tools import Toolbox, tool_definition
from agentlib.workspace import NOTICE_RE, Workspace, parse_notice, split_lines, truncation_notice

SECRET = "TOP-SECRET-outside-the-root"


def lookup(city: str, days: int, units: float = 1.0, metric: bool = True,
           tags: list[str] | None = None, note: str | None = None) -> str:
    """Look up the weather forecast for a city.

    Uses the offline table only.

    Args:
        city: the city's name,
            as the user wrote it.
        days (int): how many days ahead.
        units: a scale factor.
        metric: Celsius if true.
        tags: labels to attach.

    Returns:
        The forecast as text.
    """
    return f"{city}:{days}:{units}:{metric}:{tags}:{note}"


def boom(x: int) -> str:
    """Always fails."""
    raise RuntimeError(f"bad x {x}")


def call(name: str, tool_input, tool_use_id: str = "toolu_1") -> dict:
    return {"type": "tool_use", "id": tool_use_id, "name": name, "input": tool_input}


# --- definitions ---------------------------------------------------------------------


def test_definition_types_required_and_descriptions():
    d = tool_definition(lookup)
    assert d["name"] == "lookup"
    assert d["description"] == "Look up the weather forecast for a city.\n\nUses the offline table only."
    schema = d["input_schema"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    props = schema["properties"]
    assert props["city"] == {"type": "string", "description": "the city's name, as the user wrote it."}
    assert props["days"] == {"type": "integer", "description": "how many days ahead."}
    assert props["units"]["type"] == "number"
    assert props["metric"]["type"] == "boolean"
    assert props["tags"] == {"type": "array", "items": {"type": "string"},
                             "description": "labels to attach."}
    assert props["note"] == {"type": "string"}  # X | None -> X, no Args entry -> no description
    assert schema["required"] == ["city", "days"]


def test_definition_name_override_literal_and_methods():
    def pick(mode: Literal["fast", "slow"], n: int | None) -> str:
        return mode

    d = tool_definition(pick, name="choose")
    assert d["name"] == "choose"
    assert d["description"] == ""
    assert d["input_schema"]["properties"]["mode"] == {"type": "string", "enum": ["fast", "slow"]}
    assert d["input_schema"]["required"] == ["mode"]  # n is nullable: not required

    class Thing:
        def act(self, word: str) -> str:
            """Act."""
            return word

    assert list(tool_definition(Thing().act)["input_schema"]["properties"]) == ["word"]
    assert list(tool_definition(Thing.act)["input_schema"]["properties"]) == ["word"]


@pytest.mark.parametrize("annotation", [dict, "missing", list, tuple[int, int], int | str])
def test_unsupported_annotation_names_function_and_parameter(annotation):
    def f(x, y: int) -> None:
        pass

    if annotation != "missing":
        f.__annotations__["x"] = annotation
    with pytest.raises(TypeError, match=r"'f'.*'x'"):
        tool_definition(f)


def test_bad_tool_name():
    with pytest.raises(ValueError, match="must match"):
        tool_definition(lookup, name="has space")


# --- Toolbox.run ---------------------------------------------------------------------


def test_run_ok_fills_defaults_and_nullable():
    box = Toolbox([lookup])
    result = box.run(call("lookup", {"city": "Oslo", "days": 2}))
    assert result == {"type": "tool_result", "tool_use_id": "toolu_1",
                      "content": "Oslo:2:1.0:True:None:None"}
    result = box.run(call("lookup", {"city": "Oslo", "days": 2, "units": 3, "tags": ["a"],
                                     "note": None}))
    assert result["content"] == "Oslo:2:3:True:['a']:None" and "is_error" not in result


@pytest.mark.parametrize("tool_input, words", [
    ({"days": 2}, ["missing required field 'city'", "string"]),
    ({"city": "Oslo", "days": "2"}, ["field 'days' must be integer", "got string"]),
    ({"city": "Oslo", "days": True}, ["field 'days' must be integer", "got boolean"]),
    ({"city": "Oslo", "days": 2.5}, ["must be integer", "got number"]),
    ({"city": "Oslo", "days": 2, "tags": ["a", 1]}, ["'tags' must be array of string"]),
    ({"city": "Oslo", "days": 2, "metric": None}, ["'metric' must be boolean", "got null"]),
    ({"city": "Oslo", "days": 2, "color": "red"}, ["unknown field 'color'", "city, days"]),
    (["Oslo"], ["input must be an object", "got array"]),
    ("Oslo", ["input must be an object", "got string"]),
])
def test_run_bad_input_is_error_naming_tool_field_and_id(tool_input, words):
    result = Toolbox([lookup]).run(call("lookup", tool_input, "toolu_XYZ"))
    assert result["is_error"] is True and result["tool_use_id"] == "toolu_XYZ"
    for word in ["Error:", "'lookup'", "toolu_XYZ", *words]:
        assert word in result["content"]


def test_run_unknown_tool_lists_known_tools():
    result = Toolbox([lookup, boom]).run(call("weather", {}))
    assert result["is_error"] is True
    assert "unknown tool 'weather'" in result["content"]
    assert "lookup, boom" in result["content"]


def test_run_exception_becomes_error_without_traceback():
    result = Toolbox([boom]).run(call("boom", {"x": 3}))
    assert result == {"type": "tool_result", "tool_use_id": "toolu_1",
                      "content": "Error: RuntimeError: bad x 3", "is_error": True}


def test_huge_input_does_not_crash_and_is_not_echoed(tmp_path):
    box = Toolbox([lookup]) + Toolbox(Workspace(tmp_path).tools())
    huge = "x" * 10_000_000
    assert box.run(call("lookup", {"city": huge, "days": 1}))["content"].startswith("xxx")
    bad = box.run(call("lookup", {"city": "a", "days": huge}))
    assert bad["is_error"] and len(bad["content"]) < 500
    bad = box.run(call("read_file", {"path": huge}))
    assert bad["is_error"] and len(bad["content"]) < 500


def test_run_all_keeps_order_and_answers_every_call():
    box = Toolbox([lookup, boom])
    message = {"role": "assistant", "content": [
        {"type": "text", "text": "Let me check."},
        call("boom", {"x": 1}, "toolu_a"),
        call("lookup", {"city": "Rome", "days": 1}, "toolu_b"),
        call("nope", {}, "toolu_c"),
    ]}
    reply = box.run_all(message)
    assert reply["role"] == "user"
    assert [b["type"] for b in reply["content"]] == ["tool_result"] * 3
    assert [b["tool_use_id"] for b in reply["content"]] == ["toolu_a", "toolu_b", "toolu_c"]
    assert [b.get("is_error", False) for b in reply["content"]] == [True, False, True]
    with pytest.raises(ValueError, match="no tool_use"):
        box.run_all({"role": "assistant", "content": "just text"})


def test_add_definition_handler_and_duplicates():
    seen = []
    box = Toolbox().add_definition({"type": "memory_20250818", "name": "memory"},
                                   lambda data: seen.append(data) or "done")
    assert box.definitions == [{"type": "memory_20250818", "name": "memory"}]
    assert box.run(call("memory", {"command": "view", "path": "/memories"}))["content"] == "done"
    assert seen == [{"command": "view", "path": "/memories"}]
    assert box.run(call("memory", [1]))["is_error"] is True
    box.add(lookup, name="weather")
    assert box.names == ["memory", "weather"]
    with pytest.raises(ValueError, match="already"):
        box.add(lookup, name="weather")


# --- the truncation notice -----------------------------------------------------------


def test_notice_exact_wording_and_round_trip():
    notice = truncation_notice("logs/app.log", 30, 60, 100)
    assert notice == ('[truncated: lines 31-60 of 100 shown; 40 more lines not shown; '
                      'continue with read_file(path="logs/app.log", offset=60)]')
    assert "\n" not in notice and NOTICE_RE.fullmatch(notice)
    assert parse_notice("text\n" + notice) == ("logs/app.log", 60)
    odd = 'we"ird\\na me\n.txt'
    assert parse_notice(truncation_notice(odd, 0, 1, 2)) == (odd, 1)
    assert "\n" not in truncation_notice(odd, 0, 1, 2)


def test_parse_notice_takes_the_last_one_or_none():
    text = truncation_notice("a", 0, 1, 9) + "\n...\n" + truncation_notice("b", 4, 7, 9)
    assert parse_notice(text) == ("b", 7)
    assert parse_notice("nothing was cut") is None


# --- the workspace -------------------------------------------------------------------


@pytest.fixture
def sandbox(tmp_path):
    """A workspace at tmp_path/root, a secret file and a secret folder next to it."""
    (tmp_path / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "secret_dir").mkdir()
    (tmp_path / "secret_dir" / "s.txt").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "root-evil").mkdir()  # shares a prefix with the root: startswith would fail
    (tmp_path / "root-evil" / "e.txt").write_text(SECRET + "\n", encoding="utf-8")
    ws = Workspace.from_files(tmp_path / "root", {"a.txt": "hello\n", "sub/b.txt": "x\ny"})
    root = tmp_path / "root"
    os.symlink(tmp_path / "secret.txt", root / "link_file")
    os.symlink(tmp_path / "secret_dir", root / "link_dir")
    os.symlink(tmp_path / "root-evil", root / "link_evil")
    os.symlink(root / "a.txt", root / "sub" / "inside_link")  # stays inside: allowed
    return ws


ESCAPES = [
    "../secret.txt", "/etc/passwd", "a/../../secret.txt", "sub/../../secret.txt",
    "link_file", "link_dir/s.txt", "link_evil/e.txt", "a.txt\x00.png", "x" * 300,
    "/".join(["d"] * 2100), "", "  ", "C:\\secret.txt", "..\\secret.txt",
]


@pytest.mark.parametrize("path", ESCAPES)
def test_sandbox_refuses_through_toolbox(sandbox, path):
    box = Toolbox(sandbox.tools())
    result = box.run(call("read_file", {"path": path}))
    assert result["is_error"] is True
    assert SECRET not in result["content"] and "Traceback" not in result["content"]
    with pytest.raises((PermissionError, ValueError)):
        sandbox.resolve(path)


def test_sandbox_never_shows_outside_content(sandbox):
    box = Toolbox(sandbox.tools())
    for name, tool_input in [("list_files", {}), ("search", {"pattern": "secret"}),
                             ("search", {"pattern": "TOP"})]:
        assert SECRET not in box.run(call(name, tool_input))["content"]


def test_list_files_format(sandbox):
    assert sandbox.list_files() == (
        "a.txt  (1 line)\n"
        "sub/b.txt  (2 lines)\n"
        "sub/inside_link  (1 line)"
    )
    ws = Workspace.from_files(sandbox.root.parent / "other", {
        "services/svc-01.conf": "".join(f"line {i}\n" for i in range(42)), "empty.txt": ""})
    assert ws.list_files() == "empty.txt  (0 lines)\nservices/svc-01.conf  (42 lines)"


def test_read_file_pages_until_no_notice_and_reassembles(tmp_path):
    text = "".join(f"line {i}: value={i * 7}\n" for i in range(100))
    ws = Workspace.from_files(tmp_path, {"logs/big.log": text})
    box = Toolbox(ws.tools())
    pages, offset, calls = [], 0, 0
    while True:
        page = box.run(call("read_file", {"path": "logs/big.log", "offset": offset, "limit": 30}))
        calls += 1
        assert "is_error" not in page
        found = parse_notice(page["content"])
        if found is None:
            pages.append(page["content"])
            break
        path, offset = found
        assert path == "logs/big.log"
        pages.append(page["content"][: NOTICE_RE.search(page["content"]).start()])
    assert calls == 4 and "".join(pages) == text
    first = ws.read_file("logs/big.log", limit=30)
    assert first.splitlines()[-1] == truncation_notice("logs/big.log", 0, 30, 100)


def test_read_file_exact_content_and_errors(tmp_path):
    ws = Workspace.from_files(tmp_path, {"crlf.txt": "a\r\nb\r\nc", "e.txt": ""})
    assert ws.read_file("crlf.txt") == "a\r\nb\r\nc"
    assert ws.read_file("crlf.txt", offset=2) == "c"
    assert ws.read_file("e.txt") == "(empty file)"
    box = Toolbox(ws.tools())
    for tool_input, words in [
        ({"path": "crlf.txt", "offset": 3}, "past the end"),
        ({"path": "crlf.txt", "offset": -1}, "offset must be 0 or more"),
        ({"path": "crlf.txt", "limit": 0}, "limit must be 1 or more"),
        ({"path": "nope.txt"}, "FileNotFoundError"),
        ({"path": "."}, "is a folder"),
    ]:
        result = box.run(call("read_file", tool_input))
        assert result["is_error"] is True and words in result["content"]


def test_search_matches_and_overflow(tmp_path):
    ws = Workspace.from_files(tmp_path, {
        "b.conf": "timeout_s = 45\nname = b\nTIMEOUT_S = 5\n",
        "a.conf": "name = a\ntimeout_s = 10\r\n",
    })
    assert ws.search("Timeout_S") == (
        "a.conf:2: timeout_s = 10\n"
        "b.conf:1: timeout_s = 45\n"
        "b.conf:3: TIMEOUT_S = 5"
    )
    assert ws.search("timeout", max_results=2).splitlines() == [
        "a.conf:2: timeout_s = 10",
        "b.conf:1: timeout_s = 45",
        "[1 more matches not shown; narrow the pattern]",
    ]
    assert ws.search("retries") == "no matches for 'retries'"


def test_split_lines_round_trip():
    for text in ["", "a", "a\n", "a\n\nb", "\n\n"]:
        assert "".join(split_lines(text)) == text
    assert split_lines("a\nb\n") == ["a\n", "b\n"]
