"""A tiny demo exercise, `ex0.add`: the grader's own test fixture, and an example of a
teacher's checks file (`python -m classroom.grade DIR --checks tests/demo_checks.py`).

The learner writes `add(a, b)`; the checks show the three shapes a check takes:
a plain value, an edge case, and a property over several inputs.
"""

from classroom.grading import register

HINT = "return a + b"


@register("ex0.add", "adds two small integers", hint=HINT, needs=("add",))
def _adds_small(ns: dict) -> None:
    got = ns["add"](2, 3)
    assert got == 5, f"add(2, 3) should be 5, got {got!r}"


@register("ex0.add", "handles negative numbers", hint=HINT, needs=("add",))
def _adds_negative(ns: dict) -> None:
    got = ns["add"](-4, 1)
    assert got == -3, f"add(-4, 1) should be -3, got {got!r}"


@register("ex0.add", "is commutative", hint="the order of a and b must not matter",
          needs=("add",))
def _commutes(ns: dict) -> None:
    add = ns["add"]
    for a, b in [(1, 10), (7, -2), (0, 5)]:
        assert add(a, b) == add(b, a), f"add({a}, {b}) != add({b}, {a})"
