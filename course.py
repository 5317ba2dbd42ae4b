#!/usr/bin/env python3
"""The course's helper: one command sets up the environment and runs what you ask.

    python3 course.py lab                  open the course in JupyterLab
    python3 course.py test [PYTEST ARGS]   run the tests (notebooks included) on every core
    python3 course.py test --all           ... and the heavy ones, with full property tests
    python3 course.py execute [NOTEBOOK]   re-run notebooks in place, saving their outputs
    python3 course.py exercises [--check]  regenerate exercises/ from solutions/
    python3 course.py grade SUBMISSIONS... [--csv grades.csv]   grade submitted notebooks
    python3 course.py student-copy DIR     the course for students: no solutions/, tests, grader
    python3 course.py nbgrader-export [--out DIR]   the solutions as an nbgrader source/
    python3 course.py lock                 pin the installed versions in constraints.txt
    python3 course.py browser-test         a learner's session in JupyterLab, in headless Chromium
    python3 course.py live-check [--seed N] [--claude]   every lesson in the live profile
    python3 course.py hub-link HUB_URL     an nbgitpuller link that opens the course on a hub
    python3 course.py serve [--port 8765]  the offline stand-in as an HTTP server, for any client

Every command first makes sure `.venv` exists here and holds the course: it is created
with the standard library's venv and filled with `pip install -e ".[test]" -c
constraints.txt`, which is repeated only when pyproject.toml or constraints.txt changed.
The teacher's commands (test, grade, nbgrader-export) add the `teacher` extra (nbgrader)
the first time; `lab` never installs it, and hides it if it is there, so a learner's
JupyterLab shows no teacher tools. Needs only Python 3.11 or newer; everything else runs
with the venv's Python.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / "course-installed.txt"
INSTALL_LOG = VENV / "install.log"
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


LEARNER_EXTRAS = ("test",)
"""What every command installs: the course and its test tools (pytest, nbval, ruff), no
teacher tool."""
TEACHER_EXTRAS = ("test", "teacher")
"""What the teacher's commands install: nbgrader too (`course.py test` tests the export)."""
TEACHER_COMMANDS = ("test", "grade", "nbgrader-export")


def extras_for(command: str) -> tuple[str, ...]:
    """The extras `command` needs: the teacher's in a course that has the class grader (a
    student copy has none: its `test` needs no nbgrader), else the learner's."""
    if command in TEACHER_COMMANDS and (ROOT / "classroom" / "grader").is_dir():
        return TEACHER_EXTRAS
    return LEARNER_EXTRAS


def installed_extras() -> tuple[str, set[str]]:
    """(the fingerprint the venv was installed for, the extras installed with it)."""
    lines = STAMP.read_text(encoding="utf-8").splitlines() if STAMP.exists() else []
    fingerprint = lines[0].strip() if lines else ""
    extras = {e for line in lines[1:] if line.startswith("extras:")
              for e in line.removeprefix("extras:").strip().split(",") if e}
    return fingerprint, extras or (set(LEARNER_EXTRAS) if fingerprint else set())


def ensure_venv(extras: tuple[str, ...] = LEARNER_EXTRAS) -> Path:
    """Create .venv and install the course into it with `extras`, unless the stamp says it
    is current and has them (extras installed before are kept)."""
    python = venv_python()
    if not python.exists():
        print(f"creating {VENV.name}/ with Python {platform.python_version()} ...", flush=True)
        try:
            venv.create(VENV, with_pip=True)
        except Exception as exc:  # e.g. Debian without python3-venv
            sys.exit(f"could not create {VENV}: {exc}\n"
                     "On Debian/Ubuntu: sudo apt install python3-venv, then try again.")
    fingerprint = install_fingerprint()
    stamped, have = installed_extras()
    if stamped == fingerprint and set(extras) <= have:
        return python
    wanted = sorted(set(extras) | have)
    cmd = [str(python), "-m", "pip", "install", "--progress-bar", "off", "-e",
           f".[{','.join(wanted)}]"]
    if CONSTRAINTS.exists():
        cmd += ["-c", str(CONSTRAINTS)]
    print("installing the course into .venv (once, and again only when its requirements "
          f"change; the full log goes to {INSTALL_LOG.relative_to(ROOT)}) ...", flush=True)
    code = quiet(cmd, INSTALL_LOG)
    if code != 0:
        tail = INSTALL_LOG.read_text(encoding="utf-8", errors="replace").splitlines()[-25:]
        sys.exit("\n".join(tail) + f"\npip install failed (exit {code}); the last lines are "
                 f"above, the whole log is in {INSTALL_LOG}")
    STAMP.write_text(f"{fingerprint}\nextras: {','.join(wanted)}\n", encoding="utf-8")
    return python


