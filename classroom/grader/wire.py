"""Plain data across the process boundary: values as JSON, and back.

Lists, dicts, strings, numbers, None, tuples, sets, bytes and paths cross as data. A
number of another type (numpy's int64, a Decimal) arrives as the int or float it equals;
a str or int subclass arrives as a plain str or int, so an object that "equals anything"
equals nothing. What is not data crosses as a reference: a function as a callable that
calls back to where it lives, any other object as an opaque handle (its type name and
repr, for messages). Each side subclasses `Codec` to say how its own functions and
objects go out and how the other side's come in.

A tagged value is a dict with the key "$" naming its kind; a dict of the learner's that
has a "$" key, or a key that is not a str, is sent as {"$": "dict", "items": [...]}.
"""

from __future__ import annotations

import base64
import decimal
import inspect
import numbers
import re
import typing
from pathlib import PurePath
from typing import Any

MAX_DEPTH = 60
MAX_TEXT = 4_000  # characters of a docstring, a repr or an error message kept


class WireError(Exception):
    """A value that cannot cross (too deep, or of a kind this side does not send)."""


def _short(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Codec:
    """Encode and decode values; keeps the objects this side lent out by reference."""

    def __init__(self) -> None:
        self.handles: dict[int, Any] = {}
        self._next = 0

    def keep(self, obj: Any) -> int:
        """A number the other side can use to refer to `obj`."""
        self._next += 1
        self.handles[self._next] = obj
        return self._next

    # ---------------------------------------------------------------- encoding
    def encode(self, value: Any, depth: int = 0) -> Any:
        """`value` as JSON-able data (see the module docstring)."""
        kind = type(value)
        if kind is str or kind is int or kind is float or kind is bool or value is None:
            return value
        if depth > MAX_DEPTH:
            raise WireError(f"a value nested more than {MAX_DEPTH} levels deep")
        if kind is list:
            return [self.encode(v, depth + 1) for v in value]
        if kind is dict:
            out = {}
            for k, v in value.items():
                if type(k) is not str or k == "$":
                    break
                out[k] = self.encode(v, depth + 1)
            else:
                return out
        return self._encode_any(value, depth)

    def _encode_any(self, value: Any, depth: int) -> Any:
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, int):
            return int.__int__(value)
        if isinstance(value, float):
            return float.__float__(value)
        if isinstance(value, numbers.Integral):
            return int(value)
        if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
            return bool(value)
        if isinstance(value, decimal.Decimal | numbers.Real):
            return float(value)
        nested = depth + 1
        if isinstance(value, list):
            return [self.encode(v, nested) for v in list(value)]
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            return {"$": "tuple", "items": [self.encode(v, nested) for v in tuple(value)]}
        if isinstance(value, set | frozenset):
            kind = "frozenset" if isinstance(value, frozenset) else "set"
            return {"$": kind, "items": [self.encode(v, nested) for v in list(value)]}
        if isinstance(value, dict):
            items = list(dict.items(value))
            if all(isinstance(k, str) and k != "$" for k, _ in items):
                return {str.__str__(k): self.encode(v, nested) for k, v in items}
            return {"$": "dict", "items": [[self.encode(k, nested), self.encode(v, nested)]
                                          for k, v in items]}
        if isinstance(value, bytes | bytearray):
            return {"$": "bytes", "b64": base64.b64encode(bytes(value)).decode("ascii")}
        if isinstance(value, PurePath):
            return {"$": "path", "path": str(value)}
        return self.encode_other(value, nested)

    def encode_other(self, value: Any, depth: int) -> Any:
        """A value that is not plain data: each side decides."""
        raise WireError(f"cannot send a {type(value).__name__}")

    # ---------------------------------------------------------------- decoding
    def decode(self, data: Any, depth: int = 0) -> Any:
        """The value `data` stands for (the inverse of `encode` on the other side)."""
        kind = type(data)
        if kind is not list and kind is not dict:
            return data
        if depth > MAX_DEPTH:
            raise WireError(f"data nested more than {MAX_DEPTH} levels deep")
        if kind is list:
            return [self.decode(v, depth + 1) for v in data]
        if "$" not in data:
            return {k: self.decode(v, depth + 1) for k, v in data.items()}
        kind = data["$"]
        items = data.get("items", [])
        if kind == "tuple":
            return tuple(self.decode(v, depth + 1) for v in items)
        if kind in ("set", "frozenset"):
            decoded = [self.decode(v, depth + 1) for v in items]
            try:
                return set(decoded) if kind == "set" else frozenset(decoded)
            except TypeError:
                raise WireError("a set of unhashable values") from None
        if kind == "dict":
            try:
                return {self.decode(k, depth + 1): self.decode(v, depth + 1) for k, v in items}
            except TypeError:
                raise WireError("a dict with an unhashable key") from None
        if kind == "bytes":
            return base64.b64decode(str(data.get("b64", "")))
        if kind == "path":
            from pathlib import Path

            return Path(str(data.get("path", "")))
        return self.decode_tag(str(kind), data, depth + 1)

    def decode_tag(self, kind: str, data: dict, depth: int) -> Any:
        raise WireError(f"unknown kind of value {kind!r}")


# ---------------------------------------------------------------- functions' signatures

_ANNOTATION_NAMES = {
    "str": str, "int": int, "float": float, "bool": bool, "list": list, "dict": dict,
    "tuple": tuple, "set": set, "bytes": bytes, "None": None, "NoneType": type(None),
    "Any": typing.Any, "Optional": typing.Optional, "Union": typing.Union,
    "List": typing.List, "Dict": typing.Dict, "Tuple": typing.Tuple,  # noqa: UP006
    "typing": typing,
}
_ANNOTATION_TEXT = re.compile(r"[\w.\[\], |]*")


