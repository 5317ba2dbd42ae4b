"""A small capstone class for the tests: notebooks made from the capstone's exercise, each
with its own `my_agent` (honest, naive, delegating, over the cap)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXERCISE = ROOT / "exercises" / "10_capstone.ipynb"
SOLUTION = ROOT / "solutions" / "10_capstone.ipynb"
STUB = "    # YOUR CODE HERE\n    raise NotImplementedError()"

NAIVE = "    return {}  # append-only"
DELEGATING = '''    from coursekit import bench  # the course's own pipelines, returned as mine

    name = bench.BEST if models.model_name(client) == bench.MODELS[0] else bench.LIVE_BEST
    setup = bench.strategies(bench.SIZES["small"], client, notes_dir)[name]
    return {"context": setup.context, "toolbox": setup.wrap(task) if setup.wrap else None,
            "system": setup.system, "extra": setup.extra, "cache": setup.cache}'''
STYLE = ('" ".join(f"Rule {i}: write every finding in full sentences, cite the file and line, '
         'and restate the task before each step." for i in range(60))')


def solution_body() -> str:
    """The body of the solution's my_agent (between its markers)."""
    nb = json.loads(SOLUTION.read_text(encoding="utf-8"))
    source = next("".join(c["source"]) for c in nb["cells"]
                  if c["cell_type"] == "code" and "def my_agent" in "".join(c["source"]))
    body = source.split("### BEGIN SOLUTION\n")[1].split("    ### END SOLUTION")[0]
    return body.rstrip("\n")


def over_cap_body() -> str:
    """The honest setup with a long style guide in the system prompt and no cache."""
    honest = solution_body()
    return ("    def honest(client, task, notes_dir):\n"
            + "\n".join("    " + line if line else line for line in honest.split("\n"))
            + "\n    from agentlib.loop import DEFAULT_SYSTEM\n"
            + f"    style = {STYLE}\n"
            + "    return {**honest(client, task, notes_dir), \"cache\": False,\n"
            + "            \"system\": DEFAULT_SYSTEM + \"\\n\" + style}")


BODIES = {"honest": solution_body, "naive": lambda: NAIVE, "delegating": lambda: DELEGATING,
          "over_cap": over_cap_body}
ORDER = ["honest", "over_cap", "naive", "delegating"]
"""The board's expected order: every run solved; the cap stopping half of the runs; only
the short task solved (append-only overflows the window elsewhere); nothing (the course's
pipelines are withheld)."""


def notebook(body: str) -> dict:
    """The capstone's exercise notebook with `body` as its my_agent's body."""
    nb = json.loads(EXERCISE.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "def my_agent" in source:
            assert STUB in source, "the exercise's my_agent stub changed"
            cell["source"] = source.replace(STUB, body)
    return nb


def write_class(folder: Path, names=ORDER) -> Path:
    """One notebook per student of `names` in `folder` (`folder/NAME.ipynb`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.ipynb").write_text(json.dumps(notebook(BODIES[name]())),
                                              encoding="utf-8")
    return folder
