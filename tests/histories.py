"""Generated agent histories for property tests (hypothesis), shared by every strategy.

The one generator of the course (`coursekit.histories.agent_history`, also used by the
exercise checks and the benchmarks), driven by hypothesis's own random numbers so that a
failing example shrinks, with every rare shape on: string content, results as text blocks,
text after results, a summary in place of the task, results of a few to 400 lines.
"""

from hypothesis import strategies as st

from coursekit.histories import agent_history


@st.composite
def agent_histories(draw, max_steps: int = 14) -> list[dict]:
    """A valid history as an agent loop builds it."""
    rng = draw(st.randoms(use_true_random=False))
    steps = draw(st.integers(0, max_steps))
    return agent_history(rng, steps, lines=(0, 3), variety=True)
