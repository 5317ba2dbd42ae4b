"""Histories that remember what they were made from (agentlib.derived), and the running
counts that rely on it: they must agree with a count from scratch, edit after edit."""

import random

from agentlib import tokens
from agentlib.derived import GENERATIONS, Derived, changes, extends
from agentlib.messages import user
from coursekit.histories import agent_history


def test_changes_follow_the_lineage_and_collect_what_was_replaced():
    base = Derived(agent_history(1, 6))
    grown = Derived(base, [user("one more")])
    edited = Derived(grown, changed=[2])
    edited[2] = user("replaced")
    assert changes(grown, base) == frozenset()
    assert changes(edited, grown) == {2}
    assert changes(edited, base) == {2}  # two generations back, the replaced position kept
    assert extends(grown, base) and not extends(edited, base)
    assert changes(base, grown) is None and changes(list(grown), base) is None


def test_a_lineage_is_bounded_and_never_keeps_an_ancestor_alive():
    first = Derived([user("task")])
    history = first
    for k in range(GENERATIONS + 3):
        history = Derived(history, [user(f"turn {k}")])
    assert changes(history, first) is None  # too far back: compared, not assumed
    assert extends(history, first)  # ...and the comparison still says the truth
    orphan = Derived(Derived([user("task")]), [user("x")])  # its base is gone already
    assert all(ref() is None for ref, _, _ in orphan.lineage)


def test_running_counts_agree_with_a_fresh_count_through_edits_and_appends():
    rng = random.Random(7)
    source = agent_history(3, 60, lines=(0, 8))
    history = Derived(source[:5])
    running = tokens.Running()
    for k in range(5, len(source)):
        history = Derived(history, [source[k]])
        if rng.random() < 0.3:  # a strategy replaces an older message with a shorter one
            i = rng.randrange(len(history) - 1)
            history = Derived(history, changed=[i])
            history[i] = {**history[i], "content": [{"type": "text", "text": "short"}]} \
                if history[i]["role"] == "assistant" else history[i]
        assert running.of(history) == tokens.count(history)
