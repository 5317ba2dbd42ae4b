"""Every strategy, on any valid history, returns a history the API accepts.

Hypothesis generates agent histories (tests/histories.py) and parameters; each strategy
must return a valid history, keep the newest turn (and the task where it promises to),
never mutate its input, and never grow the token count except by its documented summary
or marker. Profiles: `fast` (default, everyday) and `full` (1,000 examples per strategy):
`HYPOTHESIS_PROFILE=full python3 course.py test tests/test_properties.py`.
"""

import json

import pytest
from histories import agent_histories
from hypothesis import given
from hypothesis import strategies as st

import agentlib
from agentlib import tokens
from agentlib.context import truncate
from agentlib.context.clear import PLACEHOLDER, Clearing, clear_tool_results
from agentlib.context.compact import Compactor
from agentlib.messages import SUMMARY_MARK, validate

SUMMARIZER = agentlib.connect(offline=True)


def frozen(messages):
    return json.dumps(messages, sort_keys=True)


def newest_kept(before, after):
    assert after[-1] == before[-1], "the newest message must be kept verbatim"


@given(agent_histories(), st.integers(1, 40), st.booleans(), st.booleans())
def test_truncate_property(history, keep, pin, marker):
    snapshot = frozen(history)
    out = truncate(history, keep, pin_task=pin, marker=marker)
    validate(out)
    assert frozen(history) == snapshot
    newest_kept(history, out)
    if pin and not history[0]["content"] == [] and len(out) < len(history):
        assert out[0] == history[0]
    markers = [m for m in out if m not in history]  # the documented marker, if any
    assert len(markers) <= 1
    assert tokens.count(out) <= tokens.count(history) + tokens.count(markers)


@given(agent_histories(), st.integers(0, 6), st.sampled_from([None, 0, 50, 10**6]),
       st.sampled_from([None, 1, 10**6]), st.booleans(), st.sampled_from([(), ("read_file",)]))
def test_clear_property(history, keep, trigger, at_least, inputs, exclude):
    snapshot = frozen(history)
    out = clear_tool_results(history, keep, trigger=trigger, clear_at_least=at_least,
                             clear_tool_inputs=inputs, exclude_tools=exclude)
    validate(out)
    assert frozen(history) == snapshot
    assert len(out) == len(history)  # emptied, never deleted
    results = [(i, j) for i, m in enumerate(history) for j, b in enumerate(
        m["content"] if isinstance(m["content"], list) else []) if b["type"] == "tool_result"]
    for i, j in results[len(results) - keep:] if keep else []:  # the newest `keep` stay
        assert out[i]["content"][j] == history[i]["content"][j]
    assert tokens.count(out) <= tokens.count(history)
    assert out.cleared_input_tokens == tokens.count(history) - tokens.count(out)
    if exclude:
        assert out == history  # every generated tool is read_file, so nothing is cleared


@given(st.lists(agent_histories(max_steps=4), min_size=1, max_size=4), st.integers(0, 4))
def test_clearing_strategy_over_a_growing_run(pieces, keep):
    """The incremental strategy agrees with the plain function as a history grows."""
    strategy = Clearing(keep, trigger=None)
    history: list[dict] = []
    for piece in pieces:
        grown = history + piece if history and history[-1]["role"] != piece[0]["role"] \
            else piece
        out = strategy(grown)
        validate(out)
        assert out == clear_tool_results(grown, keep)
        history = out


@given(agent_histories(), st.integers(1, 8), st.integers(0, 3000))
def test_compactor_property(history, keep_recent, threshold):
    snapshot = frozen(history)
    compactor = Compactor(SUMMARIZER, trigger=threshold, margin=0, keep=keep_recent)
    out = compactor(history)
    validate(out)
    assert frozen(history) == snapshot
    newest_kept(history, out)
    if out is not history:
        assert out[0]["content"][0]["text"].startswith(SUMMARY_MARK)
        kept = out[1:]
        assert kept == history[len(history) - len(kept):]  # recent turns verbatim
    else:
        assert compactor.compactions == [] or compactor.failures


@pytest.mark.parametrize("strategy", ["truncate", "clear", "compact"])
def test_malformed_histories_get_a_clear_error(strategy):
    """Bad input is named, not silently corrupted or hidden by a cut."""
    bad = [{"role": "user", "content": "task"},
           {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                              "name": "read_file", "input": {}}]},
           {"role": "user", "content": "forgot the result"}]
    with pytest.raises(agentlib.messages.HistoryError, match="messages.1"):
        validate(bad)
    run = {"truncate": lambda h: truncate(h, 1),
           "clear": lambda h: clear_tool_results(h, 0),
           "compact": lambda h: Compactor(SUMMARIZER, trigger=0, margin=0, keep=1)(h)}
    with pytest.raises(agentlib.messages.HistoryError, match="messages.1: `tool_use` ids"):
        run[strategy](bad)  # a strategy cannot repair a broken history: it names the fault


def test_placeholder_is_what_the_model_recognises():
    from standin.agent import CLEARED_RE

    assert CLEARED_RE.match(PLACEHOLDER)
