#!/usr/bin/env python3
"""The course's helper: one command sets up the environment and runs what you ask.

    python3 course.py lab                  open the course in JupyterLab
    python3 course.py test [PYTEST ARGS]   run every test (notebooks included)
    python3 course.py execute [NOTEBOOK]   re-run notebooks in place, saving their outputs
    python3 course.py exercises [--check]  regenerate exercises/ from solutions/
    python3 course.py grade SUBMISSIONS... [--csv grades.csv]   grade submitted notebooks
    python3 course.py student-copy DIR     the course for students: no solutions/, no tests
    python3 course.py nbgrader-export [--out DIR]   the solutions as an nbgrader source/
    python3 course.py lock                 pin the installed versions in constraints.txt

Every command first makes sure `.venv` exists here and holds the course: it is created
with the standard library's venv and filled with `pip install -e ".[test]" -c
constraints.txt`, which is repeated only when pyproject.toml or constraints.txt changed.
Needs only Python 3.11 or newer; everything else runs with the venv's Python.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
import venv
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / "course-installed.txt"
CONSTRAINTS = ROOT / "constraints.txt"
USAGE = __doc__.split("\n\n")[1]


def venv_python() -> Path:
    """The venv's Python (Scripts/python.exe on Windows, bin/python elsewhere)."""
    windows = VENV / "Scripts" / "python.exe"
    return windows if os.name == "nt" else VENV / "bin" / "python"


def install_fingerprint() -> str:
    """A hash of what decides the install: pyproject.toml, constraints.txt, Python."""
    h = hashlib.sha256(sys.version.encode())
    for path in (ROOT / "pyproject.toml", CONSTRAINTS):
        h.update(path.read_bytes() if path.exists() else b"-")
    return h.hexdigest()


def ensure_venv() -> Path:
    """Create .venv and install the course into it unless the stamp says it is current."""
    python = venv_python()
    if not python.exists():
        print(f"creating {VENV.name}/ with Python {platform.python_version()} ...", flush=True)
        try:
            venv.create(VENV, with_pip=True)
        except Exception as exc:  # e.g. Debian without python3-venv
            sys.exit(f"could not create {VENV}: {exc}\n"
                     "On Debian/Ubuntu: sudo apt install python3-venv, then try again.")
    fingerprint = install_fingerprint()
    if STAMP.exists() and STAMP.read_text(encoding="utf-8").strip() == fingerprint:
        return python
    cmd = [str(python), "-m", "pip", "install", "-e", ".[test]"]
    if CONSTRAINTS.exists():
        cmd += ["-c", str(CONSTRAINTS)]
    print("installing the course into .venv (only when its requirements change) ...", flush=True)
    code = subprocess.call(cmd, cwd=ROOT)
    if code != 0:
        sys.exit(f"pip install failed (exit {code}); fix the error above and run again")
    STAMP.write_text(fingerprint + "\n", encoding="utf-8")
    return python


def run(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> int:
    """Run `cmd` and return its exit code; Ctrl-C goes to it, not to us."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env)
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue  # the child got the same Ctrl-C and decides when to stop


def lab(python: Path, args: list[str]) -> int:
    """JupyterLab on the whole course, opened at lessons/. Offline unless a key is set."""
    env = dict(os.environ)
    env.pop("AGENTLIB_OFFLINE", None)  # agentlib picks Claude only if ANTHROPIC_API_KEY is set
    return run([str(python), "-m", "jupyterlab", f"--ServerApp.root_dir={ROOT}",
                "--ContentsManager.preferred_dir=lessons", *args], env)


def test(python: Path, args: list[str]) -> int:
    """pytest with extra args passed through; always offline, so outputs are comparable."""
    env = dict(os.environ, AGENTLIB_OFFLINE="1", PYTHONHASHSEED="0")
    return run([str(python), "-m", "pytest", *args], env)


def lock(python: Path, args: list[str]) -> int:
    """Rewrite constraints.txt from `pip freeze` of the venv (without agentlib itself)."""
    frozen = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--exclude-editable"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    pins = sorted((line for line in frozen
                   if line.strip() and not line.lower().startswith(("agentlib", "-e "))),
                  key=lambda line: line.split("==")[0].lower())
    version = subprocess.run([str(python), "-c", "import platform; print(platform.python_version())"],
                             capture_output=True, text=True, check=True).stdout.strip()
    header = [
        "# Exact versions of everything `python3 course.py` installs into .venv.",
        f"# Tested on {date.today().isoformat()} with Python {version} "
        f"on {platform.system()} {platform.machine()}.",
        "# Regenerate after changing pyproject.toml: `python3 course.py lock`.",
        "# To upgrade: delete this file, run `python3 course.py test`, then lock again.",
    ]
    CONSTRAINTS.write_text("\n".join(header + pins) + "\n", encoding="utf-8", newline="\n")
    STAMP.write_text(install_fingerprint() + "\n", encoding="utf-8")  # the venv matches it
    print(f"wrote {CONSTRAINTS.name}: {len(pins)} pins")
    return 0


STUDENT_COPY = ["README.md", "course.py", "pyproject.toml", "constraints.txt", ".gitignore",
                "agentlib", "lessons", "exercises", "bench", "scripts/execute_notebooks.py",
                "tests/conftest.py", "tests/nbval_sanitize.cfg"]
"""What a student gets: the course without solutions/ and without the tests (which hold
right answers to the exercises); the two tests files kept let `course.py test` check the
lessons' saved outputs there."""


def student_copy(python: Path, args: list[str]) -> int:
    """Copy the course for students into DIR (which must not exist yet)."""
    import shutil

    if len(args) != 1:
        print("usage: python3 course.py student-copy DIR")
        return 2
    target = Path(args[0]).resolve()
    if target.exists():
        sys.exit(f"student-copy: {target} already exists; name a new folder")
    if target == ROOT or ROOT in target.parents:
        sys.exit("student-copy: choose a folder outside the course")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints")
    for name in STUDENT_COPY:
        source, dest = ROOT / name, target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, dest, ignore=skip)
        elif source.exists():
            shutil.copy2(source, dest)
    print(f"wrote the student copy to {target} (no solutions/, no tests)")
    return 0


def script(name: str) -> Callable[[Path, list[str]], int]:
    """A command that runs scripts/NAME.py from where you are, so your paths work."""
    return lambda py, args: run([str(py), str(ROOT / "scripts" / name), *args], cwd=Path.cwd())


COMMANDS = {
    "lab": lab,
    "test": test,
    "execute": script("execute_notebooks.py"),
    "exercises": script("make_exercises.py"),
    "grade": lambda py, args: run([str(py), "-m", "agentlib.grade", *args], cwd=Path.cwd()),
    "student-copy": student_copy,
    "nbgrader-export": lambda py, args: run([str(py), "-m", "agentlib.grader.nbgrader", *args],
                                            cwd=Path.cwd()),
    "lock": lock,
}


def main(argv: list[str]) -> int:
    """Dispatch `python3 course.py COMMAND [ARGS]`."""
    if sys.version_info < (3, 11):  # noqa: UP036  (python3 may be older than the venv needs)
        sys.exit(f"the course needs Python 3.11 or newer; this is {platform.python_version()}.\n"
                 "Run it with a newer one, e.g. `python3.11 course.py lab`.")
    if not argv or argv[0] not in COMMANDS:
        print(USAGE)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    python = ensure_venv()
    return COMMANDS[argv[0]](python, argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
