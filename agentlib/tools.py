"""Tools for an agent: API tool definitions from Python functions, and a Toolbox that
turns `tool_use` blocks into `tool_result` blocks (the files they read: `workspace`).

A tool never raises into the agent loop: every failure (unknown tool, bad input, an
exception inside the tool) comes back as a `tool_result` with `is_error: True` and a
short message that the model can act on.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

# ---------------------------------------------------------------------------
# Tool definitions from functions

_SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean"}
_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # the API's rule for tool names
_SECTION_RE = re.compile(r"^(Args|Arguments|Returns|Raises|Yields|Examples?|Notes?):\s*$")
_ARG_RE = re.compile(r"^(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")  # "name (type): text"


def _schema_for(annotation: Any) -> tuple[dict, bool] | None:
    """The JSON schema of one annotation and whether it allows None; None if unsupported."""
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}, False
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = _schema_for(rest[0]) if len(rest) == 1 else None
        return (inner[0], True) if inner and not inner[1] else None
    if origin is list and len(args) == 1 and args[0] in _SCALARS:
        return {"type": "array", "items": {"type": _SCALARS[args[0]]}}, False
    if origin is typing.Literal and args and all(isinstance(a, str) for a in args):
        return {"type": "string", "enum": list(args)}, False
    return None


def _parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and its Args entries."""
    summary: list[str] = []
    params: dict[str, str] = {}
    section, current, entry_indent = None, None, None
    for line in inspect.cleandoc(doc or "").splitlines():
        if _SECTION_RE.match(line):
            section, current = line.strip().rstrip(":"), None
        elif section is None:
            summary.append(line)
        elif section in ("Args", "Arguments") and line.strip():
            indent = len(line) - len(line.lstrip())
            entry_indent = indent if entry_indent is None else entry_indent
            match = _ARG_RE.match(line.strip())
            if indent <= entry_indent and match:  # a new "name: text" entry
                current = match.group(1)
                params[current] = match.group(2).strip()
            elif current is not None:  # a continuation line of the current entry
                params[current] = f"{params[current]} {line.strip()}".strip()
    return "\n".join(summary).strip(), params


def _parameters(fn: Callable) -> list[tuple[inspect.Parameter, dict, bool]]:
    """(parameter, schema, nullable) for every parameter of fn, or a TypeError."""
    fn_name = getattr(fn, "__name__", repr(fn))
    try:
        hints = typing.get_type_hints(fn)
    except Exception as exc:  # an annotation that does not evaluate
        raise TypeError(f"tool function {fn_name!r}: cannot read its type hints: {exc}") from exc
    out = []
    for param in inspect.signature(fn).parameters.values():
        if param.name == "self":
            continue
        where = f"tool function {fn_name!r}, parameter {param.name!r}"
        if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            raise TypeError(f"{where}: *args, **kwargs and positional-only are not supported")
        if param.name not in hints:
            raise TypeError(f"{where}: needs a type annotation (str, int, float, bool, list[str])")
        found = _schema_for(hints[param.name])
        if found is None:
            raise TypeError(
                f"{where}: unsupported annotation {hints[param.name]!r}; use str, int, float, "
                "bool, list[str] (or list of another of these), Literal[...] of str, or X | None"
            )
        out.append((param, *found))
    return out


def tool_definition(fn: Callable, name: str | None = None) -> dict:
    """The API tool definition ({name, description, input_schema}) for a Python function.

    Types come from the annotations, descriptions from the docstring and its "Args:"
    section; parameters without a default are required.
    """
    name = name or fn.__name__
    if not _NAME_RE.match(name):
        raise ValueError(f"tool name {name!r} must match {_NAME_RE.pattern}")
    description, arg_docs = _parse_docstring(fn.__doc__)
    properties: dict[str, dict] = {}
    required: list[str] = []
    for param, schema, nullable in _parameters(fn):
        prop = dict(schema)
        if arg_docs.get(param.name):
            prop["description"] = arg_docs[param.name]
        properties[param.name] = prop
        if param.default is param.empty and not nullable:
            required.append(param.name)
    input_schema = {"type": "object", "properties": properties, "required": required,
                    "additionalProperties": False}
    return {"name": name, "description": description, "input_schema": input_schema}


# ---------------------------------------------------------------------------
# Running tool calls

_JSON_TYPES = [(bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               (list, "array"), (dict, "object"), (type(None), "null")]


def _json_type(value: Any) -> str:
    """The JSON type name of a decoded JSON value (bool before int: bool is an int)."""
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), type(value).__name__)


def _matches(value: Any, schema: dict) -> bool:
    """Whether a value fits one of the small schemas that tool_definition produces."""
    kind = schema.get("type")
    if "enum" in schema:
        return value in schema["enum"]
    if kind == "array":
        return isinstance(value, list) and all(_matches(v, schema["items"]) for v in value)
    if kind == "number":
        return _json_type(value) in ("integer", "number")
    return _json_type(value) == kind


