"""What a run is given: a task, its tools, the user's later turns, and how to score the answer.

`run_agent` reads `task`, `toolbox` and `turns`; `score` compares an answer with the truth.
The course's tasks with ground truth (`coursekit.workloads`) are made of these; a task of
your own is one `Workload(name, task, toolbox, truth=None, scorer=...)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentlib import words
from agentlib.tools import Toolbox
from agentlib.workspace import Workspace


@dataclass
class Score:
    """How an answer compares with the ground truth."""

    success: bool
    precision: float | None = None
    recall: float | None = None
    constraint_kept: bool | None = None
    detail: str = ""

    def __str__(self) -> str:
        parts = [f"success={self.success}"]
        if self.precision is not None:
            parts += [f"precision={self.precision:.2f}", f"recall={self.recall:.2f}"]
        if self.constraint_kept is not None:
            parts.append(f"constraint_kept={self.constraint_kept}")
        detail = f"; {words.say(self.detail)}" if self.detail else ""  # the words of the course
        return "Score(" + ", ".join(parts) + detail + ")"


@dataclass
class Workload:
    """A task, its tools, the user's scripted later turns, and a scorer for the answer."""

    name: str
    task: str
    toolbox: Toolbox
    truth: Any
    scorer: Callable[[str | None], Score]
    turns: list[str] = field(default_factory=list)
    workspace: Workspace | None = None

    def score(self, answer: str | None) -> Score:
        return self.scorer(answer)

    @property
    def tools(self) -> list[dict]:
        return self.toolbox.definitions