def quiet(cmd: list[str], log: Path) -> int:
    """Run `cmd` with its output in `log`, showing one progress line that counts packages
    (rewritten in place on a terminal; printed once at the end elsewhere, e.g. in CI)."""
    collected, tty = 0, sys.stdout.isatty()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, encoding="utf-8", errors="replace")
        for line in proc.stdout:
            out.write(line)
            if line.startswith(("Collecting ", "Processing ", "Requirement already")):
                collected += 1
                if tty:
                    print(f"\r  {collected} packages resolved", end="", flush=True)
        code = proc.wait()
    print(("\r" if tty else "") + f"  {collected} packages resolved, installed" + " " * 20,
          flush=True)
    return code


def run(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> int:
    """Run `cmd` and return its exit code; Ctrl-C goes to it, not to us."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env)
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue  # the child got the same Ctrl-C and decides when to stop


START_PAGE = "lessons/00_start_here.ipynb"
LAB_LOG = VENV / "lab.log"


def lab(python: Path, args: list[str]) -> int:
    """JupyterLab on the whole course, opened on the start page; its log goes to a file and
    one line says where to go. Offline unless a key is set. Works as root too (containers,
    cloud machines, hub images), where Jupyter otherwise refuses to start."""
    cmd, env, start = lab_command(python, args)
    with open(LAB_LOG, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
    url = wait_for_server(python, proc, start)
    if url is None:
        print(LAB_LOG.read_text(encoding="utf-8", errors="replace")[-3000:])
        print(f"JupyterLab did not start (see above; the whole log is in {LAB_LOG})")
        return proc.wait() or 1
    print(f"JupyterLab is running: {url}\nStart with {start} (the course map), then "
          f"{Path(start).parent.as_posix()}/01_append_only_growth.ipynb. Ctrl-C stops it; "
          f"its log is in "
          f"{os.path.relpath(LAB_LOG, ROOT)}.", flush=True)
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue  # Jupyter got the same Ctrl-C and asks or stops by itself


def lab_command(python: Path, args: list[str], root: Path = ROOT
                ) -> tuple[list[str], dict[str, str], str]:
    """(command, environment, start page) of the JupyterLab a learner gets: the course's
    start page (`--lang ko`: the Korean one), no news prompt and no update check, the
    teacher's extensions (nbgrader) hidden; `args` go to JupyterLab. `root`: the folder it
    serves (the course; scripts/browser_test.py gives a copy of it)."""
    env = dict(os.environ)
    env.pop("AGENTLIB_OFFLINE", None)  # agentlib picks Claude only if ANTHROPIC_API_KEY is set
    start = START_PAGE
    if "--lang" in args:  # --lang ko: the Korean edition's start page
        i = args.index("--lang")
        lang, args = (args[i + 1] if i + 1 < len(args) else ""), args[:i] + args[i + 2:]
        start = f"lessons/{lang}/00_start_here.ipynb" if lang and lang != "en" else START_PAGE
        if not (root / start).exists():
            sys.exit(f"no start page for --lang {lang!r} ({start} does not exist)")
        if lang == "ko":
            korean_menus(python, env)
    cmd = [str(python), "-m", "jupyterlab", f"--ServerApp.root_dir={root}",
           "--ContentsManager.preferred_dir=lessons", f"--LabApp.default_url=/lab/tree/{start}",
           f"--LabApp.app_settings_dir={lab_settings()}"]
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        [str(lab_config()), *filter(None, [env.get("JUPYTER_CONFIG_PATH")])])
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd + args, env, start


NEWS_OFF = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                            "checkForUpdates": False}}
TEACHER_LABEXTENSIONS = ("@jupyter/nbgrader",)


def lab_settings() -> Path:
    """JupyterLab's application settings folder in .venv (where it looks by default),
    holding the course's overrides: no "get notified about Jupyter news?" prompt, no check
    for updates (the course runs offline). Written on every `lab`; returns the folder."""
    folder = VENV / "share" / "jupyter" / "lab" / "settings"
    overrides = folder / "overrides.d" / "context-engineering-course.json"
    overrides.parent.mkdir(parents=True, exist_ok=True)
    overrides.write_text(json.dumps(NEWS_OFF, indent=2) + "\n", encoding="utf-8")
    return folder


def lab_config() -> Path:
    """A Jupyter config folder used only by `course.py lab` (JUPYTER_CONFIG_PATH): its page
    config disables the teacher's JupyterLab extensions (nbgrader's menu and panels), in
    case a teacher's command installed them in this .venv. Returns the folder."""
    folder = VENV / "lab-config"
    page = folder / "labconfig" / "page_config.json"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(json.dumps({"disabledExtensions": dict.fromkeys(TEACHER_LABEXTENSIONS,
                                                                    True)}, indent=2) + "\n",
                    encoding="utf-8")
    return folder


