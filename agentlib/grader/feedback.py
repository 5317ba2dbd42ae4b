"""What goes back: a report per student and assignment (JSON, Markdown, HTML), a summary.

    REPORTS/alice/02.json   every check's status, detail, hint and points
    REPORTS/alice/02.md     the same, to read (hand it back as it is)
    REPORTS/alice/02.html   the same, as a page
    REPORTS/summary.md|html the teacher's table: points per student and assignment

A reason shared by several checks of an exercise is written once ("same as above").
"""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import asdict
from pathlib import Path

from .gradebook import Graded, number

MARK = {"pass": "PASS", "fail": "FAIL", "todo": "TODO", "missing": "MISSING", "error": "ERROR",
        "timeout": "TIMEOUT", "crashed": "CRASHED", "invalid": "INVALID"}


def folder_name(student: str) -> str:
    """A student's name as a folder name (letters, digits, . _ - only)."""
    return re.sub(r"[^\w.-]", "_", student).strip(".") or "student"


def _exercises(g: Graded) -> list[tuple[str, list[tuple[str, float, dict]]]]:
    grouped: dict[str, list[tuple[str, float, dict]]] = {}
    for exercise, title, points in g.columns:
        grouped.setdefault(exercise, []).append((title, points, g.result(exercise, title)))
    return list(grouped.items())


def _lines(checks: list[tuple[str, float, dict]]) -> list[tuple[str, float, dict, bool]]:
    out, previous = [], None
    for title, points, r in checks:
        reason = (r.get("status"), r.get("detail")) if r.get("status") != "pass" and \
            r.get("detail") else None
        out.append((title, points, r, reason is not None and reason == previous))
        previous = reason
    return out


def markdown(g: Graded) -> str:
    """The student's report, in Markdown."""
    out = [f"# Assignment {g.assignment}: {g.student}", "",
           f"**{number(g.points)} of {number(g.max_points)} points** "
           f"({g.passed} of {len(g.columns)} checks passed). Notebook: `{Path(g.file).name}`.",
           ""]
    if g.notes:
        out += ["While running your notebook: " + "; ".join(g.notes), ""]
    for exercise, checks in _exercises(g):
        got = sum(p for _, p, r in checks if r.get("status") == "pass")
        out += [f"## {exercise}: {number(got)} of {number(sum(p for _, p, _ in checks))} points",
                ""]
        for title, points, r, same in _lines(checks):
            status = str(r.get("status"))
            earned = points if status == "pass" else 0
            out.append(f"- **{MARK.get(status, status.upper())}** {title} "
                       f"({number(earned)}/{number(points)})")
            if status != "pass":
                if same:
                    out.append("  - same as above")
                    continue
                if r.get("detail"):
                    out.append(f"  - {r['detail']}")
                if r.get("hint"):
                    out.append(f"  - Hint: {r['hint']}")
        out.append("")
    return "\n".join(out)


def page(title: str, body: str) -> str:
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>body{{font-family:sans-serif;"
            "max-width:60em;margin:2em auto}}td,th{{padding:.2em .6em;text-align:left;"
            "vertical-align:top}}.pass{{color:#176f2c}}.fail,.error,.timeout,.crashed,"
            ".invalid{{color:#a4161a}}.todo,.missing{{color:#8a5a00}}</style></head><body>\n"
            f"{body}\n</body></html>\n")


def html_report(g: Graded) -> str:
    """The student's report, as a standalone HTML page."""
    e = html.escape
    parts = [f"<h1>Assignment {e(g.assignment)}: {e(g.student)}</h1>",
             f"<p><b>{number(g.points)} of {number(g.max_points)} points</b> ({g.passed} of "
             f"{len(g.columns)} checks passed). Notebook: <code>{e(Path(g.file).name)}</code>.</p>"]
    if g.notes:
        parts.append(f"<p>While running your notebook: {e('; '.join(g.notes))}</p>")
    for exercise, checks in _exercises(g):
        got = sum(p for _, p, r in checks if r.get("status") == "pass")
        parts.append(f"<h2>{e(exercise)}: {number(got)} of "
                     f"{number(sum(p for _, p, _ in checks))} points</h2><table>")
        for title, points, r, same in _lines(checks):
            status = str(r.get("status"))
            if status == "pass":
                detail = ""
            elif same:
                detail = "same as above"
            else:
                detail = e(str(r.get("detail") or ""))
                if r.get("hint"):
                    detail += f"<br><i>Hint: {e(str(r['hint']))}</i>"
            parts.append(f"<tr><td class=\"{e(status)}\">{MARK.get(status, e(status))}</td>"
                         f"<td>{e(title)}</td><td>{number(points if status == 'pass' else 0)}"
                         f"/{number(points)}</td><td>{detail}</td></tr>")
        parts.append("</table>")
    return page(f"Assignment {g.assignment}: {g.student}", "\n".join(parts))


def _atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def write_reports(folder: Path, g: Graded) -> Path:
    """REPORTS/student/NN.{json,md,html}; returns the student's folder."""
    where = folder / folder_name(g.student)
    where.mkdir(parents=True, exist_ok=True)
    data = asdict(g) | {"points": g.points, "max_points": g.max_points, "passed": g.passed}
    _atomic(where / f"{g.assignment}.json", json.dumps(data, indent=1, ensure_ascii=False))
    _atomic(where / f"{g.assignment}.md", markdown(g))
    _atomic(where / f"{g.assignment}.html", html_report(g))
    return where


def summary_rows(graded: list[Graded]) -> tuple[list[str], list[list[str]]]:
    """(assignments, one row per student: name, points per assignment, total, of max)."""
    assignments = sorted({g.assignment for g in graded})
    by_student: dict[str, dict[str, Graded]] = {}
    for g in graded:
        by_student.setdefault(g.student, {})[g.assignment] = g
    rows = []
    for student in sorted(by_student):
        mine = by_student[student]
        cells = [f"{number(mine[a].points)}/{number(mine[a].max_points)}" if a in mine else "—"
                 for a in assignments]
        total = sum(g.points for g in mine.values())
        out_of = sum(g.max_points for g in mine.values())
        rows.append([student, *cells, f"{number(total)}/{number(out_of)}"])
    return assignments, rows


def write_summary(folder: Path, graded: list[Graded]) -> None:
    """REPORTS/summary.md and .html: points per student and assignment, and overall."""
    assignments, rows = summary_rows(graded)
    head = ["student", *(f"assignment {a}" for a in assignments), "total"]
    md = ["# Grades", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(r) + " |" for r in rows]
    folder.mkdir(parents=True, exist_ok=True)
    _atomic(folder / "summary.md", "\n".join(md) + "\n")
    e = html.escape
    table = ["<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"]
    table += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows]
    _atomic(folder / "summary.html", page("Grades", "<h1>Grades</h1>" + "".join(table) +
                                          "</table>"))
