"""Generated agent histories for property tests (hypothesis), shared by every strategy.

A history as an agent loop builds it: a task, text exchanges, single and parallel tool
calls with string or block results (some errors), an optional final answer; optionally
opened by a summary of earlier turns, and with results of mixed sizes.
"""

import itertools

from hypothesis import strategies as st

from agentlib.messages import SUMMARY_MARK, assistant, text, tool_result, tool_use, user

WORDS = st.sampled_from(["services/a.conf", "timeout_s = 45", "Noted: a is above 30.",
                         "keep going", "x", "no such file", "Budget: at most $1,400."])



@st.composite
def agent_histories(draw, max_steps: int = 14) -> list[dict]:
    """A valid history as an agent loop builds it: strictly alternating roles."""
    ids = itertools.count()
    task = draw(WORDS)
    messages = [{"role": "user", "content": task} if draw(st.booleans()) else user(task)]
    if draw(st.integers(0, 4)) == 0:  # compacted before: a summary opens the history
        messages = [user(f"{SUMMARY_MARK}\n## Goal\n{task}\n## Key facts\n{draw(WORDS)}")]
    for _ in range(draw(st.integers(0, max_steps))):
        if draw(st.integers(0, 4)) == 0:  # a text exchange: the agent replies, the user answers
            messages.append(assistant(draw(WORDS)))
            reply = draw(WORDS)
            messages.append({"role": "user", "content": reply} if draw(st.booleans())
                            else user(reply))
            continue
        calls = [tool_use(f"toolu_{next(ids):04d}", "read_file", {"path": draw(WORDS)})
                 for _ in range(draw(st.integers(1, 3)))]  # one call or parallel calls
        before = [text(draw(WORDS))] if draw(st.booleans()) else []
        messages.append({"role": "assistant", "content": before + calls})
        results = []
        for call in calls:
            body = draw(WORDS) * draw(st.sampled_from([1, 1, 3, 40]))  # mixed sizes
            content = [text(body)] if draw(st.booleans()) else body
            results.append(tool_result(call["id"], content, is_error=draw(st.booleans())))
        after = [text(draw(WORDS))] if draw(st.integers(0, 5)) == 0 else []  # results first
        messages.append({"role": "user", "content": results + after})
    if draw(st.booleans()):
        messages.append(assistant(draw(WORDS)))  # the final answer
    return messages


