"""Tests for agentlib.messages: the builders, the readers and `validate`, the course's one
validator. Expected texts are the API's own 400 messages (see /work/shared/API_FACTS.md)."""

import pytest

from agentlib.messages import (
    HistoryError,
    assistant,
    blocks,
    is_valid,
    starts_with_tool_result,
    text,
    tool_result,
    tool_use,
    user,
    validate,
)

SPLIT_TAIL = ("Each `tool_use` block must have a corresponding `tool_result` block in the "
              "next message.")
ORPHAN_TAIL = ("Each `tool_result` block must have a corresponding `tool_use` block in the "
               "previous message.")
EMPTY_TAIL = "all messages must have non-empty content except for the optional final assistant message"
BLANK = "messages: text content blocks must contain non-whitespace text"
NONE = "messages: at least one message is required"


def split_msg(n: int, *ids: str) -> str:
    return (f"messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately "
            f"after: {', '.join(ids)}. {SPLIT_TAIL}")


def orphan_msg(n: int, m: int, *ids: str) -> str:
    return (f"messages.{n}.content.{m}: unexpected `tool_use_id` found in `tool_result` blocks: "
            f"{', '.join(ids)}. {ORPHAN_TAIL}")


def rejects(messages) -> HistoryError:
    with pytest.raises(HistoryError) as info:
        validate(messages)
    return info.value


def ask(q: str = "List the files.") -> dict:
    return user(q)


def calls(*ids: str) -> dict:
    return assistant("Reading.", *[tool_use(i, "read_file", {"path": f"{i}.txt"}) for i in ids])


def answers(*ids: str) -> dict:
    return user(*[tool_result(i, f"contents of {i}") for i in ids])


# ---------------------------------------------------------------- builders


def test_text_block():
    assert text("hi") == {"type": "text", "text": "hi"}


def test_tool_use_block_copies_input():
    args = {"path": "a.txt"}
    b = tool_use("toolu_1", "read_file", args)
    assert b == {"type": "tool_use", "id": "toolu_1", "name": "read_file",
                 "input": {"path": "a.txt"}}
    args["path"] = "changed"
    assert b["input"] == {"path": "a.txt"}
    assert tool_use("toolu_2", "list_files")["input"] == {}


def test_tool_result_block():
    assert tool_result("toolu_1", "ok") == {"type": "tool_result", "tool_use_id": "toolu_1",
                                            "content": "ok"}
    err = tool_result("toolu_1", [text("boom")], is_error=True)
    assert err["is_error"] is True
    assert err["content"] == [{"type": "text", "text": "boom"}]
    assert "is_error" not in tool_result("toolu_1", "ok", is_error=False)


def test_user_and_assistant_turn_strings_into_text_blocks():
    tu = tool_use("toolu_1", "f")
    assert user("a", tool_result("toolu_1", "r")) == {
        "role": "user",
        "content": [text("a"), {"type": "tool_result", "tool_use_id": "toolu_1", "content": "r"}]}
    assert assistant("b", tu) == {"role": "assistant", "content": [text("b"), tu]}
    assert user() == {"role": "user", "content": []}


# ---------------------------------------------------------------- readers


def test_blocks_of_string_list_and_missing_content():
    assert blocks({"role": "user", "content": "hi"}) == [text("hi")]
    m = user("a", "b")
    got = blocks(m)
    assert got == [text("a"), text("b")]
    got.append(text("c"))
    assert len(m["content"]) == 2  # a new list, not the message's own
    assert blocks({"role": "assistant", "content": []}) == []
    assert blocks({"role": "assistant"}) == []


def test_starts_with_tool_result():
    assert starts_with_tool_result(answers("A"))
    assert not starts_with_tool_result(user("text", tool_result("A", "r")))
    assert not starts_with_tool_result(user())
    assert not starts_with_tool_result({"role": "user", "content": "plain"})


# ---------------------------------------------------------------- validate: accepted


@pytest.mark.parametrize("history", [
    [ask()],
    [{"role": "user", "content": "a string is fine"}],
    [ask(), calls("A"), answers("A")],
    [ask(), calls("A", "B"), answers("A", "B"), assistant("Done.")],
    # results first, then text, in the answering message
    [ask(), calls("A"), user(tool_result("A", "r"), "and now summarize")],
    # results given in another order than the calls
    [ask(), calls("A", "B"), answers("B", "A")],
    # a prefill: an empty final assistant message, as a list or a string
    [ask(), assistant()],
    [ask(), {"role": "assistant", "content": ""}],
    # error results and results with block content
    [ask(), calls("A"), user(tool_result("A", [text("no such file")], is_error=True))],
], ids=["one-user", "string-content", "pair", "two-pairs-and-answer", "results-then-text",
        "results-reordered", "prefill-list", "prefill-string",
        "error-result"])
