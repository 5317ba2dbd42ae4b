"""Test-wide settings: every test runs offline and with a fixed hash seed.

Set before any kernel starts, so notebooks run by nbval and by the grading tests
inherit them. A learner's ANTHROPIC_API_KEY is never used by the tests.

The tests run on every core (pytest-xdist, `-n auto --dist loadfile` in pyproject.toml):
a file's tests stay together on one worker, so a notebook's cells run in order in one
kernel and a module's fixture is built once. The longest files go first (below), so that
no worker is left with a long file at the end while the other idles.
"""

import os

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

# The files that take longest on one worker (bench/test_time.py, 2 cores), longest first;
# then every notebook (a kernel each, 5-40 s), then the other test files (seconds each).
LONGEST_FIRST = [
    "tests/test_exercises_run.py",
    "tests/test_grading.py",
    "tests/test_live_check.py",
    "lessons/ko/05b_compaction_triggers_server_and_cost.ipynb",
    "lessons/ko/06_scratchpad_memory.ipynb",
    "lessons/ko/07_choosing_and_combining.ipynb",
]


def running_order(nodeid: str) -> tuple[int, int]:
    path = nodeid.split("::", 1)[0]
    if path in LONGEST_FIRST:
        return 0, LONGEST_FIRST.index(path)
    return (1 if path.endswith(".ipynb") else 2), 0


def pytest_collection_modifyitems(items):
    """Longest files first (a stable sort: each file's items keep their order, a notebook's
    cells too). The same order on every worker, as xdist requires; with
    `--no-loadscope-reorder` its scheduler hands the files out in this order."""
    items.sort(key=lambda item: running_order(item.nodeid))
