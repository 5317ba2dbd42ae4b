"""The stand-in keeps its own copy of the two rules it shares with the agent: how tokens are
counted and which histories the API accepts. These tests hold the copies equal, so a
lesson can compare `agentlib.tokens.count` with the usage and `agentlib.messages.validate`
with the server's 400 — and fail the day one side changes alone."""

import copy
import random

import pytest
from histories import agent_histories
from hypothesis import given
from hypothesis import strategies as st

from agentlib import messages, tokens
from coursekit.histories import agent_history
from standin import history as server_rules
from standin import tokens as server_tokens

TOOLS = [{"name": "read_file", "description": "Read a file.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]


@given(agent_histories())
def test_both_sides_count_the_same_tokens(history):
    assert server_tokens.count(history, system="You audit.", tools=TOOLS) == \
        tokens.count(history, system="You audit.", tools=TOOLS)


def verdict(rules, history):
    try:
        rules.validate(history)
    except (messages.HistoryError, server_rules.HistoryError) as e:
        return e.api_message
    return None


def broken(history, rng: random.Random):
    """One edit of the kinds the lessons make by mistake: a cut, a deletion, an emptying."""
    h = copy.deepcopy(history)
    kind = rng.choice(["cut", "delete", "empty", "role", "blank", "type"])
    i = rng.randrange(len(h))
    if kind == "cut":
        h = h[i:]
    elif kind == "delete" and len(h) > 1:
        del h[i]
    elif kind == "empty":
        h[i]["content"] = []
    elif kind == "role":
        h[i]["role"] = "system"
    elif kind == "blank":
        h[i]["content"] = [{"type": "text", "text": "  "}]
    elif kind == "type":
        h[i]["content"] = [{"type": "note", "text": "x"}]
    return h


@given(st.randoms(use_true_random=False), st.integers(2, 12))
def test_both_sides_refuse_the_same_histories_in_the_same_words(rng, steps):
    history = agent_history(rng, steps)
    assert verdict(messages, history) is None and verdict(server_rules, history) is None
    for _ in range(5):
        h = broken(history, rng)
        assert verdict(server_rules, h) == verdict(messages, h)


def test_the_check_can_fail():
    """A rule changed on one side only is seen."""
    h = [{"role": "user", "content": "hi"}, {"role": "user", "content": []}]
    assert verdict(messages, h) is not None
    assert verdict(server_rules, h) == verdict(messages, h)
    assert verdict(server_rules, [{"role": "user", "content": "hi"}]) != verdict(messages, h)


@pytest.mark.parametrize("text", ["hello", "안녕하세요, 에이전트", "x" * 5000])
def test_one_tokenizer(text):
    assert server_tokens.count_text(text) == tokens.count_text(text)