def test_valid_histories(history):
    validate(history)
    assert is_valid(history)


def test_consecutive_user_messages_are_merged_not_rejected():
    validate([ask("one"), ask("two")])
    validate([ask(), assistant("a"), assistant("b"), ask("c")])


def test_tool_results_split_over_consecutive_user_messages_are_accepted():
    validate([ask(), calls("A", "B"), answers("A"), answers("B")])
    validate([ask(), calls("A", "B"), answers("A"), user(tool_result("B", "r"), "go on")])


def test_tool_use_split_over_consecutive_assistant_messages_is_accepted():
    validate([ask(), calls("A"), calls("B"), answers("A", "B")])


# ---------------------------------------------------------------- validate: tool pairs


def test_split_pair_names_the_assistant_message_and_all_ids():
    err = rejects([ask(), calls("A", "B"), user("what did you find?")])
    assert str(err).startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "A, B. Each `tool_use` block must have a corresponding `tool_result` block in the next "
        "message.")
    assert err.api_message == split_msg(1, "A", "B")
    assert err.index == 1


def test_split_pair_at_the_end_of_the_history():
    assert rejects([ask(), calls("A")]).api_message == split_msg(1, "A")


def test_partial_answer_lists_only_the_missing_ids():
    assert rejects([ask(), calls("A", "B"), answers("A")]).api_message == split_msg(1, "B")
    assert rejects([ask(), calls("A", "B", "C"), answers("B")]).api_message == \
        split_msg(1, "A", "C")


def test_split_pair_later_in_a_longer_history():
    h = [ask(), calls("A"), answers("A"), calls("B", "C"), ask("never mind")]
    assert rejects(h).api_message == split_msg(3, "B", "C")


def test_text_before_tool_result_is_reported_as_a_split():
    err = rejects([ask(), calls("A"), user("here you go", tool_result("A", "r"))])
    assert err.api_message == split_msg(1, "A")
    assert err.index == 1


def test_orphan_result_points_at_the_block():
    h = [ask(), assistant("No tools needed."), answers("X")]
    err = rejects(h)
    assert err.api_message == orphan_msg(2, 0, "X")
    assert str(err).startswith("messages.2.content.0: unexpected `tool_use_id` found in "
                               "`tool_result` blocks: X.")
    assert err.index == 2


def test_orphan_after_a_cut_names_every_stray_id_and_the_first_block():
    h = [ask(), calls("A"), user(tool_result("A", "r"), tool_result("Y", "r"),
                                 tool_result("Z", "r"))]
    assert rejects(h).api_message == orphan_msg(2, 1, "Y", "Z")


def test_orphan_in_the_second_of_two_merged_user_messages_uses_its_own_index():
    h = [ask(), calls("A"), answers("A"), answers("Q")]
    assert rejects(h).api_message == orphan_msg(3, 0, "Q")


def test_tool_result_as_first_message():
    err = rejects([answers("toolu_gone"), assistant("ok")])
    assert err.api_message == orphan_msg(0, 0, "toolu_gone")
    assert err.index == 0


def test_result_two_turns_late_is_an_orphan_and_the_use_a_split():
    # the result belongs to a tool_use that is not in the message just before it
    h = [ask(), calls("A"), ask("wait"), assistant("ok"), answers("A")]
    assert rejects(h).api_message == split_msg(1, "A")
    assert rejects([ask(), assistant("ok"), answers("A")]).api_message == orphan_msg(2, 0, "A")


# ---------------------------------------------------------------- validate: content


def test_no_messages():
    err = rejects([])
    assert err.api_message == NONE
    assert str(err).startswith(NONE)


@pytest.mark.parametrize("empty", ["", []], ids=["string", "list"])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_empty_content_names_the_message(empty, position):
    h = [ask(), assistant("hello"), ask("and?"), assistant("bye")]
    h[position] = {"role": h[position]["role"], "content": empty}
    err = rejects(h)
    assert err.api_message == f"messages.{position}: {EMPTY_TAIL}"
    assert err.index == position


def test_empty_final_user_message_is_not_allowed():
    assert rejects([ask(), assistant("a"), user()]).api_message == f"messages.2: {EMPTY_TAIL}"


@pytest.mark.parametrize("blank", [" ", "\n\t ", ""], ids=["space", "whitespace", "empty"])
def test_blank_text_block(blank):
    err = rejects([ask(), assistant("ok"), user(blank)])
    assert err.api_message == BLANK
    assert str(err).startswith(BLANK)


