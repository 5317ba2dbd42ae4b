"""What a notebook's source says its graded functions use: the grader's own reading of the
cells, beside the sandbox's watch.

The watch (classroom/ownwork.py) runs in the learner's process, where a notebook that
knows how could blind it. This reading runs in the worker, on the cells as handed in,
which nothing in the notebook can change; it resolves names with the worker's own copy of
the course. Two questions:

- `uses(cells, names, specs)`: for each graded name, the declared things its code refers
  to: through an import under any name (`from agentlib.context import truncate as cut`),
  an attribute path (`agentlib.context.truncate.safe_start`, `sys.modules["..."].x`), a
  top-level alias or copy (`find_split = orphan_index`, `mine = FunctionType(f.__code__,
  ...)`), or another function of the notebook that it calls.
- `tampering(cells)`: the watch's machinery or the interpreter's introspection named in
  the source (`sys.settrace`, `threading.gettrace`, `gc`, `ctypes`, `classroom.ownwork`):
  nothing an exercise needs, and what blinding the watch would take (counted only where an
  exercise is watched: elsewhere there is no watch to blind).
- `imports(cells, names)`: a graded name bound by an import (`from ... import orphan_index
  as find_split`): not the learner's own function, whatever it computes.

A reading of text can be fooled by text that builds names at run time; the sandbox's copy
of the course does not have what an exercise withholds, whatever the name.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
import types
from typing import Any

from classroom import ownwork

TAMPER_NAMES = frozenset({
    "settrace", "setprofile", "gettrace", "getprofile", "_trace_hook", "_profile_hook",
    "settrace_all_threads", "setprofile_all_threads", "_getframe", "_current_frames",
    "get_referrers", "get_referents", "get_objects", "addaudithook", "f_back", "tb_frame",
    "gi_frame", "cr_frame", "cell_contents", "__closure__", "__self__", "monitoring"})
TAMPER_MODULES = ("ctypes", "gc", "classroom.ownwork", "classroom.grader", "_thread")
WRAPPERS = frozenset({"FunctionType", "LambdaType", "MethodType", "partial", "wraps", "copy",
                      "deepcopy", "reload"})
"""Calls whose result is the function they are given, wrapped or copied."""
MAGIC = re.compile(r"^\s*[%!]", re.M)
COURSE = ("agentlib", "apiwire", "standin", "coursekit", "classroom")
MAX_DEPTH = 12


def _trees(cells: list[dict]) -> list[ast.Module]:
    """The cells that parse, IPython's magics (`%time`, `!ls`) blanked out."""
    trees = []
    for cell in cells:
        source = MAGIC.sub("#", str(cell.get("source", "")))
        try:
            trees.append(ast.parse(source))
        except (SyntaxError, ValueError, RecursionError):
            continue
    return trees


def _top(tree: ast.Module) -> list[ast.stmt]:
    """A cell's top-level statements, those inside if/try/with/for blocks included."""
    out, stack = [], list(reversed(tree.body))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
            inner = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            for handler in getattr(node, "handlers", []):
                inner += handler.body
            stack += reversed(inner)
    return out


