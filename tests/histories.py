"""Generated agent histories for property tests (hypothesis), shared by every strategy.

The one generator of the course (`coursekit.histories.agent_history`, also used by the
exercise checks and the benchmarks), driven by hypothesis's own random numbers so that a
failing example shrinks, with every rare shape on: string content, results as text blocks,
text after results, a summary in place of the task, results of a few to 400 lines.
"""

import os

from hypothesis import strategies as st

from coursekit.histories import agent_history

# Shrinkable at the full profile (`course.py test --all`): every draw of the generator is
# one of hypothesis's choices. At the everyday small profile, a Random seeded by hypothesis:
# the same examples' kind, a failure replays from its seed, the property tests in half the
# time (thousands of draws per history are no longer each recorded).
SHRINKABLE = os.environ.get("HYPOTHESIS_PROFILE", "small") == "full"


@st.composite
def agent_histories(draw, max_steps: int = 14) -> list[dict]:
    """A valid history as an agent loop builds it."""
    rng = draw(st.randoms(use_true_random=not SHRINKABLE))
    steps = draw(st.integers(0, max_steps))
    return agent_history(rng, steps, lines=(0, 3), variety=True)
