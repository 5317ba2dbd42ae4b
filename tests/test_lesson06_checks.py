"""Lesson 6's checks pass correct answers and fail the known wrong ones.

Each wrong implementation is a mistake a learner makes (a direct write, a temp file left
behind, a path check by string prefix, forgetting symlinks, ...); the check aimed at it
must fail, and checks it does not target must not crash.
"""

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from checktools import all_pass, statuses, title

from agentlib.workspace import Workspace
from classroom.checks import lesson06
from classroom.grading import run_checks

# ---------------------------------------------------------------- ex6.atomic_write


def atomic_write(path, text):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".notes-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_os_level(path, text):
    """Like the SDK's memory tool: os.open, os.write, fsync, os.replace."""
    path = Path(path)
    tmp = path.parent / f".tmp-{os.getpid()}"
    try:
        fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        try:
            data = text.encode("utf-8")
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_pathlib(path, text):
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def direct_write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def no_cleanup(path, text):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def temp_elsewhere(path, text):
    fd, tmp = tempfile.mkstemp()  # in the system's temp folder, not next to the notes
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        shutil.copyfile(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def swallows(path, text):
    try:
        atomic_write(path, text)
    except Exception:
        pass


def no_encoding(path, text):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="latin-1", errors="replace") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@pytest.mark.parametrize("fn", [atomic_write, atomic_write_os_level, atomic_write_pathlib])
def test_atomic_write_right_answers_pass(fn):
    assert all_pass("ex6.atomic_write", atomic_write=fn), \
        statuses("ex6.atomic_write", atomic_write=fn)


def test_agentlib_notes_write_passes():
    from agentlib.context.notes import Notes

    def via_notes(path, text):
        Notes(Path(path).parent, Path(path).name).write(text)

    assert all_pass("ex6.atomic_write", atomic_write=via_notes)


@pytest.mark.parametrize("wrong, start", [
    (direct_write, "a crash in the middle of the write"),
    (direct_write, "puts the new file in place with a rename"),
    (no_cleanup, "leaves no temp file behind"),
    (temp_elsewhere, "puts the new file in place with a rename"),
    (swallows, "a crash in the middle of the write"),
    (no_encoding, "writes the text as UTF-8"),
])
def test_atomic_write_known_mistakes_fail(wrong, start):
    got = statuses("ex6.atomic_write", atomic_write=wrong)
    assert got[title("ex6.atomic_write", start)] == "fail", got


def test_direct_write_message_says_what_happened():
    results = run_checks("ex6.atomic_write", {"atomic_write": direct_write})
    detail = next(r.detail for r in results if r.check.startswith("a crash in the middle"))
    assert "not the old notes" in detail and "then rename it over the notes" in detail


def test_crash_simulation_leaves_a_half_file_for_a_direct_write(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(lesson06.SimulatedCrash):
        with lesson06.crash_mid_write(4):
            direct_write(path, "new notes\n")
    assert path.read_text(encoding="utf-8") == "new "
    with pytest.raises(lesson06.SimulatedCrash):
        with lesson06.crash_mid_write(0):
            atomic_write(path, "newer\n")
    assert path.read_text(encoding="utf-8") == "new "
    assert [p.name for p in tmp_path.iterdir()] == ["notes.md"]


# ---------------------------------------------------------------- ex6.safe_path


def safe_path(folder, name):
    if not name or "\x00" in name:
        raise ValueError(f"bad name {name!r}")
    if os.path.isabs(name):
        raise PermissionError(f"{name!r} is absolute")
    if ".." in re.split(r"[/\\]", name):
        raise PermissionError(f"{name!r} contains '..'")
    root = os.path.realpath(folder)
    real = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, real]) != root:
        raise PermissionError(f"{name!r} leads outside the folder")
    return Path(real)


def safe_path_pathlib(folder, name):
    if not name or "\x00" in name or Path(name).is_absolute() or ".." in Path(name).parts:
        raise ValueError(name)
    root = Path(folder).resolve()
    real = (root / name).resolve()
    if not real.is_relative_to(root):
        raise PermissionError(name)
    return real


def safe_path_workspace(folder, name):
    """agentlib's own sandbox check agrees with the exercise."""
    return Workspace(folder).resolve(name)


def prefix_only(folder, name):
    if not name or "\x00" in name or os.path.isabs(name) or ".." in name.split("/"):
        raise ValueError(name)
    root = os.path.realpath(folder)
    real = os.path.realpath(os.path.join(root, name))
    if not real.startswith(root):  # '/x/notes-evil'.startswith('/x/notes')
        raise PermissionError(name)
    return real


def no_symlinks(folder, name):
    if not name or "\x00" in name or os.path.isabs(name) or ".." in name.split("/"):
        raise ValueError(name)
    return os.path.join(folder, name)


def join_only(folder, name):
    return Path(folder) / name


def substring_dots(folder, name):
    if ".." in name:  # refuses 'v1..v2.md' too
        raise ValueError(name)
    return safe_path(folder, name)


def unresolved_folder(folder, name):
    if not name or "\x00" in name or os.path.isabs(name) or ".." in name.split("/"):
        raise ValueError(name)
    real = os.path.realpath(os.path.join(folder, name))
    if os.path.commonpath([os.fspath(folder), real]) != os.fspath(folder):
        raise PermissionError(name)
    return real


def resolve_only(folder, name):
    """Safe by resolving, but lets absolute names and '..' inside through."""
    root = os.path.realpath(folder)
    real = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, real]) != root:
        raise PermissionError(name)
    return real


def wrong_exception(folder, name):
    try:
        return safe_path(folder, name)
    except (ValueError, PermissionError) as e:
        raise RuntimeError(str(e)) from None