def korean_menus(python: Path, env: dict) -> None:
    """JupyterLab's own menus in Korean too: the `ko` extra (the language pack), and the
    locale ko_KR in a settings folder used only by `lab --lang ko`."""
    if not korean_pack_installed(python) and quiet(
            [str(python), "-m", "pip", "install", "--progress-bar", "off", "-e", ".[ko]",
             "-c", str(CONSTRAINTS)], VENV / "install-ko.log") != 0:
        print(f"(JupyterLab's menus stay in English: the Korean language pack did not install; "
              f"see {VENV / 'install-ko.log'})")
        return
    settings = VENV / "lab-settings-ko"
    plugin = settings / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    if not plugin.exists():
        plugin.parent.mkdir(parents=True, exist_ok=True)
        plugin.write_text('{"locale": "ko_KR"}\n', encoding="utf-8")
    env["JUPYTERLAB_SETTINGS_DIR"] = str(settings)


def korean_pack_installed(python: Path) -> bool:
    """Whether the course's environment has JupyterLab's Korean language pack already."""
    found = subprocess.run([str(python), "-c", "import jupyterlab_language_pack_ko_KR"],
                           capture_output=True)
    return found.returncode == 0


def wait_for_server(python: Path, proc: subprocess.Popen, page: str,
                    seconds: float = 120) -> str | None:
    """The URL (with its token) of `page` on the Jupyter server `proc` started, once it has
    written its runtime file (jpserver-PID.json, where Jupyter says how to reach it)."""
    runtime = subprocess.run([str(python), "-m", "jupyter", "--runtime-dir"], capture_output=True,
                             text=True, check=True).stdout.strip()
    info_file = Path(runtime) / f"jpserver-{proc.pid}.json"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if info_file.exists():
            try:
                info = json.loads(info_file.read_text(encoding="utf-8"))
            except ValueError:  # being written
                info = None
            if info:
                host = "localhost" if info["hostname"] in ("127.0.0.1", "localhost", "") \
                    else info["hostname"]
                token = f"?token={info['token']}" if info.get("token") else ""
                return f"http://{host}:{info['port']}{info['base_url']}lab/tree/{page}{token}"
        time.sleep(0.5)
    return None


def test(python: Path, args: list[str]) -> int:
    """pytest with extra args passed through; always offline, so outputs are comparable.
    On every core (pyproject.toml: `-n auto`; `-n 0` for one process), without the tests
    marked heavy. `--all`: everything, the heavy tests too (`-m heavy`: only them), with
    the property tests at hypothesis's full profile (HYPOTHESIS_PROFILE=full)."""
    env = dict(os.environ, AGENTLIB_OFFLINE="1", PYTHONHASHSEED="0")
    # Python's default, even where PYTHONDONTWRITEBYTECODE is set (as containers often do):
    # the run starts a hundred Pythons (workers, kernels, graders) that would each compile
    # the course and the tests again (__pycache__/ is git-ignored).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if "--all" in args:
        args = ["-m", "", *(a for a in args if a != "--all")]  # a later -m still wins
        env.setdefault("HYPOTHESIS_PROFILE", "full")
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
    write_binder_requirements(pins)
    STAMP.write_text(install_fingerprint() + "\n", encoding="utf-8")  # the venv matches it
    print(f"wrote {CONSTRAINTS.name}: {len(pins)} pins")
    return 0