def annotation_text(annotation: Any) -> str | None:
    """An annotation as text: a builtin type by its name, anything else as it prints."""
    if annotation is inspect.Parameter.empty:
        return None
    if isinstance(annotation, str):
        return _short(annotation, 200)
    if isinstance(annotation, type) and annotation.__module__ == "builtins":
        return annotation.__name__
    return _short(repr(annotation).replace("NoneType", "None"), 200)


def annotation_value(text: str | None) -> Any:
    """The annotation `text` names when it uses only builtin types and typing's basics,
    else the text itself (never evaluated)."""
    if text is None:
        return inspect.Parameter.empty
    words = re.findall(r"[A-Za-z_][\w.]*", text)
    if not _ANNOTATION_TEXT.fullmatch(text) or not all(
            w in _ANNOTATION_NAMES or (w.startswith("typing.") and
                                       w.removeprefix("typing.") in _ANNOTATION_NAMES)
            for w in words):
        return text
    try:
        return eval(text, {"__builtins__": {}}, dict(_ANNOTATION_NAMES))  # noqa: S307 (checked above)
    except Exception:
        return text


def describe_callable(fn: Any, codec: Codec) -> dict:
    """What the other side needs to present `fn`: name, docstring and signature."""
    def text(value: Any, limit: int = MAX_TEXT) -> str | None:
        return None if value is None else _short(str(value), limit)

    meta: dict[str, Any] = {
        "name": text(getattr(fn, "__name__", None) or type(fn).__name__, 200),
        "qualname": text(getattr(fn, "__qualname__", None), 200),
        "module": text(getattr(fn, "__module__", None), 200),
        "doc": text(getattr(fn, "__doc__", None)),
        "params": None,
    }
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return meta
    params = []
    for p in signature.parameters.values():
        entry: dict[str, Any] = {"name": p.name, "kind": int(p.kind)}
        if p.default is not inspect.Parameter.empty:
            try:
                entry["default"] = codec.encode(p.default)
            except WireError:
                entry["default"] = repr(p.default)[:200]
        if p.annotation is not inspect.Parameter.empty:
            entry["annotation"] = annotation_text(p.annotation)
        params.append(entry)
    meta["params"] = params
    meta["returns"] = annotation_text(signature.return_annotation)
    return meta


def signature_of(meta: dict, codec: Codec) -> tuple[inspect.Signature | None, dict]:
    """(signature, annotations) rebuilt from `describe_callable`'s data, or (None, {})."""
    if not isinstance(meta.get("params"), list):
        return None, {}
    try:
        params, annotations = [], {}
        for entry in meta["params"]:
            annotation = annotation_value(entry.get("annotation"))
            default = (codec.decode(entry["default"]) if "default" in entry
                       else inspect.Parameter.empty)
            params.append(inspect.Parameter(str(entry["name"]),
                                            inspect._ParameterKind(int(entry["kind"])),
                                            default=default, annotation=annotation))
            if annotation is not inspect.Parameter.empty:
                annotations[str(entry["name"])] = annotation
        returns = annotation_value(meta.get("returns"))
        if returns is not inspect.Parameter.empty:
            annotations["return"] = returns
        return inspect.Signature(params, return_annotation=returns), annotations
    except (TypeError, ValueError, KeyError, WireError):
        return None, {}


# ---------------------------------------------------------------- errors

PASSED_THROUGH = {  # exception types a check may catch by name: they cross as themselves
    cls.__name__: cls for cls in (
        ValueError, TypeError, KeyError, IndexError, AttributeError, LookupError,
        PermissionError, FileNotFoundError, FileExistsError, IsADirectoryError,
        NotADirectoryError, OSError, RuntimeError, ZeroDivisionError, ArithmeticError,
        OverflowError, RecursionError, NameError, UnicodeError, UnicodeDecodeError,
        UnicodeEncodeError, NotImplementedError, MemoryError, TimeoutError, Exception)
}


def encode_error(exc: BaseException) -> dict:
    """An exception as data: its type's name, the builtin it derives from, its message."""
    base = next((c.__name__ for c in type(exc).__mro__
                 if c.__module__ == "builtins" and c.__name__ in PASSED_THROUGH), None)
    try:
        message = str(exc)
    except Exception:
        message = "(its message could not be read)"
    return {"type": _short(type(exc).__name__, 100), "base": base,
            "message": _short(message, 1000)}


def decode_error(info: dict) -> Exception:
    """An exception standing for the learner's: a ValueError stays a ValueError (a check
    may expect it); AssertionError, SystemExit and the like become plain Exceptions with
    the same name, so that a learner's assert is an error, not a failed check."""
    name = str(info.get("type") or "Exception")[:100]
    base = PASSED_THROUGH.get(str(info.get("base")), Exception)
    message = str(info.get("message", ""))
    if base is UnicodeDecodeError or base is UnicodeEncodeError:
        base = UnicodeError
    safe = re.sub(r"\W", "_", name) or "Exception"
    cls = type(safe, (base,), {"__module__": "learner", "__str__": lambda self: message})
    return cls(message)


class Opaque:
    """An object of the learner's that is not data: equal only to itself."""

    def __init__(self, handle: int, type_name: str, text: str) -> None:
        self._handle, self._type_name, self._text = handle, type_name, text

    def __repr__(self) -> str:
        return self._text


def opaque(handle: int, type_name: str, text: str) -> Opaque:
    """An Opaque whose type bears the learner's type name (messages say 'got ndarray')."""
    safe = re.sub(r"\W", "_", type_name)[:80] or "object"
    cls = type(safe, (Opaque,), {"__module__": "learner"})
    return cls(handle, type_name, text)
