"""The Korean edition's notebooks, kept in step with the English ones.

    python scripts/translations.py sync [NOTEBOOK...]   rebuild the Korean notebooks' code
    python scripts/translations.py check                fail if a Korean notebook drifted
    python scripts/translations.py export KO_NOTEBOOK   its markdown as one text to translate
    python scripts/translations.py import TEXT_FILE     write a translated text back

The English notebooks are the source of the code. A Korean notebook (lessons/ko/NAME,
solutions/ko/NAME) is its English twin with Korean prose: `sync` takes every code cell from
the English notebook, in order, and keeps each Korean markdown cell whose cell id the
English notebook has (an English cell with no Korean twin yet is copied in English and
reported). Each Korean cell records a hash of the English cell it translates
(metadata `agentlib.en`), so a later change of the English prose is caught as stale. The
Korean notebooks are then executed (`course.py execute`): their kernels run in `ko/`, so
agentlib prints and plots in Korean. exercises/ko/ is generated from solutions/ko/.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("lessons", "solutions")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
MARK = re.compile(r"^<!-- cell (\S+) en=(\w+) -->$", re.M)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def pairs(names: list[str] | None = None) -> list[tuple[Path, Path]]:
    """(English notebook, its Korean twin) for every notebook of lessons/ and solutions/."""
    found = [(p, p.parent / "ko" / p.name) for folder in FOLDERS
             for p in sorted((ROOT / folder).glob("*.ipynb"))]
    if names:
        wanted = {Path(n).name for n in names}
        found = [(en, ko) for en, ko in found if en.name in wanted]
    return found


def read(path: Path) -> nbformat.NotebookNode:
    with open(path, encoding="utf-8") as f:
        return nbformat.read(f, as_version=4)


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(nbformat.writes(nb).rstrip("\n") + "\n")


def build(en: nbformat.NotebookNode, ko: nbformat.NotebookNode | None) -> tuple:
    """The Korean notebook made from `en` and the Korean prose of `ko`; and the ids of the
    English markdown cells that have no Korean yet."""
    korean = {c.id: c for c in (ko.cells if ko else []) if c.cell_type == "markdown"}
    out, missing = copy.deepcopy(en), []
    for i, cell in enumerate(out.cells):
        if cell.cell_type != "markdown":
            continue
        twin = korean.get(cell.id)
        if twin is None or not HANGUL.search(twin.source):
            missing.append(cell.id)
            cell.metadata.setdefault("agentlib", {})["en"] = "untranslated"
            continue
        meta = dict(twin.metadata.get("agentlib", {}))
        meta.setdefault("en", digest(cell.source))
        out.cells[i] = nbformat.v4.new_markdown_cell(twin.source, id=cell.id,
                                                     metadata={"agentlib": meta})
    out.metadata.setdefault("agentlib", {})["lang"] = "ko"
    if ko is not None:  # outputs belong to the Korean notebook's own run
        outputs = {c.id: c for c in ko.cells if c.cell_type == "code"}
        for cell in out.cells:
            old = outputs.get(cell.id)
            if cell.cell_type == "code" and old is not None and old.source == cell.source:
                cell.outputs, cell.execution_count = old.outputs, old.execution_count
    return out, missing


def drift(en: nbformat.NotebookNode, ko: nbformat.NotebookNode) -> list[str]:
    """What differs between an English notebook and its Korean twin, beyond the prose."""
    problems = []
    shape = [(c.cell_type, c.id) for c in en.cells]
    if shape != [(c.cell_type, c.id) for c in ko.cells]:
        problems.append("its cells (kinds and ids, in order) differ from the English ones")
    for e, k in zip(en.cells, ko.cells, strict=False):
        if e.cell_type == "code" and k.cell_type == "code" and e.source != k.source:
            problems.append(f"code cell {e.id} differs from the English one")
        if e.cell_type == "markdown" and k.cell_type == "markdown":
            said = k.metadata.get("agentlib", {}).get("en")
            if not HANGUL.search(k.source):
                problems.append(f"markdown cell {e.id} is not translated")
            elif said != digest(e.source):
                problems.append(f"markdown cell {e.id}: the English changed since it was "
                                "translated (re-translate it, then delete its agentlib.en)")
    return problems


def sync(names: list[str] | None) -> int:
    for en_path, ko_path in pairs(names):
        if not ko_path.exists() and names is None:
            continue  # not translated yet: `sync NAME` starts one
        nb, missing = build(read(en_path), read(ko_path) if ko_path.exists() else None)
        write(nb, ko_path)
        note = f"; {len(missing)} markdown cells still in English" if missing else ""
        print(f"wrote {ko_path.relative_to(ROOT)}{note}")
    return 0


def check() -> int:
    bad = 0
    for en_path, ko_path in pairs():
        if not ko_path.exists():
            print(f"{ko_path.relative_to(ROOT)}: missing")
            bad += 1
            continue
        for problem in drift(read(en_path), read(ko_path)):
            print(f"{ko_path.relative_to(ROOT)}: {problem}")
            bad += 1
    print("the Korean notebooks are in step" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


def export(path: str) -> int:
    """Every markdown cell, English and current Korean, between markers, for a translator.
    Each marker carries the hash of the English it shows, so an import records what was
    translated, even if the English changed in between."""
    ko_path = Path(path).resolve()
    en = {c.id: c.source for c in read(ko_path.parent.parent / ko_path.name).cells}
    out = [f"<!-- notebook {ko_path.relative_to(ROOT)} -->"]
    for cell in read(ko_path).cells:
        if cell.cell_type == "markdown":
            source = en.get(cell.id, "")
            english = "\n".join("    " + line for line in source.splitlines())
            out += [f"<!-- cell {cell.id} en={digest(source)} -->",
                    f"<!-- English:\n{english}\n-->",
                    cell.source if HANGUL.search(cell.source) else ""]
    print("\n".join(out))
    return 0


def import_text(path: str) -> int:
    """Write the Korean cells of an exported text back into its notebook (by cell id)."""
    text = Path(path).read_text(encoding="utf-8")
    found = re.search(r"^<!-- notebook (\S+) -->$", text, re.M)
    if not found:
        raise SystemExit(f"{path}: no '<!-- notebook PATH -->' line: is it an exported text?")
    target = ROOT / found.group(1)
    nb = read(target)
    parts = MARK.split(text)[1:]  # id, hash, body, id, hash, body, ...
    cells = {c.id: c for c in nb.cells}
    written, problems = 0, []
    for cell_id, english, body in zip(parts[::3], parts[1::3], parts[2::3], strict=True):
        korean = re.sub(r"<!-- English:.*?-->\n?", "", body, flags=re.S).strip("\n")
        if cell_id not in cells or cells[cell_id].cell_type != "markdown":
            problems.append(f"cell {cell_id}: no markdown cell with this id in {target.name}")
        elif not HANGUL.search(korean):
            problems.append(f"cell {cell_id}: no Korean text (left as it was)")
        else:
            cells[cell_id].source = korean
            cells[cell_id].metadata.setdefault("agentlib", {})["en"] = english  # keeps the rest
            written += 1
    write(nb, target)
    print(f"wrote {target.relative_to(ROOT)}: {written} cells")
    for problem in problems:
        print(f"  {problem}")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["sync", "check", "export", "import"])
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args(argv)
    if args.command == "sync":
        return sync(args.paths or None)
    if args.command == "check":
        return check()
    if not args.paths:
        ap.error(f"{args.command} needs a path")
    return export(args.paths[0]) if args.command == "export" else import_text(args.paths[0])


if __name__ == "__main__":
    sys.exit(main())