def _dotted(node: ast.AST) -> tuple[ast.AST, list[str]]:
    """(the base of an attribute chain, its attribute names): a.b.c -> (a, [b, c])."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    return node, names[::-1]


def _import(path: str) -> Any:
    """The object `a.b.c` names, as `from a.b import c` gives it (an attribute first, a
    submodule else); None when it names nothing, or nothing of the course (the worker
    imports no module a notebook names, only the course's own, which it has already)."""
    if path.split(".")[0] not in COURSE:
        return None
    module, _, name = path.rpartition(".")
    try:
        if not module:
            return importlib.import_module(path)
        parent = importlib.import_module(module)
        try:
            return getattr(parent, name)
        except AttributeError:
            return importlib.import_module(path)
    except Exception:  # noqa: BLE001 (a name the course does not have is not the course's)
        return None


def _attr(obj: Any, names: list[str]) -> Any:
    for name in names:
        if obj is None:
            return None
        try:
            value = getattr(obj, name)
        except Exception:  # noqa: BLE001
            if not isinstance(obj, types.ModuleType):
                return None
            value = _import(f"{obj.__name__}.{name}")
        obj = value
    return obj


def _hits_of(obj: Any) -> list[str]:
    """`module:qualname` of a course object a reference resolves to (a function, a class,
    a method, a code object's function), as the watch names what runs."""
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    if isinstance(obj, types.FunctionType | type):
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
        if isinstance(module, str) and "<locals>" not in qualname:
            return [f"{module}:{qualname}"]
    if isinstance(obj, str):
        return []
    return []


class _Reader:
    """One notebook's top-level bindings, and what a name's code refers to."""

    def __init__(self, trees: list[ast.Module]) -> None:
        self.bindings: dict[str, list[tuple[str, Any]]] = {}
        for tree in trees:
            for node in _top(tree):
                self._bind(node)

    def _bind(self, node: ast.stmt) -> None:
        def add(name: str, kind: str, value: Any) -> None:
            self.bindings.setdefault(name, []).append((kind, value))

        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    add(alias.asname, "object", alias.name)
                else:
                    first = alias.name.split(".")[0]
                    add(first, "object", first)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if alias.name != "*":
                    add(alias.asname or alias.name, "object", f"{node.module}.{alias.name}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            add(node.name, "code", node)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        add(name.id, "code", node.value)

    # ---------------------------------------------------------------- resolving
    def resolve(self, node: ast.AST, seen: set, depth: int) -> Any:
        """The course object an expression stands for, when it is a plain reference."""
        if depth > MAX_DEPTH:
            return None
        base, names = _dotted(node)
        obj = None
        if isinstance(base, ast.Name):
            kind, value = self.last(base.id)
            if kind == "object":
                obj = _import(value)
            elif kind == "code" and isinstance(value, ast.expr) and (base.id, id(value)) \
                    not in seen:
                obj = self.resolve(value, seen | {(base.id, id(value))}, depth + 1)
        elif isinstance(base, ast.Subscript):  # sys.modules["agentlib.context.truncate"]
            inner, path = _dotted(base.value)
            key = base.slice
            if isinstance(inner, ast.Name) and path == ["modules"] and \
                    isinstance(key, ast.Constant) and isinstance(key.value, str):
                obj = _import(key.value)
                if obj is not None:
                    obj = sys.modules.get(key.value, obj)
        elif isinstance(base, ast.Call) and base.args and isinstance(base.args[0], ast.Constant) \
                and isinstance(base.args[0].value, str):
            called = _callee(base)
            if called in ("import_module", "__import__", "reload"):
                importlib.invalidate_caches()
                obj = _import(base.args[0].value)
                if obj is not None:
                    obj = sys.modules.get(base.args[0].value, obj)
        elif isinstance(base, ast.Call) and base.args and _callee(base) == "reload":
            obj = self.resolve(base.args[0], seen, depth + 1)  # reload(m): m, compiled again
        return _attr(obj, names) if obj is not None else None

    def refers(self, root: ast.AST, seen: set, depth: int) -> list[str]:
        """Every course object (as hits) the code under `root` refers to."""
        if depth > MAX_DEPTH:
            return []
        local = _locals(root)
        found: list[str] = []
        for node in ast.walk(root):
            if isinstance(node, ast.Attribute | ast.Name | ast.Subscript | ast.Call):
                base, _ = _dotted(node)
                if isinstance(base, ast.Name) and base.id in local:
                    continue
                obj = self.resolve(node, seen, depth + 1)
                found += _hits_of(obj)
                if isinstance(node, ast.Name) and obj is None:
                    found += self.name_refers(node.id, seen, depth + 1)
        return found

    def name_refers(self, name: str, seen: set, depth: int) -> list[str]:
        """What the notebook's top-level `name` (a def, a class, an assignment) refers to."""
        kind, value = self.last(name)
        if kind == "object":
            return _hits_of(_import(value))
        if kind is None or (name, id(value)) in seen:
            return []
        seen = seen | {(name, id(value))}
        if isinstance(value, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                      | ast.Lambda) or (isinstance(value, ast.Call)
                                        and _callee(value) in WRAPPERS):
            return self.refers(value, seen, depth + 1)
        return _hits_of(self.resolve(value, seen, depth + 1))  # data, unless an alias

    def last(self, name: str) -> tuple[str | None, Any]:
        """The binding of `name` at the end of the notebook: ("object", dotted path),
        ("code", a def or an expression), or (None, None)."""
        found = self.bindings.get(name)
        return found[-1] if found else (None, None)


def _callee(call: ast.Call) -> str:
    """The last name of what a call calls: `types.FunctionType(...)` -> 'FunctionType'."""
    func, path = _dotted(call.func)
    return path[-1] if path else getattr(func, "id", "")


def _locals(root: ast.AST) -> set[str]:
    """Names bound inside a function (its parameters, assignments, loop variables); empty
    for an expression."""
    if not isinstance(root, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return set()
    names: set[str] = set()
    declared_global: set[str] = set()
    for node in ast.walk(root):
        if isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            declared_global.update(node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) \
                and node is not root:
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names - declared_global


def uses(cells: list[dict], names: list[str], specs: list[str]) -> dict[str, list[str]]:
    """Graded name -> the declared things (hits, as the watch reports them) its code refers
    to. Never raises: what it cannot read it leaves to the watch."""
    try:
        reader = _Reader(_trees(cells))
        out = {}
        for name in names:
            hits = list(dict.fromkeys(reader.name_refers(name, set(), 0)))
            declared = [h for h in hits if ownwork.used([h], specs)]
            if declared:
                out[name] = declared
        return out
    except Exception:  # noqa: BLE001
        return {}


def imports(cells: list[dict], names: list[str]) -> dict[str, tuple[int, str]]:
    """Graded name -> (the cell's index, the import statement) when the notebook's last
    top-level binding of that name is an import (`from classroom.checks.lesson02 import
    orphan_index as find_split`). Never raises."""
    wanted, found = set(names), {}
    try:
        for cell in cells:
            try:
                tree = ast.parse(MAGIC.sub("#", str(cell.get("source", ""))))
            except (SyntaxError, ValueError, RecursionError):
                continue
            for node in _top(tree):
                for name in wanted & set(_bound_names(node)):
                    if isinstance(node, ast.Import | ast.ImportFrom):
                        text = " ".join(ast.unparse(node).split())[:160]
                        found[name] = (int(cell["index"]), text)
                    else:
                        found.pop(name, None)
    except Exception:  # noqa: BLE001
        return {}
    return found


def imported(cells: list[dict], names: list[str]) -> dict[str, str]:
    """Graded name -> how an import binds it, as the report says it."""
    return {name: f"`{name}` is imported in cell {index + 1} (`{text}`)"
            for name, (index, text) in imports(cells, names).items()}


def _bound_names(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds."""
    if isinstance(node, ast.Import):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    if isinstance(node, ast.ImportFrom):
        return [a.asname or a.name for a in node.names]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return []


def tampering(cells: list[dict]) -> list[str]:
    """What of the watch's machinery, or the interpreter's introspection, the source names."""
    found: list[str] = []
    try:
        for tree in _trees(cells):
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr in TAMPER_NAMES:
                    found.append(node.attr)
                elif isinstance(node, ast.Name) and node.id in TAMPER_NAMES:
                    found.append(node.id)
                elif isinstance(node, ast.Import):
                    found += [a.name for a in node.names if _tampers(a.name)]
                elif isinstance(node, ast.ImportFrom) and node.module and _tampers(node.module):
                    found.append(node.module)
    except Exception:  # noqa: BLE001
        pass
    return sorted(set(found))


def _tampers(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in TAMPER_MODULES)
