"""Estimate how long each lesson and exercise takes, from the notebooks' own text.

    python scripts/lesson_durations.py           # print the table
    python scripts/lesson_durations.py --write   # update it in docs/instructor-guide.md
    python scripts/lesson_durations.py --check   # exit 1 if the guide's table is stale
    python scripts/lesson_durations.py lessons/ko/04_*.ipynb   # any notebooks, as lessons

An estimate, not a measurement of learners: a lesson takes its markdown words at
READING_WPM plus CODE_CELL_MIN per code cell (read the code, run it, read its output); an
exercise takes its markdown words at READING_WPM plus EXERCISE_FN_MIN per function the
grader checks (metadata `agentlib.exercises`). Totals are rounded up to 5 minutes.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "instructor-guide.md"
BEGIN, END = "<!-- durations:begin -->", "<!-- durations:end -->"

READING_WPM = 150  # careful reading of technical prose
CODE_CELL_MIN = 1.5  # read a cell's code, run it, read what it printed or drew
EXERCISE_FN_MIN = 8  # write one function, run its check, fix it once

LESSONS = [  # (label, lesson notebook, exercise notebook or None)
    ("00 start here", "00_start_here", None),
    ("01 append-only growth", "01_append_only_growth", "01_append_only_growth"),
    ("01b the prompt cache", "01b_the_prompt_cache", "01b_the_prompt_cache"),
    ("02 truncation and the 400", "02_truncation_and_the_400", "02_truncation_and_the_400"),
    ("03 capping tool results", "03_capping_tool_results", "03_capping_tool_results"),
    ("03b tools that return less", "03b_tools_that_return_less", None),
    ("04 clearing old tool results", "04_clearing_old_tool_results",
     "04_clearing_old_tool_results"),
    ("04b the server, the cache, bound thinking", "04b_clearing_on_the_server_and_bound_thinking",
     None),
    ("05 summarizing compaction", "05_summarizing_compaction", "05_summarizing_compaction"),
    ("05b triggers, the bill, the server", "05b_compaction_triggers_server_and_cost", None),
    ("06 scratchpad memory", "06_scratchpad_memory", "06_scratchpad_memory"),
    ("06b the memory tool, three layers", "06b_memory_tool_and_three_layers", None),
    ("A crash-safe notes, safe paths", "appendix_a_crash_safe_notes_and_safe_paths", None),
    ("07 choosing and combining: the mechanisms", "07_choosing_and_combining", None),
    ("07b ranking and choosing", "07b_ranking_and_choosing", "07_choosing_and_combining"),
    ("08 sub-agents", "08_subagents_and_context_isolation",
     "08_subagents_and_context_isolation"),
    ("09 tools in the window", "09_tools_in_the_window", "09_tools_in_the_window"),
    ("09b loaded tools, scripts that call tools", "09b_loaded_tools_and_scripts", None),
    ("10 capstone (an exercise only)", None, "10_capstone"),
]


def words(text: str) -> int:
    return len(re.findall(r"\S+", text))


def notebook_stats(path: Path) -> dict:
    """Markdown words, code cells and graded functions of one notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    return {
        "words": sum(words("".join(c["source"])) for c in cells if c["cell_type"] == "markdown"),
        "code": sum(1 for c in cells if c["cell_type"] == "code"),
        "functions": len(nb.get("metadata", {}).get("agentlib", {}).get("exercises", [])),
    }


def round5(minutes: float) -> int:
    return 5 * math.ceil(minutes / 5)


def lesson_minutes(path: Path) -> int:
    """A lesson notebook's estimate in minutes, rounded up to 5."""
    s = notebook_stats(path)
    return round5(s["words"] / READING_WPM + s["code"] * CODE_CELL_MIN)


def rows() -> list[dict]:
    out = []
    for label, lesson, exercise in LESSONS:
        s = notebook_stats(ROOT / "lessons" / f"{lesson}.ipynb") if lesson else \
            {"words": 0, "code": 0, "functions": 0}
        row = {"label": label, **s,
               "minutes": round5(s["words"] / READING_WPM + s["code"] * CODE_CELL_MIN),
               "ex_functions": 0, "ex_minutes": 0}
        if exercise:
            e = notebook_stats(ROOT / "exercises" / f"{exercise}.ipynb")
            row["ex_functions"] = e["functions"]
            row["ex_minutes"] = round5(e["words"] / READING_WPM
                                       + e["functions"] * EXERCISE_FN_MIN)
        out.append(row)
    return out


def table() -> str:
    lines = [BEGIN,
             "| lesson | markdown words | code cells | lesson ≈ min | exercise functions "
             "| exercise ≈ min |",
             "|---|---:|---:|---:|---:|---:|"]
    total_l = total_e = 0
    for r in rows():
        total_l += r["minutes"]
        total_e += r["ex_minutes"]
        ex = (f"{r['ex_functions']} | {r['ex_minutes']}" if r["ex_functions"] else "– | –")
        lesson = f"{r['words']:,} | {r['code']} | {r['minutes']}" if r["words"] else "– | – | –"
        lines.append(f"| {r['label']} | {lesson} | {ex} |")
    lines.append(f"| **all** | | | **{total_l}** | | **{total_e}** |")
    lines.append(END)
    return "\n".join(lines)


def replace_block(text: str, block: str) -> str:
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        sys.exit(f"{GUIDE.relative_to(ROOT)} has no {BEGIN} ... {END} block")
    return text[:start] + block + text[end + len(END):]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="update the guide's table")
    ap.add_argument("--check", action="store_true", help="exit 1 if the guide's table is stale")
    ap.add_argument("notebooks", nargs="*", type=Path, help="estimate these lesson notebooks")
    a = ap.parse_args(argv)
    if a.notebooks:
        for path in a.notebooks:
            s = notebook_stats(path)
            print(f"{path}: {s['words']:,} words, {s['code']} code cells: "
                  f"≈ {lesson_minutes(path)} min")
        return 0
    block = table()
    if not (a.write or a.check):
        print(block)
        return 0
    text = GUIDE.read_text(encoding="utf-8")
    new = replace_block(text, block)
    if a.check:
        if new != text:
            print(f"{GUIDE.relative_to(ROOT)}: the durations table is stale; run "
                  "`python scripts/lesson_durations.py --write`")
            return 1
        return 0
    GUIDE.write_text(new, encoding="utf-8", newline="\n")
    print(f"updated {GUIDE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
