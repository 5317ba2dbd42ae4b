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
from hypothesis import given, settings
from hypothesis import strategies as st

import agentlib
from agentlib import tokens
from agentlib.context import truncate
from agentlib.context.clear import PLACEHOLDER, Clearing, clear_tool_results, is_cleared
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


# ---------------------------------------------------------------- the newest turn, every strategy
def _strategies():
    """Every strategy of agentlib/context that takes a history, built from drawn keeps."""
    from agentlib.context import (
        BatchClearing,
        Breakpoints,
        DropRecords,
        FoldTexts,
        LowWaterCompactor,
        SlidingWindow,
        drop_records,
    )
    from agentlib.context.ondemand import OnDemandCompactor

    return {
        "truncate": (1, lambda k: lambda h: truncate(h, k)),
        "SlidingWindow": (1, lambda k: SlidingWindow(k)),
        "clear_tool_results": (0, lambda k: lambda h: clear_tool_results(h, k)),
        "Clearing": (0, lambda k: Clearing(k, trigger=0)),
        "BatchClearing": (0, lambda k: BatchClearing(k, trigger=1, down_to=0)),
        "Compactor": (1, lambda k: Compactor(SUMMARIZER, trigger=0, margin=0, keep=k)),
        "Compactor(pin_user)": (1, lambda k: Compactor(SUMMARIZER, trigger=0, margin=0, keep=k,
                                                       pin_user=True)),
        "LowWaterCompactor": (1, lambda k: LowWaterCompactor(SUMMARIZER, 0, at_least=0,
                                                             margin=0, keep=k)),
        "FoldTexts": (1, lambda k: FoldTexts(SUMMARIZER, 0, at_least=0, margin=0, keep=k,
                                             pin=1)),
        "OnDemandCompactor": (1, lambda k: OnDemandCompactor(SUMMARIZER, 0, margin=0, keep=k)),
        "drop_records": (0, lambda k: lambda h: drop_records(h, k)),
        "DropRecords": (0, lambda k: DropRecords(k)),
        "DropRecords.mark": (0, lambda k: DropRecords(k).mark),
        "Breakpoints": (0, lambda k: Breakpoints(keep=k)),
    }


STRATEGIES = _strategies()
NOT_ON_HISTORIES = {  # what agentlib.context exports that does not rewrite a history
    "cap", "cap_lines", "cap_text", "memory_toolbox", "Notes", "transcript", "user_words",
    "safe_start", "is_cleared"}


def test_the_newest_turn_property_covers_every_strategy():
    """A strategy added to agentlib/context must join the property below."""
    from agentlib import context

    exported = {name for name in context.__all__ if callable(getattr(context, name))}
    covered = {name.split("(")[0].split(".")[0] for name in STRATEGIES} | {"OnDemandCompactor"}
    assert exported - NOT_ON_HISTORIES <= covered, exported - NOT_ON_HISTORIES - covered


def plain(message):
    """A message as blocks, without cache marks, each tool_result's content as its text."""
    from agentlib.messages import blocks, result_text

    out = []
    for b in blocks(message):
        b = {k: v for k, v in b.items() if k != "cache_control"}
        if b["type"] == "tool_result":
            b = {**b, "content": result_text(b)}
        out.append(b)
    return {"role": message["role"], "content": out}


def newest_turn_kept(before, after):
    """The newest turn given (its last run of one role's messages) ends what is returned:
    the same messages, each tool result at most emptied (its placeholder), marks aside (and
    the compaction block that opens the first message kept, the API's shape: 7.2)."""
    from agentlib.context.records import newest_turn

    turn = before[newest_turn(before):]
    assert len(after) >= len(turn), "the newest turn was cut"
    for k, (got, want) in enumerate(zip(after[len(after) - len(turn):], turn, strict=True)):
        got, want = plain(got), plain(want)
        if k == 0 and got["content"] and got["content"][0]["type"] == "compaction":
            got["content"] = got["content"][1:]
        assert got["role"] == want["role"], "the history no longer ends on its newest turn"
        assert len(got["content"]) == len(want["content"]), (got, want)
        for g, w in zip(got["content"], want["content"], strict=True):
            if w["type"] == "tool_result" and g != w:
                assert is_cleared(g) and {**g, "content": "", "is_error": 0} == \
                    {**w, "content": "", "is_error": 0}, (g, w)
            else:
                assert g == w, (g, w)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@settings(max_examples=min(settings.default.max_examples, 200))  # 14 strategies: CI's budget
@given(history=agent_histories(), keep=st.integers(0, 5))
def test_no_strategy_drops_the_newest_turn(name, history, keep):
    """Whatever its `keep`, a strategy returns a history that ends on the newest turn it was
    given, its newest tool results at most emptied: never on the model's own call, which a
    model without prefill refuses (and the result it asked for must reach it)."""
    lowest, make = STRATEGIES[name]
    strategy = make(max(keep, lowest))
    snapshot = frozen(history)
    out = strategy(history)
    assert frozen(history) == snapshot
    validate(out)
    newest_turn_kept(history, out)
    if history[-1]["role"] == "user":  # what every request of a run ends on
        validate(out, model="claude-sonnet-5-5")


def test_drop_records_keep_0_empties_the_newest_results_never_drops_them():
    """The fuzz's case: keep=0 used to drop the newest tool results too, so the history sent
    ended on the model's own call (refused as a prefill; the result never read)."""
    from agentlib.context import drop_records
    from agentlib.context.records import pairs
    from agentlib.messages import assistant, tool_result, tool_use, user

    history = [user("Read a.log and b.log."),
               assistant("Reading a.", tool_use("toolu_1", "read_file", {"path": "a.log"})),
               user(tool_result("toolu_1", "a " * 100)),
               assistant("Reading b.", tool_use("toolu_2", "read_file", {"path": "b.log"}),
                         tool_use("toolu_3", "read_file", {"path": "c.log"})),
               user(tool_result("toolu_2", "b " * 100), tool_result("toolu_3", "c " * 100))]
    out = drop_records(history, keep=0)
    validate(out, model="claude-sonnet-5-5")
    assert [m["role"] for m in out] == ["user", "assistant", "assistant", "user"]
    assert len(pairs(out)) == 2  # the first pair went, its reply's text stayed
    assert all(is_cleared(b) for b in out[-1]["content"])
    one = drop_records(history, keep=1)  # the other parallel result stays too, emptied
    assert one[-1]["content"][1] == history[-1]["content"][1]
    assert is_cleared(one[-1]["content"][0])


def test_validate_refuses_a_prefill_for_a_model_that_takes_none():
    from agentlib.messages import HistoryError, assistant, user

    history = [user("Read a.log."), assistant("I will read it.")]
    validate(history)  # the shape is fine, and some models take a prefill
    validate(history, model="claude-haiku-4-5")
    validate(history, model="course-model-1")
    with pytest.raises(HistoryError, match="does not support assistant message prefill") as e:
        validate(history, model="claude-sonnet-5-5")
    assert e.value.index == 1 and "messages.1" in str(e.value) and "lessons/02" in str(e.value)
    resume = [user("go on"), {"role": "assistant",
                              "content": [{"type": "compaction", "content": "summary"}]}]
    validate(resume, model="claude-sonnet-5-5")  # a compaction block alone is a resume