BINDER_REQUIREMENTS = ROOT / "binder" / "requirements.txt"


def write_binder_requirements(pins: list[str]) -> None:
    """binder/requirements.txt: the same versions as constraints.txt, for repo2docker."""
    lines = ["# What repo2docker installs for Binder or a JupyterHub image: the versions of",
             "# constraints.txt (rewritten by `python3 course.py lock`); binder/postBuild then",
             "# installs the course's own package.", *pins]
    BINDER_REQUIREMENTS.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")


def browser_test(python: Path, args: list[str]) -> int:
    """scripts/browser_test.py with Playwright installed and a system Chromium: installed
    with apt when running as root on Debian/Ubuntu, else the test says how and skips."""
    code = quiet([str(python), "-m", "pip", "install", "--progress-bar", "off", "-e",
                  ".[browser]", "-c", str(CONSTRAINTS)], VENV / "install-browser.log")
    if code != 0:
        sys.exit(f"could not install Playwright (see {VENV / 'install-browser.log'})")
    have = any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))
    packages = [] if have else ["chromium"]
    if not korean_font_installed():  # the Korean lesson's Hangul, not empty boxes
        packages.append("fonts-nanum")
    if packages and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"installing {' and '.join(packages)} with apt-get (the system's packages, "
              "never Playwright's download) ...", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        with open(VENV / "install-chromium.log", "w", encoding="utf-8") as log:
            subprocess.call(["apt-get", "update", "-q"], stdout=log, stderr=log, env=env)
            subprocess.call(["apt-get", "install", "-y", "-q", *packages], stdout=log,
                            stderr=log, env=env)
    env = dict(os.environ, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    code = run([str(python), str(ROOT / "scripts" / "browser_test.py"), *args], env)
    return 0 if code == 3 else code  # 3: skipped, with the reason printed


def korean_font_installed() -> bool:
    """Whether the system (fontconfig, which Chromium uses) has a font for Korean."""
    if not shutil.which("fc-list"):
        return False
    found = subprocess.run(["fc-list", ":lang=ko"], capture_output=True, text=True)
    return bool(found.stdout.strip())


def hub_link(args: list[str]) -> int:
    """Print an nbgitpuller link: a click clones (or updates) the course into a learner's
    JupyterHub home and opens the start page. HUB_URL [--repo URL] [--branch B] [--lang L]"""
    import argparse
    from urllib.parse import quote, urlencode

    ap = argparse.ArgumentParser(prog="course.py hub-link", description=hub_link.__doc__)
    ap.add_argument("hub", help="the hub's address, e.g. https://hub.example.edu")
    ap.add_argument("--repo", help="the course's git URL (default: this clone's origin)")
    ap.add_argument("--branch", default="main")
    ap.add_argument("--lang", default="en", help="en, or ko for the Korean start page")
    a = ap.parse_args(args)
    repo = a.repo or subprocess.run(["git", "remote", "get-url", "origin"], cwd=ROOT,
                                    capture_output=True, text=True).stdout.strip()
    if not repo:
        sys.exit("this clone has no 'origin' remote: give the course's git URL with --repo")
    folder = repo.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    page = START_PAGE if a.lang == "en" else f"lessons/{a.lang}/00_start_here.ipynb"
    query = urlencode({"repo": repo, "branch": a.branch,
                       "urlpath": f"lab/tree/{folder}/{page}"}, quote_via=quote)
    print(f"{a.hub.rstrip('/')}/hub/user-redirect/git-pull?{query}")
    return 0


STUDENT_COPY = ["README.md", "course.py", "pyproject.toml", "constraints.txt", ".gitignore",
                "agentlib", "apiwire", "standin", "coursekit", "classroom", "lessons",
                "exercises", "bench", "scripts/execute_notebooks.py", "scripts/live_check.py",
                "tests/conftest.py", "tests/nbval_sanitize.cfg"]
"""What a student gets: the course without solutions/ and without the tests (which hold
right answers to the exercises); the two tests files kept let `course.py test` check the
lessons' saved outputs there. Of the classroom, `check()` and the exercises' checks (their
feedback), not the teacher's tools (NOT_FOR_STUDENTS)."""
NOT_FOR_STUDENTS = ["classroom/grader", "classroom/grade.py", "bench/grading.py"]
"""The class grader, its sandbox, the nbgrader export, and the grader's benchmark."""


def student_copy(python: Path, args: list[str]) -> int:
    """Copy the course for students into DIR (which must not exist yet): no solutions, no
    tests, no class grader; its `course.py` installs no teacher extra."""
    if len(args) != 1:
        print("usage: python3 course.py student-copy DIR")
        return 2
    target = Path(args[0]).resolve()
    if target.exists():
        sys.exit(f"student-copy: {target} already exists; name a new folder")
    if target == ROOT or ROOT in target.parents:
        sys.exit("student-copy: choose a folder outside the course")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints")
    left_out = {ROOT / rel for rel in NOT_FOR_STUDENTS}

    def ignore(folder: str, names: list[str]) -> set[str]:
        return set(skip(folder, names)) | {n for n in names if Path(folder, n) in left_out}

    for name in STUDENT_COPY:
        source, dest = ROOT / name, target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, dest, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, dest)
    print(f"wrote the student copy to {target} (no solutions/, no tests, no class grader)")
    return 0