def _expected(schema: dict) -> str:
    """A schema in words, for error messages: 'integer', 'array of string', ..."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    if schema.get("type") == "array":
        return f"array of {_expected(schema['items'])}"
    return schema.get("type", "any")


def short_repr(value: Any, width: int = 60) -> str:
    """A short repr for error messages, so a 10 MB input never lands in a result."""
    text = repr(value)
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} chars)"


def _plain(obj: Any) -> Any:
    """A plain dict from an SDK object (e.g. anthropic's ToolUseBlock); dicts pass as they are."""
    return obj.model_dump() if hasattr(obj, "model_dump") else obj


def tool_error(tool_use_id: str, text: str) -> dict:
    """A `tool_result` block that reports an error to the model."""
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": text, "is_error": True}


class Toolbox:
    """A set of named tools: their definitions for `tools=`, and a runner for their calls."""

    def __init__(self, functions: Iterable[Callable] = ()) -> None:
        self._tools: dict[str, dict] = {}
        for fn in functions:
            self.add(fn)

    def add(self, fn: Callable, name: str | None = None) -> Toolbox:
        """Add a Python function (or bound method) as a tool; its schema is checked on run."""
        definition = tool_definition(fn, name)
        params = [(p, is_nullable) for p, _, is_nullable in _parameters(fn)]
        nullable = [p.name for p, is_nullable in params if is_nullable]
        # `x: int | None` without a default is optional in the schema: pass None when omitted
        fill = [p.name for p, is_nullable in params if is_nullable and p.default is p.empty]
        entry = {"fn": fn, "nullable": nullable, "fill_none": fill, "check": True}
        return self._add(definition, entry)

    def add_definition(self, definition: dict, handler: Callable[[dict], Any]) -> Toolbox:
        """Add a ready-made definition (e.g. {"type": "memory_20250818", "name": "memory"})
        whose handler takes the whole input dict; only "input is an object" is checked."""
        return self._add(dict(definition), {"handler": handler, "check": False})

    def _add(self, definition: dict, entry: dict) -> Toolbox:
        name = definition.get("name")
        if not name:
            raise ValueError(f"tool definition has no name: {definition!r}")
        if name in self._tools:
            raise ValueError(f"a tool named {name!r} is already in this toolbox")
        self._tools[name] = {"definition": definition, **entry}
        return self

    def __add__(self, other: Toolbox) -> Toolbox:
        combined = Toolbox()
        for tool in [*self._tools.values(), *other._tools.values()]:
            combined._add(tool["definition"], {k: v for k, v in tool.items() if k != "definition"})
        return combined

    @property
    def definitions(self) -> list[dict]:
        """The tool definitions to pass as `tools=` to messages.create."""
        return [tool["definition"] for tool in self._tools.values()]

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def _input_problem(self, tool: dict, args: dict) -> str | None:
        """What is wrong with a tool call's input compared to the tool's schema, if anything."""
        schema = tool["definition"]["input_schema"]
        properties = schema["properties"]
        for field in schema["required"]:
            if field not in args:
                return f"missing required field {field!r} (expected {_expected(properties[field])})"
        for field, value in args.items():
            if field not in properties:
                return f"unknown field {field!r}; the fields are: {', '.join(properties) or 'none'}"
            if value is None and field in tool["nullable"]:
                continue
            if not _matches(value, properties[field]):
                return (f"field {field!r} must be {_expected(properties[field])}, "
                        f"got {_json_type(value)} {short_repr(value)}")
        return None

    def run(self, block: dict) -> dict:
        """Run one `tool_use` block and return its `tool_result` block; never raises for
        anything the model sent: errors come back with `is_error: True`."""
        block = _plain(block)
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            raise ValueError(f"Toolbox.run expects a tool_use block, got {short_repr(block)}")
        tool_use_id, name, args = block.get("id", ""), block.get("name"), block.get("input", {})
        where = f"tool {name!r} (tool_use id {tool_use_id})"
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(self._tools) or "none"
            return tool_error(tool_use_id, f"Error: unknown {where}; the known tools are: {known}")
        if not isinstance(args, dict):
            return tool_error(tool_use_id, f"Error: {where}: input must be an object, "
                                           f"got {_json_type(args)}")
        if tool["check"] and (problem := self._input_problem(tool, args)):
            return tool_error(tool_use_id, f"Error: {where}: {problem}")
        try:
            if tool["check"]:
                result = tool["fn"](**{**dict.fromkeys(tool["fill_none"]), **args})
            else:
                result = tool["handler"](args)
        except Exception as exc:  # the model sees the error, never a traceback
            return tool_error(tool_use_id, f"Error: {type(exc).__name__}: {exc}")
        blocks = isinstance(result, list) and all(isinstance(b, dict) and "type" in b
                                                   for b in result) and result
        # a list of content blocks (e.g. tool_reference) goes as it is; anything else as text
        return {"type": "tool_result", "tool_use_id": tool_use_id,
                "content": result if blocks else str(result)}

    def run_all(self, message: dict) -> dict:
        """The user message that answers every tool_use block of an assistant message,
        its tool_result blocks in the same order as the calls."""
        content = _plain(message).get("content")
        blocks = [_plain(b) for b in content] if isinstance(content, list) else []
        calls = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
        if not calls:
            raise ValueError("run_all: the message has no tool_use blocks to answer")
        return {"role": "user", "content": [self.run(call) for call in calls]}
