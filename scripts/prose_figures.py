"""Every figure a lesson's prose quotes is printed or computed by that notebook.

    python3 scripts/prose_figures.py                 # every lesson, both editions
    python3 scripts/prose_figures.py lessons/04_*.ipynb lessons/ko/04_*.ipynb

Reads each number in the notebook's Markdown cells and looks for it among the numbers its
saved outputs show and its code cells hold. A quoted figure may be rounded ("0.69×" for a
printed 0.6874, "87%" for 0.873, "4.51M" for 4,512,345, "55K"); a range ("230 to 390")
is two figures, each checked. Not read as figures: integers up to 10 (counts in prose:
"3 tools", list and heading numbers), numbers inside words and identifiers
(`clear_tool_uses_20250919`, `05b`, `claude-sonnet-4-5`), link targets, and a number after
"lesson"/"레슨" or a model's family ("Sonnet 5.5"). A documented API constant or price
is allowed where the notebook's metadata `agentlib.documented_figures` maps it (as the
prose writes it) to where docs/api-facts.md gives it: a heading ("## 4. Models", that
section) or a row's start ("| 6.2 |", that line); the check reads it there. A Markdown cell
whose metadata `agentlib.measured` names the repo's command that measured its figures (the
start page's run times: "scripts/execute_notebooks.py --time-only") is not read; the command
must exist. Prints what it cannot find, by notebook and cell; exit 1 if anything.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACTS = ROOT / "docs" / "api-facts.md"

SCALE = {"K": 1e3, "k": 1e3, "M": 1e6, "만": 1e4, "억": 1e8}
# a figure in prose: not inside a word or identifier, thousands with commas, decimals,
# then an optional unit that changes its scale or its reading
PROSE_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.\-/#])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?"
    r"(\s?(?:%|×|x(?![A-Za-z])|[KkM](?![A-Za-z])|만|억))?(?![A-Za-z0-9_])")
# any number shown by an output or written in code
SHOWN_NUMBER = re.compile(r"\d[\d,_]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
LESSON_NAME = re.compile(r"(?:lessons?|Lessons?|레슨|appendix|Appendix|부록|Sonnet|Opus|Haiku|Fable|Mythos)"
                         r"\s*$")
LINK_TARGET = re.compile(r"\]\([^)]*\)|https?://\S+|<[^>]+>")


def cell_text(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def shown_text(nb: dict) -> str:
    """Everything the notebook's code holds and its saved outputs show, as one text."""
    parts = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        parts.append(cell_text(cell))
        for out in cell.get("outputs", []):
            if "text" in out:
                parts.append(cell_text({"source": out["text"]}))
            for mime, value in out.get("data", {}).items():
                if mime.startswith("text/") or mime == "application/json":
                    parts.append(value if isinstance(value, str) else
                                 "".join(value) if isinstance(value, list) else json.dumps(value))
            texts = out.get("metadata", {}).get("agentlib.figure_texts")
            if texts:
                parts.append("\n".join(texts))
    return "\n".join(parts)


def shown_values(nb: dict) -> list[float]:
    values = set()
    for m in SHOWN_NUMBER.finditer(shown_text(nb)):
        try:
            values.add(float(m.group().replace(",", "").replace("_", "")))
        except ValueError:
            continue
    return sorted(values)


def prose_figures(markdown: str) -> list[tuple[str, float, int, str]]:
    """(as written, value, decimals, unit) of each figure the Markdown quotes."""
    text = LINK_TARGET.sub(" ", markdown)
    found = []
    for m in PROSE_NUMBER.finditer(text):
        whole, frac, unit = m.group(1), m.group(2), (m.group(3) or "").strip()
        value = float(whole.replace(",", "") + ("." + frac if frac else ""))
        if frac is None and not unit and value <= 10:
            continue
        if LESSON_NAME.search(text[max(0, m.start() - 12):m.start()]):
            continue
        found.append((m.group().strip(), value, len(frac or ""), unit))
    return found


def matches(value: float, decimals: int, unit: str, shown: list[float]) -> bool:
    scale = SCALE.get(unit, 1.0)
    readings = [1 / scale] + ([100 / scale] if unit == "%" else [])
    for o in shown:
        for r in readings:
            if abs(round(o * r, decimals) - value) < 1e-9:
                return True
    return False


def documented(nb: dict) -> dict[str, str]:
    """The notebook's documented figures: as the prose writes them -> where api-facts has them."""
    return nb.get("metadata", {}).get("agentlib", {}).get("documented_figures", {})


def where(facts: str, anchor: str) -> str | None:
    """The api-facts text an anchor names: a heading's section or a row's line."""
    start = facts.find(anchor)
    if start < 0:
        return None
    if anchor.startswith("#"):
        end = facts.find("\n## ", start + 1)
    else:
        end = facts.find("\n", start)
    return facts[start:end if end > 0 else None]


def measured(cell: dict) -> str | None:
    """The command that measured a cell's figures (metadata `agentlib.measured`), if any."""
    return cell.get("metadata", {}).get("agentlib", {}).get("measured")


def missing(path: Path) -> list[tuple[int, str]]:
    """(cell index, figure) for each figure the notebook's prose quotes and does not show."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    shown = shown_values(nb)
    allowed = documented(nb)
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown" or measured(cell):
            continue
        for written, value, decimals, unit in prose_figures(cell_text(cell)):
            if not (matches(value, decimals, unit, shown) or written in allowed):
                out.append((i, written))
    return out


def check_documented(path: Path) -> list[str]:
    """Each documented figure of the notebook is where it says in docs/api-facts.md."""
    facts = FACTS.read_text(encoding="utf-8")
    problems = []
    nb = json.loads(path.read_text(encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        command = measured(cell)
        if command and not (ROOT / command.split()[0]).is_file():
            problems.append(f"cell {i}: measured by {command!r}, which is not in the repo")
    for figure, anchor in documented(nb).items():
        text = where(facts, anchor)
        if text is None:
            problems.append(f"{figure}: docs/api-facts.md has no {anchor!r}")
        elif figure.replace(",", "").rstrip("%×xKkM ") not in text.replace(",", ""):
            problems.append(f"{figure}: not in docs/api-facts.md at {anchor!r}")
    return problems


def lessons() -> list[Path]:
    return sorted((ROOT / "lessons").glob("*.ipynb")) + sorted((ROOT / "lessons" / "ko").glob("*.ipynb"))


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or lessons()
    bad = 0
    for path in paths:
        for problem in check_documented(path):
            print(f"{path}: documented_figures: {problem}")
            bad += 1
        found = missing(path)
        bad += len(found)
        for i, written in found:
            print(f"{path.relative_to(ROOT) if path.is_absolute() else path}: cell {i}: {written}")
    print(f"{bad} figure(s) the prose quotes and the notebook does not show", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