def teacher_tool(python: Path, module: str, args: list[str]) -> int:
    """`python -m module ARGS` from where you are: the class grader's commands, which a
    student copy does not have."""
    if not (ROOT / "classroom" / "grader").is_dir():
        sys.exit(f"{module}: the class grader is not part of this copy of the course "
                 "(a student copy has the exercises' checks, `check()`, and no grader)")
    return run([str(python), "-m", module, *args], cwd=Path.cwd())


def script(name: str) -> Callable[[Path, list[str]], int]:
    """A command that runs scripts/NAME.py from where you are, so your paths work."""
    return lambda py, args: run([str(py), str(ROOT / "scripts" / name), *args], cwd=Path.cwd())


def serve(python: Path, args: list[str]) -> int:
    """The offline stand-in as an HTTP server on 127.0.0.1 (standin/http.py): it prints the
    ANTHROPIC_BASE_URL to give any client; Ctrl-C stops it. [--port 8765] [--seed N]
    [--context-window N] [--quiet]"""
    return become([str(python), "-m", "standin.http", *args])


def become(cmd: list[str]) -> int:
    """Run `cmd` in this very process (POSIX exec), so that every signal sent to this
    command (Ctrl-C, `kill`, `timeout`, a closed terminal) reaches it, and nothing is left
    behind holding its port; elsewhere (Windows) as a child, as `run` does."""
    if os.name != "posix":
        return run(cmd)
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(ROOT)
    os.execv(cmd[0], cmd)


COMMANDS = {
    "lab": lab,
    "test": test,
    "execute": script("execute_notebooks.py"),
    "exercises": script("make_exercises.py"),
    "grade": lambda py, args: teacher_tool(py, "classroom.grade", args),
    "student-copy": student_copy,
    "nbgrader-export": lambda py, args: teacher_tool(py, "classroom.grader.nbgrader", args),
    "lock": lock,
    "browser-test": browser_test,
    "live-check": script("live_check.py"),
    "serve": serve,
}


def main(argv: list[str]) -> int:
    """Dispatch `python3 course.py COMMAND [ARGS]`."""
    if sys.version_info < (3, 11):  # noqa: UP036  (python3 may be older than the venv needs)
        sys.exit(f"the course needs Python 3.11 or newer; this is {platform.python_version()}.\n"
                 "Run it with a newer one, e.g. `python3.11 course.py lab`.")
    if argv[:1] == ["hub-link"]:  # needs no environment
        return hub_link(argv[1:])
    if not argv or argv[0] not in COMMANDS:
        print(USAGE)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    python = ensure_venv(extras_for(argv[0]))
    return COMMANDS[argv[0]](python, argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
