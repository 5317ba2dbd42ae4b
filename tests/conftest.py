"""Test-wide settings: every test runs offline and with a fixed hash seed.

Set before any kernel starts, so notebooks run by nbval and by the grading tests
inherit them. A learner's ANTHROPIC_API_KEY is never used by the tests.

The tests run on every core (pytest-xdist, `-n auto` in pyproject.toml), in groups
(below) that each stay on one worker: a notebook's cells run in order in one
kernel and a module's fixture is built once. The longest groups go first, so that no
worker is left with a long one at the end while the other idles.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ["AGENTLIB_OFFLINE"] = "1"
os.environ["PYTHONHASHSEED"] = "0"
os.environ.pop("AGENTLIB_LANG", None)  # each notebook's language is its own (its folder)

# Property tests: 25 examples each ("small", every day: the same 25 on every run, so that
# a run passes or fails by the code alone), or 1,000 drawn anew ("full": what `course.py
# test --all` selects; by hand HYPOTHESIS_PROFILE=full).
settings.register_profile("small", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("full", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", settings.get_profile("small"))  # its former name
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "small"))

# Notebooks that exist to misbehave (infinite loops, crashes) must never be collected
# by nbval; the grading tests build theirs in a temporary folder, keep it that way.
collect_ignore_glob = ["grading_fixtures/*"]

# What runs together on one worker: a file's tests (`--dist loadfile` in pyproject.toml),
# except that the tests sharing a module-scoped fixture (a whole class graded once, say)
# form a group of their own, so that two such fixtures of one file can be built on two
# workers at once, each once. A notebook's cells are one group: in order, in one kernel.
def group(item) -> str:
    path = item.nodeid.split("::", 1)[0]
    info = getattr(item, "_fixtureinfo", None)
    shared = sorted(name for name, defs in (info.name2fixturedefs.items() if info else ())
                    if defs and defs[-1].scope == "module")
    return f"{path}::{'+'.join(shared)}" if shared else path


class GroupsAcrossWorkers:
    """The groups above, for xdist's scheduler (on the controller, which collects nothing):
    each worker writes them to a file, the scheduler hands out whole groups. (xdist's own
    `loadgroup` reads a group from a suffix it adds to the nodeid, which pytest 9.2 no
    longer lets it change: pytest-xdist#1386.) Without this file, e.g. when only notebooks
    are collected, xdist's `loadfile` applies: a file per group, which is safe too."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="course-test-groups-")

    def pytest_configure_node(self, node) -> None:  # noqa: ANN001
        node.workerinput["course_groups"] = self.folder

    def pytest_xdist_make_scheduler(self, config, log):  # noqa: ANN001, ANN201
        if config.getvalue("dist") != "loadfile":
            return None  # another mode asked for: xdist's own
        from xdist.scheduler import LoadScopeScheduling

        folder = Path(self.folder)

        class ByGroup(LoadScopeScheduling):
            groups: dict[str, str] | None = None

            def _split_scope(self, nodeid: str) -> str:
                if self.groups is None:  # first asked once every worker has collected
                    self.groups = {}
                    for written in sorted(folder.glob("*.json")):
                        self.groups.update(json.loads(written.read_text(encoding="utf-8")))
                return self.groups.get(nodeid) or nodeid.split("::", 1)[0]

        return ByGroup(config, log)

    def pytest_unconfigure(self, config) -> None:  # noqa: ANN001
        shutil.rmtree(self.folder, ignore_errors=True)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(GroupsAcrossWorkers(), "course-test-groups")


# The groups that take longest on one worker (bench/test_time.py, 2 cores), longest first;
# then every notebook (a kernel each, 2-40 s), then the other test files (seconds each).
# The heavy groups (the whole class graded) lead `course.py test --all` and `-m heavy`.
LONGEST_FIRST = [
    "tests/test_exercises_run.py::graded_course",
    "tests/test_grading.py::graded_ex2",
    "tests/test_grading.py::graded",
    "tests/test_grading.py",
    "lessons/07b_ranking_and_choosing.ipynb",
    "lessons/ko/07b_ranking_and_choosing.ipynb",
    "lessons/07_choosing_and_combining.ipynb",
    "lessons/ko/07_choosing_and_combining.ipynb",
    "tests/test_live_check.py::books",
    "tests/test_exercises_run.py",
    "lessons/05b_compaction_triggers_server_and_cost.ipynb",
    "lessons/ko/05b_compaction_triggers_server_and_cost.ipynb",
    "tests/test_korean_details_late.py",
    "tests/test_korean_details.py",
    "tests/test_unscripted_ops.py",
    "tests/test_lesson07_checks.py",
]


def running_order(name: str) -> tuple[int, int]:
    if name in LONGEST_FIRST:
        return 0, LONGEST_FIRST.index(name)
    return (1 if name.split("::")[0].endswith(".ipynb") else 2), 0


# The Korean edition's notebooks run the English code cells (tests/test_translations.py holds
# them equal); re-executing them, about a quarter of the everyday run, waits for the heavy
# mode (`course.py test --all`, CI). Every day: the English notebooks, and the Korean words
# themselves (tests/test_korean_*.py, test_i18n.py: printed lines, plots, check feedback).
KOREAN_EDITION = ("lessons/ko/", "solutions/ko/")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the marks
def pytest_collection_modifyitems(config, items):
    """The Korean notebooks marked heavy (above); the longest groups first (a stable sort:
    each file's items keep their order, a notebook's cells too), the same order on every worker, as xdist requires; with
    `--no-loadscope-reorder` its scheduler hands the groups out in this order. On a worker,
    the groups go to the file the scheduler reads."""
    for item in items:
        if item.nodeid.startswith(KOREAN_EDITION):
            item.add_marker(pytest.mark.heavy)
    names = {item.nodeid: group(item) for item in items}
    items.sort(key=lambda item: running_order(names[item.nodeid]))
    folder = getattr(config, "workerinput", {}).get("course_groups")
    if folder:
        worker = Path(folder) / config.workerinput["workerid"]
        worker.with_suffix(".tmp").write_text(json.dumps(names), encoding="utf-8")
        worker.with_suffix(".tmp").replace(worker.with_suffix(".json"))


@pytest.fixture(autouse=True, scope="module")
def fresh_kernel_meter():
    """Each test module starts with what a fresh kernel has: nothing spent, the budget of
    the environment (agentlib.meter is per process, and a worker runs many modules: without
    this, the $5 cap that the first unscripted client sets is spent across all of them, and
    whichever module comes last on that worker meets BudgetExceeded)."""
    from agentlib import meter

    process = meter.process()  # the object stays: clients made at import keep their parent
    with process._lock:
        process.usage = meter.Usage()
    process.budget = meter.default_budget()
    meter._SET = False
    yield
