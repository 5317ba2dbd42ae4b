"""The course's shape: one package per job, dependencies pointing one way, and module sizes.

    agentlib   the agent the lessons derive; imports none of the others (but `standin`,
               lazily, in `connect()`: the one seam) and no plotting or notebook library
    standin    the offline Messages API, a server; imports nothing of agentlib
    coursekit  the bench around the agent (workloads, plots, profiles, the benchmark)
    classroom  checks, grading, the class grader
    apiwire    data both sides of the wire share (the model catalog), importing none of them

Imports are read from the source, lazy ones included; a probe shows the reader can fail.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("agentlib", "standin", "coursekit", "classroom", "apiwire")
# what each package may import of the others (a lazy import inside a function included)
ALLOWED = {
    "agentlib": {"apiwire"},
    "standin": {"apiwire"},
    "apiwire": set(),
    "coursekit": {"agentlib", "standin", "apiwire"},
    "classroom": {"agentlib", "standin", "apiwire", "coursekit"},
}
SEAM = ("agentlib/client.py", "standin")  # connect() loads the stand-in with no key
AGENT_LIMIT = 3_000  # lines of code in agentlib (non-blank, non-comment)


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """(module, at module level?) for every import in `path`, relative ones resolved."""
    rel = path.relative_to(REPO)
    package = ".".join(rel.parent.parts)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, id(node) in top))
    return found


def violations(package: str) -> list[str]:
    bad = []
    for path in sorted((REPO / package).rglob("*.py")):
        rel = str(path.relative_to(REPO))
        for module, _ in imports_of(path):
            root = module.split(".")[0]
            if root in PACKAGES and root != package and root not in ALLOWED[package]:
                if (rel, root) == SEAM:
                    continue
                bad.append(f"{rel} imports {module}")
    return bad


@pytest.mark.parametrize("package", PACKAGES)
def test_dependencies_point_one_way(package):
    assert violations(package) == []


def test_the_seam_is_lazy():
    """agentlib imports the stand-in only inside connect(), never at module level."""
    found = [(m, top) for m, top in imports_of(REPO / SEAM[0]) if m.split(".")[0] == "standin"]
    assert found and not any(top for _, top in found)


def test_the_import_reader_can_fail():
    probe = REPO / "standin" / "_probe_for_test.py"
    probe.write_text("def f():\n    from agentlib.context.clear import PLACEHOLDER\n"
                     "    return PLACEHOLDER\n", encoding="utf-8")
    try:
        assert violations("standin") == ["standin/_probe_for_test.py imports "
                                         "agentlib.context.clear"]
    finally:
        probe.unlink()


def test_import_agentlib_loads_no_course_and_no_notebook_library():
    code = ("import sys, agentlib, agentlib.loop, agentlib.context, agentlib.delegate, "
            "agentlib.cost, agentlib.meter, agentlib.client\n"
            "bad = sorted({m.split('.')[0] for m in sys.modules} & {'standin', 'coursekit', "
            "'classroom', 'matplotlib', 'ipywidgets', 'nbformat', 'nbclient'})\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout.strip()
    assert out == ""


def test_the_stand_in_runs_without_agentlib():
    code = ("import sys; sys.modules['agentlib'] = None\n"
            "import standin, json\n"
            "model, http = standin.in_process()\n"
            "r = http.post('/v1/messages/count_tokens', headers={'x-api-key': 'k'}, "
            "json={'model': 'course-model-1', "
            "'messages': [{'role': 'user', 'content': 'hi'}]})\n"
            "print(r.status_code, r.json()['input_tokens'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout.strip()
    assert out == "200 5"


def code_lines(path: Path) -> int:
    """Non-blank lines that are not comments (docstrings count: they are read)."""
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.strip().startswith("#"))


def test_agentlib_is_small_enough_to_read_in_an_afternoon():
    sizes = {str(p.relative_to(REPO)): code_lines(p) for p in sorted((REPO / "agentlib")
                                                                     .rglob("*.py"))}
    total = sum(sizes.values())
    print(f"\nagentlib: {total:,} lines of code in {len(sizes)} modules (limit {AGENT_LIMIT:,})")
    for other in ("standin", "coursekit", "classroom", "apiwire"):
        n = sum(code_lines(p) for p in (REPO / other).rglob("*.py"))
        print(f"{other}: {n:,} lines of code")
    assert total <= AGENT_LIMIT, sizes


def test_no_strategy_module_is_over_150_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in (REPO / "agentlib" / "context").glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 150} == {}


def test_every_strategy_is_importable_from_agentlib_context():
    from agentlib import context

    for name in ("SlidingWindow", "Clearing", "Compactor", "truncate", "clear_tool_results",
                 "cap", "Notes", "memory_toolbox", "is_cleared"):
        assert hasattr(context, name), name
