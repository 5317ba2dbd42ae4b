"""A scratchpad outside the window: a notes file the agent reads and writes with a tool.

What is written here survives truncation, clearing, compaction and restarts, because it
is not in the message history at all. Writes are atomic (a temp file, then a rename), so
a crash mid-write leaves the old notes whole. Lesson 06 builds on this.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from agentlib.tools import Toolbox

NOTES_RULES = (
    "You have a notes file, outside this conversation, that survives when old messages are "
    "dropped. When you start or resume, read your notes first. After each finding, append "
    "it to your notes with the notes tool, in the same form as in your reply.")


class Notes:
    """A notes file in its own folder. State: the folder; the file is the memory."""

    def __init__(self, folder: str | os.PathLike, filename: str = "notes.md"):
        if any(c in filename for c in "/\\\0") or filename in ("", ".", "..") \
                or len(filename) > 255:
            raise ValueError(f"notes filename must be a plain name, got {filename[:80]!r}")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / filename

    def _inside(self) -> Path:
        """The notes file, refusing a symlink that leads out of the folder."""
        real, folder = os.path.realpath(self.path), os.path.realpath(self.folder)
        if os.path.commonpath([real, folder]) != folder:
            raise PermissionError(f"{self.path.name} leads outside the notes folder; refused")
        return self.path

    def read(self) -> str:
        path = self._inside()
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def write(self, text: str) -> None:
        """Replace the notes atomically: a crash leaves either the old or the new file."""
        self._inside()
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".notes-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def notes(self, action: str, text: str = "") -> str:
        """Read or add to your notes file, which survives when old messages are dropped.

        Args:
            action: "read" to see the notes, "append" to add text at the end, "write" to
                replace them.
            text: the text to append or write.
        """
        if action == "read":
            return self.read() or "(no notes yet)"
        if action == "append":
            old = self.read()
            self.write(old + ("" if not old or old.endswith("\n") else "\n") + text + "\n")
            return f"appended {len(text)} characters"
        if action == "write":
            self.write(text if text.endswith("\n") or not text else text + "\n")
            return f"wrote {len(text)} characters"
        raise ValueError(f"unknown action {action!r}: use 'read', 'append' or 'write'")

    def toolbox(self) -> Toolbox:
        return Toolbox([self.notes])
