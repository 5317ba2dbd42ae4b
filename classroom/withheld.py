"""What the class grader's sandbox has in place of the course's code an exercise asks for.

While a class is graded, the notebook runs on a copy of the course in which every function
and class its assignment withholds (`own_work` in classroom/checks/lessonNN.py) is a stub,
in its source on disk too (classroom/grader/withhold.py writes them): calling it raises
`Withheld`, whatever route reaches it (an import under any name, a copy of its source, a
thread, another process). A few pure functions a notebook's own cells use are *served*
(`own_work(..., cells="served")`: lesson 2's setup validates its history): while the cells
run, the stub asks the grader, whose copy answers; once the checks start, the grader
refuses and the stub raises like the others. The same door carries the course model's
requests (classroom/grader/remote_standin.py).

Outside the grader nothing sets `serve` or `ask_model`, and nothing calls this module.
"""

from __future__ import annotations

from typing import Any

serve: Any = None
"""Set by the sandbox's runner: (spec, args, kwargs) -> the grader's answer, or it raises."""
ask_model: Any = None
"""Set by the sandbox's runner: ("new" | "request", data) -> the grader's model's answer."""


class Withheld(RuntimeError):
    """The course's own code for what an exercise asks: not in the sandbox while grading."""


def withheld(spec: str, exercises: str, served: bool, args: tuple, kwargs: dict) -> Any:
    """What a stub does: ask the grader (a served function, while the cells run), else
    raise Withheld naming the exercise that asks for it."""
    if served and serve is not None:
        return serve(spec, args, kwargs)
    module, _, name = spec.partition(":")
    what = ("are graded: they ask you to write it yourself" if " and " in exercises else
            "is graded: it is what that exercise asks you to write yourself")
    raise Withheld(f"`{name or module}` ({module}) is not available while {exercises} {what}")
