"""The package's shape: who may import whom, and module sizes.

The stand-in (`standin/`) is a server: it must not import the client-side
strategies it stands in for (`agentlib.context`) nor the client, or a learner who edits
`context/clear.py` would silently change the "API". The strategies never import the
client either (they are given one). Imports are read from the source, lazy ones included.
"""

import ast
from pathlib import Path

import agentlib

ROOT = Path(agentlib.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, as absolute dotted names (relative ones resolved)."""
    package = ".".join(("agentlib", *path.relative_to(ROOT).parent.parts))
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def edges(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for module in sorted(imports_of(path)):
            if any(module == f or module.startswith(f + ".") for f in forbidden):
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    return bad


def test_the_stand_in_imports_neither_the_strategies_nor_the_client():
    assert edges("offline", ("agentlib.context", "agentlib.client", "agentlib.connect")) == []


def test_the_strategies_never_import_the_client():
    assert edges("context", ("agentlib.client", "agentlib.connect", "standin")) == []


def test_the_import_reader_sees_relative_and_lazy_imports(tmp_path):
    # the test must be able to fail: a lazy relative import of the strategies is seen
    probe = ROOT / "offline" / "_probe_for_test.py"
    probe.write_text("def f():\n    from ..context.clear import PLACEHOLDER\n    return 1\n",
                     encoding="utf-8")
    try:
        assert edges("offline", ("agentlib.context",)) == [
            "offline/_probe_for_test.py imports agentlib.context.clear",
            "offline/_probe_for_test.py imports agentlib.context.clear.PLACEHOLDER"]
    finally:
        probe.unlink()


def test_no_strategy_module_is_over_150_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "context").glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 150} == {}


def test_every_strategy_is_importable_from_agentlib_context():
    from agentlib import context

    for name in ("SlidingWindow", "Clearing", "Compactor", "truncate", "clear_tool_results",
                 "cap", "Notes", "memory_toolbox", "is_cleared"):
        assert hasattr(context, name), name
