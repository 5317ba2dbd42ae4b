"""The course's bench around the agent: tasks with ground truth, pictures, profiles, the
small windows, the benchmark. A lesson takes its agent from `agentlib` and its bench from
here; nothing in `agentlib` imports this package.

- client.py     the bench's client: `agentlib.connect()` plus a lesson's small window
- workloads.py  the audit, the needle and the constraints tasks, scored against the truth
- profile.py    the sizes each lesson reads (offline: the saved outputs; live: small)
- guard.py      a client-side context window, for Claude and the unscripted stand-in
- viz/          what fills the window, how tokens grow
- histories.py  synthetic histories for checks, properties and benchmarks
- bench.py      strategies side by side, with prompt-cache cost
- i18n.py       the Korean edition's printed and plotted words (agentlib's too, once
                imported: it is, with this package)
- table.py      aligned printed tables, Hangul counted at double width
- particles.py  Korean particles chosen by the word they follow
"""

from typing import TYPE_CHECKING

from coursekit import i18n as _i18n  # noqa: F401 (print(run) in the learner's language)

if TYPE_CHECKING:
    from coursekit.client import connect

__all__ = ["connect"]


def __getattr__(name: str):
    if name == "connect":
        from coursekit.client import connect

        return connect
    raise AttributeError(f"module 'coursekit' has no attribute {name!r}")
