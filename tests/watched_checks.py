"""A teacher's exercise whose library code stays in the sandbox, watched (not withheld):
the grader's fallback, for code a notebook's cells need and the grader cannot serve
(`own_work(..., cells="watched")`). tests/test_grader_attacks.py grades notebooks against it
with `python -m classroom.grade DIR --checks tests/watched_checks.py`.
"""

from classroom.grading import own_work, register

own_work("ex0.quarter", "agentlib.tokens:estimate_text", cells="watched")


@register("ex0.quarter", "counts characters / 4, rounded up", hint="-(-len(text) // 4)",
          needs=("quarter",))
def _quarter(ns: dict) -> None:
    for text in ["", "a", "abcd", "hello world", "x" * 37, "안녕하세요"]:
        want = -(-len(text) // 4)
        got = ns["quarter"](text)
        assert got == want, f"quarter({text!r}) should be {want}, got {got!r}"
