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

from classroom.grader.gradebook import Graded, number
from classroom.grading import localized, translate
from coursekit import i18n

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


def _words(language: str):
    """say() in the report's language, and a check's title and hint in it."""
    def say(text: str, **values: object) -> str:
        return i18n.say(text, language, **values)

    def check(exercise: str, title: str, hint: str) -> tuple[str, str]:
        return localized(exercise, title, hint) if language == "ko" else (title, hint)
    return say, check


def detail_of(r: dict, language: str) -> str:
    """A result's detail; the grader's fixed phrases ("not attempted yet") in `language`."""
    detail = str(r.get("detail") or "")
    return translate(detail) if language == "ko" else detail


def notes_of(g: Graded, language: str) -> str:
    """The notes of a run (a cell that stopped, a notebook that is none), in `language`."""
    return "; ".join(translate(n) if language == "ko" else n for n in g.notes)


def markdown(g: Graded, language: str = "en") -> str:
    """The student's report, in Markdown, in English or Korean (`language`)."""
    say, check = _words(language)
    out = [f"# {say('Assignment {a}: {student}', a=g.assignment, student=g.student)}", "",
           f"**{say('{got} of {total} points', got=number(g.points), total=number(g.max_points))}"
           f"** {say('({passed} of {total} checks passed)', passed=g.passed, total=len(g.columns))}"
           f". {say('Notebook')}: `{Path(g.file).name}`.", ""]
    if g.notes:
        out += [say("While running your notebook: ") + notes_of(g, language), ""]
    for exercise, checks in _exercises(g):
        got = sum(p for _, p, r in checks if r.get("status") == "pass")
        total = number(sum(p for _, p, _ in checks))
        out += [f"## {exercise}: {say('{got} of {total} points', got=number(got), total=total)}",
                ""]
        for title, points, r, same in _lines(checks):
            status = str(r.get("status"))
            earned = points if status == "pass" else 0
            shown, hint = check(exercise, title, str(r.get("hint") or ""))
            out.append(f"- **{say(MARK.get(status, status.upper()))}** {shown} "
                       f"({number(earned)}/{number(points)})")
            if status != "pass":
                if same:
                    out.append(f"  - {say('same as above')}")
                    continue
                if r.get("detail"):
                    out.append(f"  - {detail_of(r, language)}")
                if hint:
                    out.append(f"  - {say('Hint: ')}{hint}")
        out.append("")
    return "\n".join(out)


def page(title: str, body: str, language: str = "en") -> str:
    return (f"<!doctype html>\n<html lang=\"{language}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>body{{font-family:sans-serif;"
            "max-width:60em;margin:2em auto}}td,th{{padding:.2em .6em;text-align:left;"
            "vertical-align:top}}.pass{{color:#176f2c}}.fail,.error,.timeout,.crashed,"
            ".invalid{{color:#a4161a}}.todo,.missing{{color:#8a5a00}}</style></head><body>\n"
            f"{body}\n</body></html>\n")


def html_report(g: Graded, language: str = "en") -> str:
    """The student's report, as a standalone HTML page, in English or Korean."""
    e = html.escape
    say, check = _words(language)
    heading = say("Assignment {a}: {student}", a=g.assignment, student=g.student)
    parts = [f"<h1>{e(heading)}</h1>",
             f"<p><b>{say('{got} of {total} points', got=number(g.points), total=number(g.max_points))}"
             f"</b> {say('({passed} of {total} checks passed)', passed=g.passed, total=len(g.columns))}"
             f". {say('Notebook')}: <code>{e(Path(g.file).name)}</code>.</p>"]
    if g.notes:
        parts.append(f"<p>{e(say('While running your notebook: '))}{e(notes_of(g, language))}</p>")
    for exercise, checks in _exercises(g):
        got = sum(p for _, p, r in checks if r.get("status") == "pass")
        total = number(sum(p for _, p, _ in checks))
        parts.append(f"<h2>{e(exercise)}: {say('{got} of {total} points', got=number(got), total=total)}"
                     "</h2><table>")
        for title, points, r, same in _lines(checks):
            status = str(r.get("status"))
            shown, hint = check(exercise, title, str(r.get("hint") or ""))
            if status == "pass":
                detail = ""
            elif same:
                detail = e(say("same as above"))
            else:
                detail = e(detail_of(r, language))
                if hint:
                    detail += f"<br><i>{e(say('Hint: '))}{e(hint)}</i>"
            parts.append(f"<tr><td class=\"{e(status)}\">{e(say(MARK.get(status, status)))}</td>"
                         f"<td>{e(shown)}</td><td>{number(points if status == 'pass' else 0)}"
                         f"/{number(points)}</td><td>{detail}</td></tr>")
        parts.append("</table>")
    return page(heading, "\n".join(parts), language)


def _atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def write_reports(folder: Path, g: Graded, language: str = "en") -> Path:
    """REPORTS/student/NN.{json,md,html}; returns the student's folder. The JSON keeps the
    checks' English titles (they are the gradebook's keys); the pages are in `language`."""
    where = folder / folder_name(g.student)
    where.mkdir(parents=True, exist_ok=True)
    data = asdict(g) | {"points": g.points, "max_points": g.max_points, "passed": g.passed}
    _atomic(where / f"{g.assignment}.json", json.dumps(data, indent=1, ensure_ascii=False))
    _atomic(where / f"{g.assignment}.md", markdown(g, language))
    _atomic(where / f"{g.assignment}.html", html_report(g, language))
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


def write_summary(folder: Path, graded: list[Graded], language: str = "en") -> None:
    """REPORTS/summary.md and .html: points per student and assignment, and overall."""
    def say(text: str, **values: object) -> str:
        return i18n.say(text, language, **values)
    assignments, rows = summary_rows(graded)
    head = [say("student"), *(say("assignment {a}", a=a) for a in assignments), say("total")]
    md = [f"# {say('Grades')}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(r) + " |" for r in rows]
    folder.mkdir(parents=True, exist_ok=True)
    _atomic(folder / "summary.md", "\n".join(md) + "\n")
    e = html.escape
    table = ["<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"]
    table += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows]
    _atomic(folder / "summary.html", page(say("Grades"), f"<h1>{e(say('Grades'))}</h1>" +
                                          "".join(table) + "</table>", language))
