"""The capstone's leaderboard: the class ranked by score, as an HTML page and a CSV.

    python -m classroom.grade capstone/ --leaderboard board.html [--lang ko]

The class grader grades each capstone notebook (exercise 10, classroom/checks/lesson10.py)
on tasks drawn from a secret kept beside the board (`board.secret`, made on the first run,
so that every student of the board, graded now or on a rerun, meets the same tasks), and
this module ranks what its checks measured: each student's score, runs solved per task
family, dollars and peak window, beside the course's references on the same tasks
(append-only and the course's own pipeline). The page is one file: a table sortable by any
column (a few lines of inline script, nothing fetched) and the frontier as inline SVG. No
student code and no text a notebook wrote reaches it: only names (escaped), numbers and the
grader's own words.
"""

from __future__ import annotations

import csv
import html
import io
import os
from contextlib import contextmanager
from pathlib import Path

from classroom.checks import lesson10
from classroom.grading import OWN_FAIL
from coursekit.i18n import say

ASSIGNMENT = "10"
EXERCISE = "ex10.my_agent"
COLUMNS = ("rank", "student", "score", "solved", "runs", *lesson10.FAMILIES, "dollars", "peak",
           "input_tokens", "note")
OWN_WORK_PREFIX = OWN_FAIL.split("{")[0]  # "uses the course's own "


def board_secret(board: Path) -> int:
    """The secret the board's tasks are drawn from: read from `board.secret`, or drawn now
    and kept there (readable by its owner only) for the reruns of this board."""
    path = board.with_suffix(".secret")
    try:
        return int(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        value = int.from_bytes(os.urandom(8), "big")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"{value}\n")
        return value


def _data(g) -> dict | None:
    """What the capstone's first check measured for one graded notebook, if it counts."""
    for r in g.results:
        if r.get("exercise") == EXERCISE and isinstance(r.get("data"), dict):
            return r["data"]
    return None


WITHHELD = "raised Withheld: "  # a run that reached for what grading withholds


def _note(g, data: dict | None) -> str:
    """Why a notebook scores nothing, in the grader's own words (never the notebook's)."""
    runs = (data or {}).get("runs") or []
    if any(WITHHELD in str(r.get("error") or "") for r in runs) or any(
            str(r.get("detail", "")).startswith(OWN_WORK_PREFIX) for r in g.results):
        return "no points: the setup used the course's own pipelines"
    if data:
        return ""
    statuses = {r.get("status") for r in g.results}
    for status in ("invalid", "crashed", "timeout", "todo", "missing", "error"):
        if status in statuses:
            return status
    return "not graded" if not g.results else ""


def entry(student: str, runs: list[dict] | None, note: str = "") -> dict:
    """One row of the board from a setup's runs (dicts of lesson10.Trial's fields)."""
    runs = runs or []
    solved = [r for r in runs if r.get("success")]
    row = {"student": student, "score": round(sum(float(r.get("points", 0)) for r in runs), 1),
           "solved": len(solved), "runs": len(lesson10.FAMILIES) * len(lesson10.MODELS),
           "dollars": round(sum(float(r.get("cost", 0)) for r in runs), 4),
           "peak": max((int(r.get("peak", 0)) for r in runs), default=0),
           "input_tokens": sum(int(r.get("input_tokens", 0)) for r in runs), "note": note}
    for family in lesson10.FAMILIES:
        row[family] = sum(1 for r in solved if r.get("family") == family)
    return row


def entries(graded) -> list[dict]:
    """The board's rows for the capstone's graded notebooks, ranked: score first, then
    dollars, then peak (the exercise's order), then name."""
    rows = []
    for g in graded:
        if g.assignment != ASSIGNMENT:
            continue
        data = _data(g)
        rows.append(entry(g.student, data.get("runs") if data else None, _note(g, data)))
    rows.sort(key=lambda r: (-r["score"], r["dollars"] if r["score"] else 0,
                             r["peak"] if r["score"] else 0, r["student"]))
    for i, row in enumerate(rows, 1):
        row["rank"] = i
    return rows


def references(secret: int) -> list[dict]:
    """The course's references on the board's tasks, as rows (no rank)."""
    from dataclasses import asdict

    refs = lesson10.references(secret)
    return [{**entry(label, [{**asdict(t), "points": t.points} for t in trials]), "rank": "",
             "note": "reference"} for label, trials in refs.items()]


@contextmanager
def _language(language: str):
    before = os.environ.get("AGENTLIB_LANG")
    os.environ["AGENTLIB_LANG"] = language
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("AGENTLIB_LANG", None)
        else:
            os.environ["AGENTLIB_LANG"] = before


