"""The grades of a run: one row per student and assignment, written as each is graded.

A row is appended (and flushed to disk) the moment its notebook is graded, so a grader
stopped from outside keeps every finished row; a rerun reads them back and skips the
notebooks already graded in the same version (same SHA-256). At the end of a run the
whole file is written once more from memory, atomically.

Columns: student, assignment, file, sha256, one per check ("ex2.find_split: title",
its status), one per exercise ("ex2.find_split points", its subtotal), points,
max_points, passed, total, note.
"""

from __future__ import annotations

import csv
import io
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Graded:
    """One student's graded notebook for one assignment."""

    student: str
    assignment: str
    file: str
    sha256: str
    columns: list[tuple[str, str, float]]
    results: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    isolation: str = ""
    seconds: float = 0.0

    def status(self, exercise: str, title: str) -> str:
        for r in self.results:
            if r.get("exercise") == exercise and r.get("check") == title:
                return str(r.get("status"))
        return "missing"

    def result(self, exercise: str, title: str) -> dict:
        for r in self.results:
            if r.get("exercise") == exercise and r.get("check") == title:
                return r
        return {"exercise": exercise, "check": title, "status": "missing", "detail": "",
                "hint": ""}

    def subtotal(self, exercise: str) -> float:
        """Points earned in one exercise."""
        return sum(p for ex, t, p in self.columns
                   if ex == exercise and self.status(ex, t) == "pass")

    @property
    def passed(self) -> int:
        return sum(self.status(ex, t) == "pass" for ex, t, _ in self.columns)

    @property
    def points(self) -> float:
        return sum(p for ex, t, p in self.columns if self.status(ex, t) == "pass")

    @property
    def max_points(self) -> float:
        return sum(p for _, _, p in self.columns)

    @property
    def note(self) -> str:
        return "; ".join(self.notes)[:500]


def number(value: float) -> str:
    """2.0 -> '2', 2.5 -> '2.5' (points read as a teacher writes them)."""
    return f"{value:g}"


def exercises(all_columns: list[tuple[str, str, float]]) -> list[str]:
    return list(dict.fromkeys(ex for ex, _, _ in all_columns))


def header(all_columns: list[tuple[str, str, float]]) -> list[str]:
    return ["student", "assignment", "file", "sha256",
            *(f"{ex}: {t}" for ex, t, _ in all_columns),
            *(f"{ex} points" for ex in exercises(all_columns)),
            "points", "max_points", "passed", "total", "note"]


def row(g: Graded, all_columns: list[tuple[str, str, float]]) -> list[str]:
    mine = {(ex, t) for ex, t, _ in g.columns}
    own = {ex for ex, _, _ in g.columns}
    return [g.student, g.assignment, g.file, g.sha256,
            *(g.status(ex, t) if (ex, t) in mine else "" for ex, t, _ in all_columns),
            *(number(g.subtotal(ex)) if ex in own else "" for ex in exercises(all_columns)),
            number(g.points), number(g.max_points), str(g.passed), str(len(g.columns)),
            g.note]


class Gradebook:
    """The CSV file of a run; state: its path, its columns and a lock for the appends."""

    def __init__(self, path: Path, all_columns: list[tuple[str, str, float]]) -> None:
        self.path, self.columns = path, all_columns
        self.header = header(all_columns)
        self._lock = threading.Lock()

    def previous(self) -> dict[tuple[str, str], dict]:
        """Rows a stopped run left, by (student, assignment); a torn last line is cut."""
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            data = data[: data.rfind(b"\n") + 1]
            with open(self.path, "wb") as f:
                f.write(data)
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
        if not rows:
            return {}
        if rows[0] != self.header:
            raise SystemExit(f"grade: {self.path} holds other columns (another assignment or "
                             "course version): choose another file, or pass --fresh")
        return {(r[0], r[1]): dict(zip(self.header, r, strict=False))
                for r in rows[1:] if len(r) == len(self.header)}

    def start(self, fresh: bool) -> None:
        """Write the header unless the file goes on from a previous run."""
        if fresh or not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "w", encoding="utf-8", newline="") as f:
                csv.writer(f).writerow(self.header)

    def append(self, g: Graded) -> None:
        """Add one row and make sure it is on disk before returning."""
        with self._lock, open(self.path, "a", encoding="utf-8", newline="") as f:
            csv.writer(f).writerow(row(g, self.columns))
            f.flush()
            os.fsync(f.fileno())

    def rewrite(self, rows: list[list[str]]) -> None:
        """The whole file from memory, atomically (what an intruder wrote is gone)."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(self.header)
            writer.writerows(rows)
        os.replace(tmp, self.path)