@pytest.mark.parametrize("fn", [safe_path, safe_path_pathlib, safe_path_workspace])
def test_safe_path_right_answers_pass(fn):
    assert all_pass("ex6.safe_path", safe_path=fn), statuses("ex6.safe_path", safe_path=fn)


@pytest.mark.parametrize("wrong, start", [
    (prefix_only, "is not fooled by a sibling folder"),
    (no_symlinks, "refuses a symlink inside the folder that leads out"),
    (no_symlinks, "is not fooled by a sibling folder"),
    (join_only, "refuses absolute paths"),
    (join_only, "refuses a symlink"),
    (substring_dots, "accepts plain names"),
    (unresolved_folder, "works when the folder itself is reached through a symlink"),
    (resolve_only, "refuses absolute paths"),
    (wrong_exception, "refuses absolute paths"),
])
def test_safe_path_known_mistakes_fail(wrong, start):
    got = statuses("ex6.safe_path", safe_path=wrong)
    assert got[title("ex6.safe_path", start)] == "fail", got


def test_prefix_only_passes_everything_but_the_prefix_check():
    got = statuses("ex6.safe_path", safe_path=prefix_only)
    assert [t for t, s in got.items() if s != "pass"] == \
        [title("ex6.safe_path", "is not fooled by a sibling folder")]


# ---------------------------------------------------------------- ex6.resume_notes

NOTE = re.compile(r"^Noted \[\d+/\d+\] (\S+): ", re.M)
PLAN = re.compile(r"^Plan: check \d+ files in order(?:, in (\S*) with (\S*))?: (.+)$", re.M)


def resume_notes(text):
    checked = set(NOTE.findall(text))
    plans = PLAN.findall(text)
    if not plans:
        return checked, None
    folder, ext, names = plans[-1]
    files = [folder + n.strip() + ext for n in names.split(",")]
    return checked, next((f for f in files if f not in checked), None)


def first_plan(text):
    checked = set(NOTE.findall(text))
    plans = PLAN.findall(text)
    if not plans:
        return checked, None
    folder, ext, names = plans[0]
    files = [folder + n.strip() + ext for n in names.split(",")]
    return checked, next((f for f in files if f not in checked), None)


def after_highest(text):
    """The next file after the highest noted position (wrong when a file was skipped)."""
    checked, _ = resume_notes(text)
    positions = [int(k) for k in re.findall(r"^Noted \[(\d+)/", text, re.M)]
    plans = PLAN.findall(text)
    if not plans:
        return checked, None
    folder, ext, names = plans[-1]
    files = [folder + n.strip() + ext for n in names.split(",")]
    done = max(positions, default=0)
    return checked, files[done] if done < len(files) else None


def names_only(text):
    """Forgets to rebuild the folder and extension of the short plan form."""
    checked = set(NOTE.findall(text))
    plans = PLAN.findall(text)
    if not plans:
        return checked, None
    names = [n.strip() for n in plans[-1][2].split(",")]
    return checked, next((n for n in names if n not in checked), None)


def empty_string(text):
    checked, nxt = resume_notes(text)
    return checked, "" if nxt is None else nxt


def any_noted(text):
    """Counts every line that mentions 'Noted', free text included."""
    checked = {m.group(1) for m in re.finditer(r"Noted \[\d+/\d+\] (\S+):", text)}
    checked |= {line.split()[-1] for line in text.splitlines()
                if "Noted" in line and not line.startswith("Noted [")}
    return checked, resume_notes(text)[1]


def list_not_set(text):
    checked, nxt = resume_notes(text)
    return sorted(checked), nxt


def test_resume_right_answer_passes():
    assert all_pass("ex6.resume_notes", resume_notes=resume_notes), \
        statuses("ex6.resume_notes", resume_notes=resume_notes)


def test_resume_reference_agrees_with_the_course_model():
    """The reference parse names the file the course model reads first when it resumes."""
    for steps, text, first_read in lesson06.lesson_notes():
        checked, nxt = lesson06.reference_resume(text)
        assert checked and nxt == first_read, (steps, nxt, first_read)
        assert resume_notes(text) == (checked, nxt)


@pytest.mark.parametrize("wrong, start", [
    (first_plan, "returns None when every file is noted"),
    (after_highest, "the next file is the first planned file not yet noted"),
    (names_only, "reads both plan forms"),
    (names_only, "agrees with the notes of real interrupted audit runs"),
    (empty_string, "returns None when every file is noted"),
    (any_noted, "collects the files already noted"),
    (list_not_set, "collects the files already noted"),
])
def test_resume_known_mistakes_fail(wrong, start):
    got = statuses("ex6.resume_notes", resume_notes=wrong)
    assert got[title("ex6.resume_notes", start)] == "fail", got


def test_crash_simulation_reaches_a_notebooks_own_open():
    """In a notebook, `open` is IPython's wrapper of io.open, bound in the user's globals
    (captured before any patch); a direct write defined there must still crash."""
    import functools
    import io

    real_open = io.open

    @functools.wraps(real_open)
    def ipython_open(file, *args, **kwargs):
        return real_open(file, *args, **kwargs)

    ns = {"open": ipython_open}
    exec("def atomic_write(path, text):\n"
         "    with open(path, 'w', encoding='utf-8') as f:\n"
         "        f.write(text)\n", ns)
    got = statuses("ex6.atomic_write", **ns)
    assert got[title("ex6.atomic_write", "a crash in the middle of the write")] == "fail"
    assert ns["open"] is ipython_open  # restored
    detail = next(r.detail for r in run_checks("ex6.atomic_write", ns)
                  if r.check.startswith("a crash in the middle"))
    assert "never fired" not in detail
