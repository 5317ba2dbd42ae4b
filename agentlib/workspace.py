"""A sandboxed workspace of files and its three tools: list_files, read_file, search.

Every path goes through `Workspace.resolve`, which refuses anything that leads outside
the root. A read that stops before the end of a file says so in a one-line notice that
names the offset to continue from (`truncation_notice`, `parse_notice`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath, PureWindowsPath

from agentlib.tools import short_repr

# ---------------------------------------------------------------- the notice a paged read ends with

NOTICE_RE = re.compile(
    r"\[truncated: lines (?P<first>\d+)-(?P<last>\d+) of (?P<total>\d+) shown; "
    r"(?P<remaining>\d+) more lines not shown; "
    r'continue with read_file\(path=(?P<path>"(?:[^"\\\n]|\\.)*"), offset=(?P<offset>\d+)\)\]'
)


def truncation_notice(path: str, start: int, end: int, total: int) -> str:
    """The one-line notice that says a read showed lines [start, end) of total (0-based,
    end exclusive) and how to read on. The path is written as a JSON string."""
    return (f"[truncated: lines {start + 1}-{end} of {total} shown; "
            f"{total - end} more lines not shown; "
            f"continue with read_file(path={json.dumps(path, ensure_ascii=False)}, offset={end})]")


def parse_notice(text: str) -> tuple[str, int] | None:
    """(path, next offset) from the last truncation notice in text, or None if it has none."""
    matches = list(NOTICE_RE.finditer(text))
    if not matches:
        return None
    last = matches[-1]
    return json.loads(last.group("path")), int(last.group("offset"))


# ---------------------------------------------------------------- the workspace

MAX_PATH = 4096
MAX_NAME = 255


def split_lines(text: str) -> list[str]:
    """Lines split on "\\n" only, each keeping its end, so "".join(lines) == text."""
    parts = text.split("\n")
    last = parts.pop()
    return [p + "\n" for p in parts] + ([last] if last else [])


class Workspace:
    """A folder the agent may read through tools, and nothing outside it.

    Every path goes through resolve(), which refuses absolute paths, `..`, NUL bytes,
    overlong names and symlinks whose real target leaves the root.
    """

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)
        if not self.root.is_dir():
            raise ValueError(f"workspace root {str(self.root)!r} is not a directory")
        self.real_root = os.path.realpath(self.root)

    @classmethod
    def from_files(cls, root: str | os.PathLike, files: dict[str, str]) -> Workspace:
        """Create root, write each {relative path: text} into it, return the workspace."""
        Path(root).mkdir(parents=True, exist_ok=True)
        workspace = cls(root)
        for rel, text in files.items():
            target = workspace.resolve(rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return workspace

    def resolve(self, path: str) -> Path:
        """The real path of a relative path inside the workspace, or an error saying why not."""
        if not isinstance(path, str):
            raise TypeError(f"path must be a string, got {type(path).__name__}")
        shown = short_repr(path)
        if not path.strip():
            raise ValueError("empty path; give a path relative to the workspace root")
        if "\x00" in path:
            raise ValueError(f"path {shown} contains a NUL byte")
        if len(path) > MAX_PATH:
            raise ValueError(f"path {shown} is longer than {MAX_PATH} characters")
        if PurePosixPath(path).is_absolute() or PureWindowsPath(path).is_absolute() \
                or PureWindowsPath(path).drive:
            raise PermissionError(f"path {shown} is absolute; use a path relative to the "
                                  "workspace root")
        parts = re.split(r"[/\\]", path)
        if ".." in parts:
            raise PermissionError(f"path {shown} contains '..'; paths must stay inside the "
                                  "workspace")
        if any(len(part) > MAX_NAME for part in parts):
            raise ValueError(f"path {shown} has a name longer than {MAX_NAME} characters")
        real = os.path.realpath(os.path.join(self.real_root, path))
        if os.path.commonpath([self.real_root, real]) != self.real_root:
            raise PermissionError(f"path {shown} leads outside the workspace (through a "
                                  "symlink)")
        return Path(real)

    def _files(self) -> list[tuple[str, Path]]:
        """(relative POSIX path, real path) of every regular file inside, sorted by path."""
        found = []
        for folder, dirs, names in os.walk(self.real_root):
            dirs.sort()
            for name in names:
                rel = Path(folder, name).relative_to(self.real_root).as_posix()
                try:
                    real = self.resolve(rel)
                except (PermissionError, ValueError):
                    continue  # a symlink out of the workspace, or a name we refuse
                if real.is_file():
                    found.append((rel, real))
        return sorted(found)

    def _read(self, path: str) -> tuple[Path, str]:
        real = self.resolve(path)
        if real.is_dir():
            raise IsADirectoryError(f"{path!r} is a folder, not a file; see list_files()")
        if not real.is_file():
            raise FileNotFoundError(f"no file {path!r} in the workspace; see list_files()")
        with open(real, encoding="utf-8", errors="replace", newline="") as f:
            return real, f.read()

    def list_files(self) -> str:
        """List every file in the workspace with its number of lines, one per line.

        Paths are relative to the workspace root; pass them to read_file or look for
        text across all files with search.
        """
        rows = []
        for rel, real in self._files():
            with open(real, encoding="utf-8", errors="replace", newline="") as f:
                count = len(split_lines(f.read()))
            rows.append(f"{rel}  ({count} {'line' if count == 1 else 'lines'})")
        return "\n".join(rows) if rows else "(no files)"

    def read_file(self, path: str, offset: int = 0, limit: int | None = None) -> str:
        """Read lines of a text file in the workspace, exactly as they are in the file.

        If lines remain after the ones shown, the result ends with a notice saying which
        lines were shown and the offset to continue from.

        Args:
            path: the file's path relative to the workspace root, as list_files shows it.
            offset: the 0-based line to start from (0 is the first line).
            limit: the most lines to return; omit it to read to the end of the file.
        """
        if offset < 0:
            raise ValueError(f"offset must be 0 or more, got {offset}")
        if limit is not None and limit < 1:
            raise ValueError(f"limit must be 1 or more, got {limit}")
        _, text = self._read(path)
        lines = split_lines(text)
        if not lines and offset == 0:
            return "(empty file)"
        if offset >= len(lines):
            raise ValueError(f"offset {offset} is past the end of {path!r}, which has "
                             f"{len(lines)} lines (offsets 0 to {len(lines) - 1})")
        end = len(lines) if limit is None else min(len(lines), offset + limit)
        shown = "".join(lines[offset:end])
        if end < len(lines):
            shown += truncation_notice(path, offset, end, len(lines))
        return shown

    def search(self, pattern: str, max_results: int = 50) -> str:
        """Find lines containing some text (case-insensitive) across all files.

        Each match is one line "path:line_number: line"; line numbers start at 1.

        Args:
            pattern: the text to look for; plain text, not a regular expression.
            max_results: the most matching lines to show.
        """
        if not pattern:
            raise ValueError("pattern must not be empty")
        if max_results < 1:
            raise ValueError(f"max_results must be 1 or more, got {max_results}")
        needle = pattern.casefold()
        hits = []
        for rel, real in self._files():
            with open(real, encoding="utf-8", errors="replace", newline="") as f:
                for number, line in enumerate(split_lines(f.read()), start=1):
                    if needle in line.casefold():
                        text = line.removesuffix("\n").removesuffix("\r")
                        hits.append(f"{rel}:{number}: {text}")
        if not hits:
            return f"no matches for '{pattern}'"
        shown = hits[:max_results]
        if len(hits) > max_results:
            shown.append(f"[{len(hits) - max_results} more matches not shown; narrow the pattern]")
        return "\n".join(shown)

    def tools(self) -> list[Callable]:
        """The workspace's tools, ready for Toolbox(workspace.tools())."""
        return [self.list_files, self.read_file, self.search]
