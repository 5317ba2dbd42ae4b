"""Withhold the course's own code for what an assignment asks: stubs, in the sandbox's copy.

The class grader does not try to catch a graded function using the course's reference
(`agentlib.context.truncate` for lesson 2's `safe_truncate`): it grades where the reference
is not there. For each assignment, classroom/grade.py copies the agent and the kit for the
sandbox, then `withhold(copy, targets(exercises))` rewrites the copy's source: every
function and class the assignment's exercises declare (`own_work` in
classroom/checks/lessonNN.py, and every other course function found to compute the same,
tests/test_withheld.py) keeps its name, signature-free `(*args, **kwargs)` and docstring,
and its body becomes a call to `classroom.withheld.withheld`, which raises `Withheld`
("`truncate` (agentlib.context.truncate) is not available while ex2.safe_truncate is
graded: ..."). A declared text (a prompt) becomes a placeholder. Nothing of the body is
left, on disk or in memory, so no route reaches it: an import under another name,
`inspect.getsource`, a file path, a fork, a raw thread, a computed name.

How a new assignment declares it, in its checks module:

    own_work("ex10.cache_key", "agentlib.cache:key_of")          # withheld (the default)
    own_work("ex10", "agentlib.cache")                            # a module: all it defines
    own_work("ex10.cache_key", "agentlib.messages:validate",
             cells="served")   # withheld from graded calls, answered for the cells' own use
    own_work("ex10.cache_key", "agentlib.tools:Toolbox.run",
             cells="watched")  # the cells need it and it cannot be served: left, watched
    uses_the_library("ex11.capstone")                             # nothing withheld at all

"served" is for pure functions of plain data only (the grader runs them in its own
process while the notebook's cells run, classroom/grader/lending.py); "watched" is the
fallback, weaker: an in-process watch (classroom/ownwork.py), with threads and processes
refused. Then run tests/test_withheld.py: it grades the solution in the withheld copy
(the cells must still run) and searches the copy for any function that still passes the
exercise's checks.
"""

from __future__ import annotations

import ast
from pathlib import Path

from classroom import grading

KEEP = frozenset({"__init_subclass__", "__set_name__", "__class_getitem__", "__prepare__"})
"""Class hooks that run when another module defines a subclass: never stubbed."""


def targets(exercises: list[str]) -> dict[str, tuple[str, bool]]:
    """spec -> (the exercises that withhold it, in words; served?) for an assignment."""
    found: dict[str, list[str]] = {}
    served: set[str] = set()
    for exercise in exercises:
        for spec, how in grading.withheld_for(exercise).items():
            found.setdefault(spec, []).append(exercise)
            if how == "served":
                served.add(spec)
    return {spec: (_words(exs), spec in served) for spec, exs in found.items()}


def _words(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def module_file(site: Path, module: str) -> Path:
    """The source file of `module` in the copy at `site`."""
    base = site.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    raise FileNotFoundError(f"withhold: no module {module} under {site}")


def withhold(site: Path, wanted: dict[str, tuple[str, bool]]) -> list[str]:
    """Rewrite the modules under `site` so that every spec in `wanted` is a stub; returns
    what became one ("module:qualname"). Raises if a spec names nothing."""
    by_module: dict[str, dict[str, tuple[str, bool]]] = {}
    for spec, how in wanted.items():
        module, _, path = spec.partition(":")
        by_module.setdefault(module, {})[path] = how
    done: list[str] = []
    for module, paths in sorted(by_module.items()):
        file = module_file(site, module)
        source = file.read_text(encoding="utf-8")
        new, stubbed = _rewrite(source, module, paths)
        compile(new, str(file), "exec")  # a stub must be Python
        file.write_text(new, encoding="utf-8")
        done += stubbed
    return done


def _rewrite(source: str, module: str, paths: dict[str, tuple[str, bool]]
             ) -> tuple[str, list[str]]:
    tree = ast.parse(source)
    edits: dict[int, tuple[ast.stmt, str, str, bool]] = {}  # id(node) -> node, qualname, ...

    def mark(node: ast.stmt, qualname: str, how: tuple[str, bool]) -> None:
        if id(node) not in edits:
            edits[id(node)] = (node, qualname, *how)

    top = {n.name: n for n in tree.body if isinstance(n, _DEFS)}
    texts = {t.id: n for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
             for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
             if isinstance(t, ast.Name)}
    for path, how in paths.items():
        if not path:  # the whole module: every function and class it defines
            for name, node in top.items():
                mark(node, name, how)
            continue
        first, *rest = path.split(".")
        node = top.get(first)
        if node is None and not rest and first in texts:
            mark(texts[first], first, how)
            continue
        for part in rest:
            inner = {n.name: n for n in getattr(node, "body", []) if isinstance(n, _DEFS)}
            node = inner.get(part)
        if node is None:
            raise LookupError(f"withhold: {module}:{path} names nothing in {module}")
        mark(node, path, how)
    for outer in list(edits.values()):  # a class withheld whole covers its methods
        if isinstance(outer[0], ast.ClassDef):
            inside = {id(n) for n in ast.walk(outer[0]) if n is not outer[0]}
            for key in [k for k in edits if k in inside]:
                del edits[key]
    lines = source.splitlines(keepends=True)
    stubbed = []
    for node, qualname, exercises, served in sorted(edits.values(),
                                                    key=lambda e: -e[0].lineno):
        spec = f"{module}:{qualname}"
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        new = ast.unparse(_stubbed(node, spec, exercises, served))
        indent = " " * node.col_offset
        text = "".join(indent + line + "\n" if line else "\n" for line in new.splitlines())
        lines[start - 1:node.end_lineno] = [text]
        stubbed.append(spec)
    return "".join(lines), sorted(stubbed)


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _stubbed(node: ast.stmt, spec: str, exercises: str, served: bool) -> ast.stmt:
    """`node` (a def, a class, a text) with nothing left of what it computes."""
    if isinstance(node, ast.Assign | ast.AnnAssign):
        name = spec.partition(":")[2]
        node.value = ast.Constant(f"[{name} is not available while {exercises} is graded: "
                                  "it is what that exercise asks you to write]")
        return node
    if isinstance(node, ast.ClassDef):
        body: list[ast.stmt] = []
        for item in node.body:
            if isinstance(item, _DEFS) and item.name not in KEEP:
                item = _stubbed(item, f"{spec}.{item.name}", exercises, False)
            body.append(item)
        node.body = body or [ast.Pass()]
        return node
    doc = ast.get_docstring(node, clean=False)
    call = ast.parse(f"from classroom.withheld import withheld\n"
                     f"return withheld({spec!r}, {exercises!r}, {served!r}, args, kwargs)"
                     ).body
    node.args = ast.arguments(posonlyargs=[], args=[], vararg=ast.arg("args"), kwonlyargs=[],
                              kw_defaults=[], kwarg=ast.arg("kwargs"), defaults=[])
    node.returns = None
    node.body = ([ast.Expr(ast.Constant(doc))] if doc else []) + call
    return node
