"""Test-wide settings: every test runs offline and with a fixed hash seed.

Set before any kernel starts, so notebooks run by nbval and by the grading tests
inherit them. A learner's ANTHROPIC_API_KEY is never used by the tests.

The tests run on every core (pytest-xdist, `-n auto --dist loadgroup` in pyproject.toml),
in groups (below) that each stay on one worker: a notebook's cells run in order in one
kernel and a module's fixture is built once. The longest groups go first, so that no
worker is left with a long one at the end while the other idles.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

os.environ["AGENTLIB_OFFLINE"] = "1"
os.environ["PYTHONHASHSEED"] = "0"
os.environ.pop("AGENTLIB_LANG", None)  # each notebook's language is its own (its folder)

# Property tests: 25 examples each ("small", every day), or 1,000 ("full": what
# `course.py test --all` and CI's slow mode select; by hand HYPOTHESIS_PROFILE=full).
settings.register_profile("small", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("full", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", settings.get_profile("small"))  # its former name
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "small"))

# Notebooks that exist to misbehave (infinite loops, crashes) must never be collected
# by nbval; the grading tests build theirs in a temporary folder, keep it that way.
collect_ignore_glob = ["grading_fixtures/*"]

# What runs together on one worker (xdist's `--dist loadgroup`): a file's tests, except
# that the tests sharing a module-scoped fixture (a whole class graded once, say) form a
# group of their own, so that two such fixtures of one file can be built on two workers
# at once, each once. A notebook's cells are one group: in order, in one kernel.
def group(item) -> str:
    path = item.nodeid.split("::", 1)[0]
    info = getattr(item, "_fixtureinfo", None)
    shared = sorted(name for name, defs in (info.name2fixturedefs.items() if info else ())
                    if defs and defs[-1].scope == "module")
    return f"{path}::{'+'.join(shared)}" if shared else path


# The groups that take longest on one worker (bench/test_time.py, 2 cores), longest first;
# then every notebook (a kernel each, 5-40 s), then the other test files (seconds each).
LONGEST_FIRST = [
    "tests/test_exercises_run.py::graded_course",
    "tests/test_grading.py::graded_ex2",
    "tests/test_grading.py::graded",
    "tests/test_exercises_run.py",
    "tests/test_live_check.py::books",
    "tests/test_unscripted.py::runs",
    "tests/test_live_loop.py",
    "tests/test_cache_aware.py",
    "lessons/ko/05b_compaction_triggers_server_and_cost.ipynb",
    "lessons/05b_compaction_triggers_server_and_cost.ipynb",
    "lessons/ko/07_choosing_and_combining.ipynb",
    "lessons/07_choosing_and_combining.ipynb",
    "lessons/ko/06_scratchpad_memory.ipynb",
]


def running_order(name: str) -> tuple[int, int]:
    if name in LONGEST_FIRST:
        return 0, LONGEST_FIRST.index(name)
    return (1 if name.split("::")[0].endswith(".ipynb") else 2), 0


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (its hook runs untagged)
def pytest_collection_modifyitems(items):
    """Each item's group, then the longest groups first (a stable sort: each file's items
    keep their order, a notebook's cells too). The same order on every worker, as xdist
    requires; with `--no-loadscope-reorder` its scheduler hands the groups out in it."""
    names = {}
    for item in items:
        names[item.nodeid] = group(item)
        item.add_marker(pytest.mark.xdist_group(names[item.nodeid]))
    items.sort(key=lambda item: running_order(names[item.nodeid]))