def test_blank_text_as_string_content_and_in_a_non_final_assistant():
    assert rejects([{"role": "user", "content": "   "}]).api_message == BLANK
    assert rejects([ask(), assistant(" "), ask()]).api_message == BLANK


def test_blank_text_inside_a_tool_result():
    h = [ask(), calls("A"), user(tool_result("A", [text("  ")]))]
    assert rejects(h).api_message == BLANK


# ---------------------------------------------------------------- validate: shape


@pytest.mark.parametrize("history, index, needle", [
    ([ask(), {"role": "user", "content": [{"type": "nonsense"}]}], 1, "messages.1.content.0"),
    ([ask(), assistant("a"), {"role": "user", "content": [{"type": "text", "text": 5}]}], 2,
     "messages.2.content.0.text"),
    ([ask(), {"content": "no role"}], 1, "messages.1.role"),
    ([ask(), {"role": "narrator", "content": "x"}], 1, "messages.1.role"),
    ([ask(), {"role": "assistant"}], 1, "messages.1.content"),
    ([ask(), "not a dict"], 1, "messages.1"),
    ([ask(), {"role": "assistant", "content": 7}], 1, "messages.1.content"),
    ([user("x", tool_use("A", "f"))], 0, "messages.0.content.1"),
    ([ask(), assistant(tool_result("A", "r"))], 1, "messages.1.content.0"),
    ([ask(), assistant({"type": "tool_use", "id": "A", "name": "f"})], 1,
     "messages.1.content.0.input"),
    ([ask(), assistant({"type": "tool_use", "id": "A", "name": "f", "input": "x"})], 1,
     "messages.1.content.0.input"),
    ([ask(), assistant({"type": "tool_use", "name": "f", "input": {}})], 1,
     "messages.1.content.0.id"),
    ([ask(), assistant("ok"), user({"type": "tool_result", "content": "r"})], 2,
     "messages.2.content.0.tool_use_id"),
    ([ask(), assistant("ok"), user("a", 5)], 2, "messages.2.content.1"),
], ids=["unknown-type", "text-not-string", "missing-role", "bad-role", "missing-content",
        "message-not-dict", "content-not-list", "tool_use-in-user", "tool_result-in-assistant",
        "tool_use-no-input", "tool_use-input-not-dict", "tool_use-no-id", "result-no-id",
        "block-not-dict"])
def test_shape_errors_name_the_index(history, index, needle):
    err = rejects(history)
    assert err.index == index
    assert str(err).startswith(needle + ":") or str(err).startswith(needle + ".")
    assert err.hint and "hint:" in str(err)


def test_unknown_block_type_lists_the_expected_tags():
    err = rejects([{"role": "user", "content": [{"type": "nonsense"}]}])
    assert "Input tag 'nonsense'" in err.api_message
    assert "'tool_result'" in err.api_message and "'text'" in err.api_message


def test_tool_use_in_a_user_message():
    err = rejects([user("x", tool_use("A", "f"))])
    assert err.api_message == "messages.0.content.1: `tool_use` blocks can only be in " \
                              "`assistant` messages"


def test_messages_not_a_list():
    for bad in ("hello", None, {"role": "user", "content": "hi"}):
        err = rejects(bad)
        assert err.api_message == "messages: Input should be a valid list"
        assert not is_valid(bad)


# ---------------------------------------------------------------- HistoryError


@pytest.mark.parametrize("history, lesson", [
    ([ask(), calls("A"), ask()], "02_truncation_and_the_400"),
    ([answers("A")], "02_truncation_and_the_400"),
    ([ask(), user()], "04_clearing_old_tool_results"),
    ([], "01_append_only_growth"),
])
def test_str_is_api_text_then_a_hint_naming_a_lesson(history, lesson):
    err = rejects(history)
    first, _, rest = str(err).partition("\n")
    assert first == err.api_message
    assert rest.strip().startswith("hint:")
    assert lesson in rest
    assert "lesson" in rest


def test_history_error_is_a_value_error():
    assert issubclass(HistoryError, ValueError)
    with pytest.raises(ValueError):
        validate([])
    err = HistoryError("messages: x")
    assert str(err) == "messages: x" and err.index is None and err.hint == ""


def test_is_valid():
    assert is_valid([ask()])
    assert not is_valid([])
    assert not is_valid([ask(), calls("A")])
    assert not is_valid([answers("A")])


def test_validate_does_not_mutate():
    h = [ask(), calls("A", "B"), answers("A"), answers("B")]
    before = repr(h)
    validate(h)
    assert repr(h) == before
