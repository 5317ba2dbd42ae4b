"""Checks for lesson 6's exercises: ex6.atomic_write, ex6.safe_path, ex6.resume_notes.

- ex6.atomic_write: the check simulates a crash in the middle of the write (every file
  opened for writing, and `os.write`, take half the text and then raise) and at the
  rename; the old notes must stay whole and no temp file may be left. A direct
  `open(path, "w")` fails the crash check and the "rename into place" check.
- ex6.safe_path: real folders and real symlinks in a temporary directory. A path check by
  string prefix fails on the sibling folder `notes-evil`; a check that never resolves
  symlinks fails both symlink checks.
- ex6.resume_notes: notes texts in the course model's own format, and the notes of real
  interrupted runs of the lesson's audit.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from classroom.grading import drawn, in_learner_process, own_work, register, seed
from classroom.harness import (  # noqa: F401 (the crash harness, also for the tests)
    SimulatedCrash,
    crash_mid_write,
    record_renames,
    write_crashing,
    write_renaming,
)

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex6.atomic_write", "agentlib.context.notes:Notes")
own_work("ex6.safe_path", "agentlib.context.notes:Notes", "agentlib.workspace:Workspace.resolve")

# ---------------------------------------------------------------- ex6.atomic_write

OLD = ("Plan: check 3 files in order, in services/ with .conf: auth, cart, media\n"
       "Noted [1/3] services/auth.conf: auth timeout_s = 20 (not above 30)\n")
NEW = OLD + ("Noted [2/3] services/cart.conf: cart timeout_s = 45 (above 30)\n"
             "Noted [3/3] services/media.conf: media timeout_s = 40 (above 30)\n")
ATOMIC_HINT = ("write the text to a temp file in the same folder "
               "(tempfile.mkstemp(dir=path.parent)), then os.replace(tmp, path); on any "
               "exception remove the temp file and re-raise")


@contextmanager
def _folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="agentlib-ex6-") as d:
        yield Path(d)


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


@register("ex6.atomic_write", "writes the text as UTF-8, creating or replacing the file",
          hint="open the temp file with encoding='utf-8'; os.replace overwrites the old file",
          needs=("atomic_write",))
def _atomic_writes(ns: dict) -> None:
    with _folder() as folder:
        path = folder / "notes.md"
        ns["atomic_write"](path, OLD)
        assert path.is_file(), "atomic_write(path, text) did not create the file"
        got = _read(path)
        assert got == OLD, f"after atomic_write the file holds {got!r}, expected {OLD!r}"
        text = NEW + "메모: 한국어도 저장된다 ✅\n"
        ns["atomic_write"](str(path), text)  # a str path works too
        got = path.read_bytes()
        assert got == text.encode("utf-8"), (
            "atomic_write over an existing file should leave exactly the new text, as "
            f"UTF-8; the file holds {got[:80]!r}...")


@register("ex6.atomic_write", "a crash in the middle of the write leaves the old notes whole",
          hint=ATOMIC_HINT, needs=("atomic_write",))
def _atomic_crash(ns: dict) -> None:
    with _folder() as folder:
        path = folder / "notes.md"
        _write(path, OLD)
        raised, fired = in_learner_process(write_crashing, ns["atomic_write"], path, NEW,
                                           len(NEW) // 2)
        assert fired, ("the simulated crash never fired: write the file with "
                       "open(), os.fdopen(), Path.write_text() or os.write()")
        got = _read(path)
        assert got == OLD, (
            f"after a crash half-way through the write, notes.md holds {len(got)} "
            f"characters ({got[:24]!r}...), not the old notes: writing in place "
            "(open(path, 'w')) empties the file first; write a temp file, then rename it "
            "over the notes")
        assert raised, ("atomic_write swallowed the crash; let the exception "
                        "propagate so the caller knows the write failed")


@register("ex6.atomic_write", "leaves no temp file behind after a crash",
          hint="wrap the write and the rename in try/except BaseException: remove the temp "
               "file, then raise", needs=("atomic_write",))
def _atomic_cleanup(ns: dict) -> None:
    for where in ("mid-write", "at the rename"):
        with _folder() as folder:
            path = folder / "notes.md"
            _write(path, OLD)
            if where == "mid-write":
                in_learner_process(write_crashing, ns["atomic_write"], path, NEW,
                                   len(NEW) // 2)
            else:
                in_learner_process(write_renaming, ns["atomic_write"], path, NEW, True)
            left = _listing(folder)
            assert left == ["notes.md"], (
                f"after a crash {where} the folder holds {left}; only notes.md should be "
                "there (remove the temp file when anything fails)")
            assert _read(path) == OLD, f"after a crash {where} the old notes changed"


@register("ex6.atomic_write", "puts the new file in place with a rename from the same folder",
          hint="os.replace(tmp, path) with tmp in path's folder: a rename is atomic only "
               "within one filesystem", needs=("atomic_write",))
def _atomic_rename(ns: dict) -> None:
    with _folder() as folder:
        path = folder / "notes.md"
        _write(path, OLD)
        before = os.stat(path).st_ino
        renames, _ = in_learner_process(write_renaming, ns["atomic_write"], path, NEW, False)
        target = os.path.realpath(path)
        into = [(src, dst) for src, dst in renames if os.path.realpath(dst) == target]
        in_place = ("notes.md was written in place: no os.replace(tmp, path) (or os.rename) "
                    "put a finished file there, so a crash can leave it half written")
        assert into, in_place
        assert os.stat(path).st_ino != before, in_place  # seen on disk, by the check itself
        src = into[-1][0]
        assert os.path.dirname(os.path.realpath(src)) == os.path.dirname(target), (
            "the temp file was made outside the notes folder; os.replace can only rename "
            "atomically within one filesystem: make it with tempfile.mkstemp(dir=folder)")
        assert _read(path) == NEW and _listing(folder) == ["notes.md"], \
            "after a successful write only notes.md, holding the new text, should be there"


# ---------------------------------------------------------------- ex6.safe_path

GOOD_NAMES = ["notes.md", "plan/today.md", "v1..v2.md", "노트 ✅.md"]
WORDS = ["budget", "plan", "draft", "회의", "v2..v3", "notes_ok", "todo", "a b", "x.y"]


def _good_names() -> list[str]:
    """GOOD_NAMES, and names drawn at grading time."""
    return GOOD_NAMES + [r.choice(["", "plan/"]) + r.choice(WORDS) + str(r.randrange(99))
                         + r.choice([".md", ".txt", ""]) for r in drawn(61, 3)]
REFUSE_TYPES = (ValueError, PermissionError)
SAFE_HINT = ("refuse NUL, empty, absolute and '..' names; then compare realpath(folder / "
             "name) with realpath(folder) by path components (os.path.commonpath), not by "
             "string prefix")


@contextmanager
def _tree() -> Iterator[tuple[Path, Path]]:
    """root/notes (the folder), a sibling root/notes-evil, root/outside, and symlinks."""
    with tempfile.TemporaryDirectory(prefix="agentlib-ex6-") as d:
        root = Path(d)
        folder = root / "notes"
        (folder / "plan").mkdir(parents=True)
        (folder / "notes.md").write_text("my notes\n", encoding="utf-8")
        (root / "notes-evil").mkdir()
        (root / "notes-evil" / "x.md").write_text("not yours\n", encoding="utf-8")
        (root / "outside").mkdir()
        (root / "outside" / "secret.txt").write_text("secret\n", encoding="utf-8")
        os.symlink(root / "outside", folder / "out")  # a folder link that leads out
        os.symlink(root / "outside" / "secret.txt", folder / "link.md")  # a file link
        os.symlink(root / "notes-evil", folder / "evil")  # out, to a name sharing the prefix
        os.symlink(folder, root / "alias")  # the folder itself, reached through a link
        yield root, folder


def _refuses(ns: dict, folder: Path, name: str, why: str) -> None:
    try:
        got = ns["safe_path"](folder, name)
    except REFUSE_TYPES:
        return
    except NotImplementedError:
        raise
    except Exception as e:  # noqa: BLE001 (reported to the learner)
        raise AssertionError(f"safe_path(folder, {name!r}) should refuse with ValueError or "
                             f"PermissionError, not {type(e).__name__}: {e}") from None
    raise AssertionError(f"safe_path(folder, {name!r}) returned {os.fspath(got)!r}; {why}, "
                         "so it must raise ValueError or PermissionError")


def _accepts(ns: dict, folder: Path, name: str, real_folder: Path) -> None:
    try:
        got = ns["safe_path"](folder, name)
    except REFUSE_TYPES as e:
        raise AssertionError(f"safe_path(folder, {name!r}) refused a good name: {e}") from None
    assert isinstance(got, str | os.PathLike), \
        f"safe_path should return the path (a Path or str), got {type(got).__name__}"
    want = os.path.realpath(real_folder / name)
    assert os.path.realpath(os.fspath(got)) == want, (
        f"safe_path(folder, {name!r}) returned {os.fspath(got)!r}, which is not the file "
        f"{name!r} inside the folder")


@register("ex6.safe_path", "accepts plain names and sub-folders inside the folder",
          hint="split the name into parts and refuse only a part that is exactly '..' "
               "('v1..v2.md' is a fine name)", needs=("safe_path",))
def _safe_good(ns: dict) -> None:
    with _tree() as (_, folder):
        for name in _good_names():
            _accepts(ns, folder, name, folder)


@register("ex6.safe_path", "works when the folder itself is reached through a symlink",
          hint="resolve the folder too: compare realpath(candidate) with realpath(folder) "
               "(on macOS /tmp is itself a symlink)", needs=("safe_path",))
def _safe_alias(ns: dict) -> None:
    with _tree() as (root, folder):
        for name in _good_names():
            _accepts(ns, root / "alias", name, folder)


@register("ex6.safe_path", "refuses absolute paths, '..', NUL bytes and empty names",
          hint=SAFE_HINT, needs=("safe_path",))
def _safe_refuses(ns: dict) -> None:
    with _tree() as (_, folder):
        cases = [("/etc/passwd", "it is absolute"),
                 (str(folder / "notes.md"), "it is absolute (names are relative, always)"),
                 ("../outside/secret.txt", "it climbs out with '..'"),
                 ("plan/../../outside/secret.txt", "it climbs out with '..'"),
                 ("plan/../notes.md", "it has a '..' part (refuse every '..')"),
                 ("notes\x00.md", "it holds a NUL byte"),
                 ("", "it is empty")]
        for r in drawn(62, 2):
            word = r.choice(WORDS)
            cases += [(f"/{word}/{r.randrange(99)}.md", "it is absolute"),
                      ("plan/" * r.randrange(0, 3) + "../" * r.randrange(1, 4) + word,
                       "it climbs out with '..'"),
                      (word[:r.randrange(0, len(word))] + "\x00" + word, "it holds a NUL byte")]
        for name, why in cases:
            _refuses(ns, folder, name, why)


@register("ex6.safe_path", "refuses a symlink inside the folder that leads out",
          hint="resolve symlinks with os.path.realpath (or Path.resolve()) before comparing",
          needs=("safe_path",))
def _safe_symlinks(ns: dict) -> None:
    with _tree() as (_, folder):
        _refuses(ns, folder, "out/secret.txt", "'out' is a symlink to a folder outside")
        _refuses(ns, folder, "link.md", "'link.md' is a symlink to a file outside")
        _refuses(ns, folder, "out/new.md", "'out' is a symlink to a folder outside")
        for r in drawn(63):
            name = f"out/{r.choice(WORDS)}{r.randrange(99)}.md"
            _refuses(ns, folder, name, "'out' is a symlink to a folder outside")


@register("ex6.safe_path", "is not fooled by a sibling folder sharing the prefix (notes-evil)",
          hint="'/x/notes-evil'.startswith('/x/notes') is True: compare path components "
               "(os.path.commonpath) or use Path.is_relative_to", needs=("safe_path",))
def _safe_prefix(ns: dict) -> None:
    with _tree() as (_, folder):
        _refuses(ns, folder, "evil/x.md",
                 "'evil' is a symlink to the sibling folder notes-evil, outside")
        for r in drawn(64):
            _refuses(ns, folder, f"evil/{r.choice(WORDS)}{r.randrange(99)}.md",
                     "'evil' is a symlink to the sibling folder notes-evil, outside")


# ---------------------------------------------------------------- ex6.resume_notes

NOTE_RE = re.compile(r"^Noted \[(\d+)/(\d+)\] (\S+): ", re.M)
PLAN_RE = re.compile(r"^Plan: check (\d+) files in order(?:, in (\S*) with (\S*))?: (.+)$",
                     re.M)
RESUME_HINT = ("collect the path of every 'Noted [k/n] PATH: ...' line; rebuild the files of "
               "the newest 'Plan:' line (FOLDER + name + EXT in the short form); the next "
               "file is the first planned file not noted")


def reference_resume(text: str) -> tuple[set[str], str | None]:
    """(files noted so far, the first file of the newest plan not noted yet, or None)."""
    checked = {m.group(3) for m in NOTE_RE.finditer(text)}
    plans = PLAN_RE.findall(text)
    if not plans:
        return checked, None
    _, folder, ext, names = plans[-1]
    if folder or ext:
        files = [f"{folder}{n.strip()}{ext}" for n in names.split(",")]
    else:
        files = [n.strip() for n in names.split(",")]
    return checked, next((f for f in files if f not in checked), None)


SHORT_PLAN = ("Plan: check 5 files in order, in services/ with .conf: "
              "_defaults, auth, billing, cart, media")
LONG_PLAN = "Plan: check 3 files in order: README.md, src/app.py, docs/setup.txt"


def _note(k: int, n: int, path: str, rest: str = "timeout_s = 20 (not above 30)") -> str:
    return f"Noted [{k}/{n}] {path}: {path.rsplit('/', 1)[-1].split('.')[0]} {rest}"


def _drawn_notes(r, plans: int = 1, free: bool = True) -> str:
    """Notes drawn from `r`: plans of either form, some files noted, free text between."""
    lines = []
    for _ in range(plans):
        names = r.sample(["auth", "billing", "cart", "media", "search", "ledger", "mail",
                          "queue", "_defaults"], r.randrange(2, 8))
        if r.random() < 0.5:
            folder, ext = r.choice(["services/", "conf/", "etc/app/"]), r.choice([".conf", ".ini"])
            files = [folder + n + ext for n in names]
            lines.append(f"Plan: check {len(files)} files in order, in {folder} with {ext}: "
                         + ", ".join(names))
        else:
            files = [r.choice(["", "src/", "docs/"]) + n + r.choice([".md", ".py"]) for n in names]
            lines.append(f"Plan: check {len(files)} files in order: " + ", ".join(files))
        for k, path in enumerate(r.sample(files, r.randrange(0, len(files) + 1))):
            lines.append(_note(k + 1, len(files), path))
            if free and r.random() < 0.3:
                lines.append(f"Some text the agent wrote about {path}: Noted later.")
    return "\n".join(lines)


def _resume(ns: dict, text: str) -> tuple[set[str], str | None]:
    got = ns["resume_notes"](text)
    assert isinstance(got, tuple) and len(got) == 2, \
        f"resume_notes should return (checked, next_file), got {got!r}"
    checked, nxt = got
    assert isinstance(checked, set | frozenset), \
        f"checked should be a set of paths, got {type(checked).__name__}"
    return set(checked), nxt


def _expect(ns: dict, text: str, want: tuple[set[str], str | None], what: str) -> None:
    checked, nxt = _resume(ns, text)
    shown = text if len(text) < 400 else text[:400] + "..."
    assert checked == want[0], (f"{what}: checked is {sorted(checked)}, expected "
                                f"{sorted(want[0])}, for the notes {shown!r}")
    assert nxt == want[1], f"{what}: next_file is {nxt!r}, expected {want[1]!r}"


@register("ex6.resume_notes", "collects the files already noted",
          hint=RESUME_HINT, needs=("resume_notes",))
def _resume_checked(ns: dict) -> None:
    text = "\n".join([SHORT_PLAN, _note(1, 5, "services/_defaults.conf", "shared defaults"),
                      _note(2, 5, "services/auth.conf"),
                      "Some free text the agent wrote: Noted that billing looks odd."])
    checked, _ = _resume(ns, text)
    want = {"services/_defaults.conf", "services/auth.conf"}
    assert checked == want, (f"checked is {sorted(checked)}, expected {sorted(want)}: only "
                             "'Noted [k/n] PATH: ...' lines count, with the full path")
    for r in drawn(65, 2):
        text = _drawn_notes(r)
        checked, _ = _resume(ns, text)
        want = reference_resume(text)[0]
        assert checked == want, (f"checked is {sorted(checked)}, expected {sorted(want)} for the "
                                 f"notes {text!r}")


@register("ex6.resume_notes", "the next file is the first planned file not yet noted",
          hint=RESUME_HINT, needs=("resume_notes",))
def _resume_next(ns: dict) -> None:
    files = ["services/_defaults.conf", "services/auth.conf", "services/billing.conf",
             "services/cart.conf", "services/media.conf"]
    for noted in ([0, 1], [0, 1, 3], [1], []):
        text = "\n".join([SHORT_PLAN, *(_note(i + 1, 5, files[i]) for i in noted)])
        nxt = next(f for i, f in enumerate(files) if i not in noted)
        _expect(ns, text, ({files[i] for i in noted}, nxt),
                f"with files {[i + 1 for i in noted]} of 5 noted")
    for r in drawn(66, 2):
        text = _drawn_notes(r, free=False)
        _expect(ns, text, reference_resume(text), "on other notes")


@register("ex6.resume_notes", "reads both plan forms: short (folder and extension once) and "
          "full paths", hint="'Plan: check N files in order, in FOLDER with EXT: a, b' means "
          "FOLDER+a+EXT, ...; 'Plan: check N files in order: p1, p2' lists full paths",
          needs=("resume_notes",))
def _resume_forms(ns: dict) -> None:
    text = "\n".join([LONG_PLAN, _note(1, 3, "README.md", "(no setting)")])
    _expect(ns, text, ({"README.md"}, "src/app.py"), "with the full-path plan form")
    text = "\n".join([SHORT_PLAN, _note(1, 5, "services/_defaults.conf")])
    _expect(ns, text, ({"services/_defaults.conf"}, "services/auth.conf"),
            "with the short plan form")
    for r in drawn(67, 2):
        text = _drawn_notes(r)
        _expect(ns, text, reference_resume(text), "with another plan")


@register("ex6.resume_notes", "returns None when every file is noted, or when there is no "
          "plan; uses the newest plan", hint="next_file is None when nothing is left (or "
          "nothing is planned); with several Plan lines the last one counts",
          needs=("resume_notes",))
def _resume_edges(ns: dict) -> None:
    _expect(ns, "", (set(), None), "for empty notes")
    _expect(ns, _note(1, 2, "a.txt"), ({"a.txt"}, None), "for notes without a plan")
    files = ["README.md", "src/app.py", "docs/setup.txt"]
    done = "\n".join([LONG_PLAN, *(_note(i + 1, 3, f) for i, f in enumerate(files))])
    _expect(ns, done, (set(files), None), "when every planned file is noted")
    newer = "Plan: check 4 files in order: README.md, src/app.py, docs/setup.txt, NEWS.md"
    _expect(ns, done + "\n" + newer, (set(files), "NEWS.md"),
            "when a newer plan lists one more file")
    for r in drawn(68, 2):
        text = _drawn_notes(r, plans=2)
        _expect(ns, text, reference_resume(text), "with two plans")


@lru_cache(maxsize=1)
def lesson_notes() -> tuple[tuple[int, str, str | None], ...]:
    """(steps, notes text, the first new file the resumed model read) for interrupted runs
    of the lesson's audit(12): the notes a real restart finds (computed once)."""
    from agentlib.context.notes import NOTES_RULES, Notes
    from agentlib.loop import DEFAULT_SYSTEM, run_agent
    from coursekit import connect, workloads

    out = []
    client = connect(offline=True)
    system = DEFAULT_SYSTEM + " " + NOTES_RULES
    with tempfile.TemporaryDirectory(prefix="agentlib-ex6-") as d:
        work = workloads.audit(12, seed(0), root=str(Path(d) / "workspace"))
        for steps in (4, 8, 12, 16):
            notes = Notes(Path(d) / f"notes-{steps}")
            run_agent(client, work, system=system, extra_tools=notes.toolbox(),
                      max_steps=steps)
            text = notes.read()
            resumed = run_agent(client, work, system=system, extra_tools=notes.toolbox(),
                                max_steps=3)
            reads = [c[1].get("path") for c in resumed.tool_calls("read_file")]
            out.append((steps, text, reads[0] if reads else None))
    return tuple(out)


@register("ex6.resume_notes", "agrees with the notes of real interrupted audit runs",
          hint=RESUME_HINT, needs=("resume_notes",))
def _resume_real(ns: dict) -> None:
    for steps, text, _ in lesson_notes():
        _expect(ns, text, reference_resume(text),
                f"on the notes of the lesson's audit stopped after {steps} steps")