def frontier_svg(rows: list[dict], refs: list[dict], language: str) -> str:
    """The frontier with every student's point and the references, as inline SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coursekit.viz.frontier import plot_capstone

    runs = len(lesson10.FAMILIES) * len(lesson10.MODELS)
    points = [{"label": r["student"], "kind": "student", "solved": r["solved"],
               "dollars": r["dollars"]} for r in rows]
    points += [{"label": r["student"], "kind": "reference", "solved": r["solved"],
                "dollars": r["dollars"]} for r in refs]
    with _language(language):
        fig = plot_capstone(points, runs=runs, cap=lesson10.CAP * runs,
                            title=say("the class on the frontier", language=language))
        out = io.StringIO()
        plt.rcParams["svg.fonttype"] = "path"  # text as shapes: no font needed to show it
        fig.savefig(out, format="svg", bbox_inches="tight")
        plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg"):]


SCRIPT = """
document.querySelectorAll('table.board th').forEach(function (th, column) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var up = th.getAttribute('aria-sort') !== 'ascending';
    th.closest('tr').querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table.board { border-collapse: collapse; margin: 1em 0; }
table.board th, table.board td { padding: 0.3em 0.7em; border-bottom: 1px solid #ddd; }
table.board th { white-space: nowrap; cursor: pointer; background: #f4f4f4; user-select: none; }
table.board th[aria-sort=ascending]::after { content: " \\25B2"; }
table.board th[aria-sort=descending]::after { content: " \\25BC"; }
table.board td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.board tr.ref td { color: #555; font-style: italic; background: #fafafa; }
.plot svg { max-width: 100%; height: auto; }
"""

HEADS = {"rank": "rank", "student": "student", "score": "score (points)", "solved": "runs solved",
         "dollars": "dollars", "peak": "peak window", "note": "note"}


def _cell(key: str, row: dict, language: str) -> str:
    value = row.get(key, "")
    if key == "dollars":
        shown, sort = f"${value:.4f}", f"{value}"
    elif key == "solved":
        shown, sort = f"{value}/{row['runs']}", f"{value}"
    elif key == "score":
        shown, sort = f"{value:.1f}", f"{value}"
    elif key in ("peak", "input_tokens") or key in lesson10.FAMILIES:
        shown, sort = f"{value:,}", f"{value}"
    elif key == "rank":
        shown, sort = f"{value}", f"{value if value != '' else 9999}"
    elif key == "note" or (key == "student" and row.get("note") == "reference"):
        shown = say(value, language=language) if value else ""  # the grader's words
        sort = shown
    else:
        shown = sort = str(value)
    css = ' class="num"' if key not in ("student", "note") else ""
    return f'<td{css} data-value="{html.escape(sort)}">{html.escape(str(shown))}</td>'


def page(rows: list[dict], refs: list[dict], language: str = "en") -> str:
    """The board as one HTML page (sortable table, inline SVG, nothing fetched)."""
    def t(text: str, **values) -> str:
        return html.escape(say(text, language=language, **values))

    keys = [k for k in COLUMNS if k not in ("runs", "input_tokens")]
    heads = "".join(f"<th scope=\"col\">{t(HEADS.get(k, k))}</th>" for k in keys)
    body = []
    for row in [*rows, *refs]:
        css = ' class="ref"' if row in refs else ""
        body.append(f"<tr{css}>" + "".join(_cell(k, row, language) for k in keys) + "</tr>")
    runs = len(lesson10.FAMILIES) * len(lesson10.MODELS)
    return f"""<!DOCTYPE html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<title>{t("Capstone leaderboard")}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{t("Capstone leaderboard")}</h1>
<p>{t("{n} students, {k} tasks on {m} models drawn at grading time, a window of {w:,} tokens, "
      "a cap of ${c:.2f} a run", n=len(rows), k=len(lesson10.FAMILIES), m=len(lesson10.MODELS),
      w=lesson10.WINDOW, c=lesson10.CAP)}</p>
<p>{html.escape(lesson10.formula() if language == "en" else _formula_in(language))}</p>
<p>{t("each family: runs solved on both models")} ({runs // len(lesson10.FAMILIES)}).
{t("Click a column's heading to sort by it; click again to reverse.")}</p>
<table class="board">
<thead><tr>{heads}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
<div class="plot">{frontier_svg(rows, refs, language)}</div>
<script>{SCRIPT}</script>
</body>
</html>
"""


def _formula_in(language: str) -> str:
    with _language(language):
        return lesson10.formula()


def write(board: Path, graded, secret: int, language: str = "en") -> tuple[Path, Path]:
    """Write the board's HTML page and its CSV (`board` with .csv) from `graded`; returns
    both paths."""
    rows, refs = entries(graded), references(secret)
    board.parent.mkdir(parents=True, exist_ok=True)
    board.write_text(page(rows, refs, language), encoding="utf-8")
    table = board.with_suffix(".csv")
    with open(table, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(COLUMNS), extrasaction="ignore")
        writer.writeheader()
        writer.writerows([*rows, *refs])
    return board, table


def text(rows: list[dict], refs: list[dict], language: str = "en") -> str:
    """The board as plain text (for the terminal), in `language`."""
    with _language(language):
        return _text(rows, refs)


def _text(rows: list[dict], refs: list[dict]) -> str:
    from coursekit.table import table

    keys = ("rank", "student", "score", "solved", *lesson10.FAMILIES, "dollars", "peak", "note")
    lines = [[r["rank"], r["student"], f"{r['score']:.1f}", f"{r['solved']}/{r['runs']}",
              *(r[f] for f in lesson10.FAMILIES), f"${r['dollars']:.4f}", r["peak"], r["note"]]
             for r in [*rows, *refs]]
    return table(lines, list(keys), left=2)
