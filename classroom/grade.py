"""Grade a class's exercise notebooks: a row per student and assignment, reports to hand back.

    python -m classroom.grade SUBMISSIONS... [--assignment 02] [--csv grades.csv]
        [--reports DIR] [--jobs N] [--cell-timeout 30] [--check-timeout 20]
        [--deadline 300] [--memory-mb 2048] [--points points.json] [--fresh]
        [--leaderboard board.html] [--lang ko]

`--leaderboard board.html` (the capstone, assignment 10) also writes a ranked page and
board.csv (classroom/grader/leaderboard.py); rerun it after new submissions to update it.

SUBMISSIONS are notebooks or folders: a folder per assignment with one notebook per
student (`02/alice.ipynb`), or a folder per student with their notebooks
(`subs/alice/02_truncation_and_the_400.ipynb`); see classroom/grader/assignments.py.
Which assignment a notebook is comes from `--assignment`, else from the notebook; what
is graded in it is the course's list of checks for that assignment, the same for
everyone. Points: 1 per check unless the check says otherwise or `--points` maps
"ex2.find_split" (an exercise's total) or "ex2.find_split: title" (one check) to points.

Each notebook is graded by its own clean worker process (classroom/grader/worker.py):
its cells run in a sandbox (classroom/grader/sandbox.py) under a time limit per cell
and a deadline per notebook, the checks run in the worker and call the learner's
functions across the boundary. Both import pristine copies made for the run, outside
the course folder: the worker the whole course (agentlib, apiwire, standin, coursekit,
classroom); the learner's kernel, one copy per assignment, the agent and the kit in which
the course's own code for what that assignment's exercises ask is withheld
(classroom/grader/withhold.py: stubs on disk and in memory, `grading.own_work`), a
stand-in that is only a door to the grader's model, and of the classroom only a `check`
that checks nothing: a graded function cannot import, copy, fork or thread its way to
the answer. The checks draw their inputs from a secret drawn for the run (no table made
in advance answers them). A notebook that loops, crashes, cheats or is not a notebook
gets its own row, never a stopped class.

Results are written as each notebook is done: a CSV row (`--csv`, columns student,
assignment, file, sha256, a status per check, points per exercise, points, max_points,
passed, total, note)
and, in `--reports` (default: next to the CSV), a JSON, Markdown and HTML report per
student and assignment, then a summary. Run the same command again to resume: rows of
notebooks already graded (same file content) are kept, the rest graded.

Statuses: pass, fail, todo (NotImplementedError still there), missing (not defined),
error (the learner's code raised), timeout, crashed (the notebook's process died),
invalid (not a readable notebook, or not an assignment of the course).
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from classroom import grading
from classroom.grader import assignments as course
from classroom.grader.assignments import Submission
from classroom.grader.feedback import write_reports, write_summary
from classroom.grader.gradebook import Gradebook, Graded
from classroom.grader.sandbox import BOX, Limits, isolation_mode
from classroom.grader.withhold import targets, withhold
from coursekit import i18n

PACKAGES = ("agentlib", "apiwire", "standin", "coursekit", "classroom")
"""What the worker imports: the whole course (its checks are the classroom's)."""
KERNEL_PACKAGES = ("agentlib", "apiwire", "coursekit")
"""What the learner's kernel gets whole: the agent, the model catalog, the kit (in each
assignment's copy, with what that assignment asks withheld). Its `standin` is only a door
to the grader's model (grader/remote_standin.py); of the classroom it gets KERNEL_CLASSROOM."""
KERNEL_CLASSROOM = {"__init__.py": "__init__.py", "grading.py": "grader/kernel_grading.py",
                    "withheld.py": "withheld.py"}
"""The kernel's classroom: a `check` that checks nothing, and the withheld stubs' helper.
No check, no answer, no harness (the grader sends it), no runner (see BOX_FILES)."""
BOX_FILES = {"__init__.py": "grader/__init__.py", "ownwork.py": "ownwork.py",
             "grader/__init__.py": "grader/__init__.py", "grader/runner.py": "grader/runner.py",
             "grader/channel.py": "grader/channel.py", "grader/wire.py": "grader/wire.py",
             "grader/sandbox.py": "grader/sandbox.py"}
"""The grader's private modules in the sandbox (package sandbox.BOX, in a folder of its
own that the runner takes off sys.path before the first cell): the launcher, the runner,
its channel and wire, the watch."""
COPY_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")


def package_folder(name: str) -> Path:
    """Where the package `name` this process imports lives."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"grade: the package {name!r} is not importable here")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def pristine_copy(run: Path, checks_files: list[Path] = ()) -> tuple[Path, Path, Path]:
    """Copies of the course's packages for the run (no solutions/, no tests/ beside them):
    (the worker's site, with the teacher's own checks files in classroom/checks/, which
    loads every module there; the learner kernel's site, without the checks, and nothing
    withheld yet (`kernel_for` copies it per assignment); the grader's private modules)."""
    site, kernel, box = run / "site", run / "kernel", run / "box"
    for name in PACKAGES:
        shutil.copytree(package_folder(name), site / name, ignore=COPY_IGNORE)
    for path in checks_files:
        shutil.copy(path, site / "classroom" / "checks" / f"own_{path.name}")
    for name in KERNEL_PACKAGES:
        shutil.copytree(site / name, kernel / name, ignore=COPY_IGNORE)
    (kernel / "standin").mkdir()
    shutil.copy(site / "classroom" / "grader" / "remote_standin.py",
                kernel / "standin" / "__init__.py")
    for target, source in KERNEL_CLASSROOM.items():
        (kernel / "classroom" / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(site / "classroom" / source, kernel / "classroom" / target)
    for target, source in BOX_FILES.items():
        (box / BOX / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(site / "classroom" / source, box / BOX / target)
    compileall.compile_dir(site, quiet=2)  # once here, not in every worker and sandbox
    compileall.compile_dir(box, quiet=2)
    return site, kernel, box


def kernel_for(run: Path, kernel: Path, assignment: str, exercises: list[str]) -> Path:
    """The learner kernel's copy for one assignment: `kernel` with the course's own code
    for what its exercises ask withheld (classroom/grader/withhold.py), compiled."""
    own = run / f"kernel-{assignment}"
    shutil.copytree(kernel, own)
    # The kernel's `standin` is only a door to the grader's model: the stand-in's own code
    # (a reference such as standin.diagnostics) is not in the sandbox at all.
    withhold(own, {spec: how for spec, how in targets(exercises).items()
                   if spec.partition(":")[0].partition(".")[0] != "standin"})
    compileall.compile_dir(own, quiet=2)
    return own


RUN_PREFIX = "agentlib-grade-"


def sweep_stale_runs() -> None:
    """Remove the run folders of graders that were killed (their process is gone), which
    could not remove their own."""
    for folder in Path(tempfile.gettempdir()).glob(RUN_PREFIX + "*"):
        try:
            os.kill(int((folder / "pid").read_text(encoding="utf-8")), 0)
        except ProcessLookupError:  # that grader is gone
            shutil.rmtree(folder, ignore_errors=True)
        except (OSError, ValueError):  # alive (or another user's), or not a run folder
            continue


def digest(*folders: Path) -> str:
    """A hash of every file under `folders`, to notice a change."""
    h = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(folder.parent)).encode())
                h.update(path.read_bytes())
    return h.hexdigest()


# ---------------------------------------------------------------- grading one notebook


def worker_env(site: Path, shared: Path) -> dict[str, str]:
    """The worker's environment: its own copy of the course, offline, no teacher variables."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONPATH": str(site),
            "HOME": str(shared), "TMPDIR": str(shared), "LANG": "C.UTF-8",
            "AGENTLIB_OFFLINE": "1", "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg",
            "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _all(columns: list[tuple[str, str, float]], status: str, detail: str) -> list[dict]:
    return [{"exercise": ex, "check": t, "status": status, "detail": detail, "hint": ""}
            for ex, t, _ in columns]


def grade_one(sub: Submission, columns: list[tuple[str, str, float]], options: dict,
              site: Path, work: Path, mode: str, kernel: Path | None = None,
              box: Path | None = None) -> Graded:
    """Grade one notebook in a fresh worker process; never raises for the notebook's sake."""
    g = Graded(sub.student, sub.assignment or "", str(sub.path), sub.sha256, columns,
               isolation=mode)
    if sub.problem:
        g.results, g.notes = _all(columns, "invalid", sub.problem), [sub.problem]
        return g
    exercises = list(dict.fromkeys(ex for ex, _, _ in columns))
    (work / "shared").mkdir(parents=True, exist_ok=True)
    job = {"cells": sub.cells, "exercises": exercises, "work": str(work), "site": str(site),
           "kernel_site": str(kernel or site), "box": str(box) if box else None,
           "mode": mode, "secret": options.get("secret"),
           "cell_timeout": options["cell_timeout"], "check_timeout": options["check_timeout"],
           "deadline": options["deadline"], "limits": options["limits"]}
    longest = max((grading.time_limit(c, options["check_timeout"]) for ex in exercises
                   for c in grading.CHECKS.get(ex, [])), default=options["check_timeout"])
    hard = options["deadline"] + len(exercises) * (longest + 10) + 90
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-P", "-m", "classroom.grader.worker"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=worker_env(site, work / "shared"),
                            cwd=str(work), start_new_session=True, text=True,
                            encoding="utf-8", errors="replace")
    try:
        out, err = proc.communicate(json.dumps(job), timeout=hard)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        out = ""
        err = f"the grader gave up on this notebook after {hard:g} s"
    finally:
        _kill_group(proc.pid)
        shutil.rmtree(work, ignore_errors=True)
    g.seconds = round(time.monotonic() - start, 2)
    try:
        answer = json.loads(out.strip().splitlines()[-1])
        g.results, g.notes = list(answer["results"]), list(answer["notes"])
    except (ValueError, IndexError, KeyError, TypeError):
        why = "the grader's worker failed: " + (err.strip()[-300:] or f"exit {proc.returncode}")
        g.results, g.notes = _all(columns, "crashed", why), [why]
    return g


def failed_row(sub: Submission, columns: list[tuple[str, str, float]], mode: str,
               exc: BaseException) -> Graded:
    """The row of a notebook the grader itself failed on: every check crashed, and why."""
    why = f"the grader failed on this notebook: {type(exc).__name__}: {str(exc)[:300]}"
    return Graded(sub.student, sub.assignment or "", str(sub.path), sub.sha256, columns,
                  _all(columns, "crashed", why), [why], isolation=mode)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


# ---------------------------------------------------------------- grading a class


def load_points(path: str | None) -> dict[str, float]:
    """The teacher's points file: {"ex2.find_split": 10, "ex2.pin_task: title": 2}."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return {str(k): float(v) for k, v in data.items()}
    except (OSError, ValueError, AttributeError, TypeError) as exc:
        raise SystemExit(f"grade: --points {path}: expected a JSON object of numbers ({exc})") \
            from None


def plan(paths: list[str], assignment: str | None, exercises: list[str] | None,
         points: dict[str, float]) -> tuple[list[Submission], dict[str, list], list[Graded]]:
    """(notebooks to grade, columns per assignment, rows known without grading)."""
    named = course.normalize(assignment) if assignment else None
    subs = course.assign(course.find_submissions(paths), named)
    by_assignment: dict[str, list] = {}
    known: list[Graded] = []
    for sub in subs:
        if sub.assignment is None:
            why = ("cannot tell which assignment this notebook is: name it with "
                   "--assignment")
            known.append(Graded(sub.student, "", str(sub.path), sub.sha256, [], notes=[why]))
            continue
        if sub.assignment not in by_assignment:
            cols = course.columns(sub.assignment, points)
            if exercises:
                cols = [c for c in cols if c[0] in exercises]
            by_assignment[sub.assignment] = cols
    folders = {s.student for s in subs if not s.one_per_file}
    for student in sorted(folders):
        for a in sorted(by_assignment):
            if not any(s.student == student and s.assignment == a for s in subs):
                why = f"no notebook for assignment {a} was handed in"
                known.append(Graded(student, a, "", "", by_assignment[a],
                                    _all(by_assignment[a], "missing", why), [why]))
    return [s for s in subs if s.assignment], by_assignment, known


def _from_report(reports: Path | None, row: dict, columns: list) -> Graded:
    """A row of a previous run, with its details when its JSON report is there."""
    from classroom.grader.feedback import folder_name

    g = Graded(row["student"], row["assignment"], row["file"], row["sha256"], columns,
               notes=[row["note"]] if row.get("note") else [])
    path = reports / folder_name(g.student) / f"{g.assignment}.json" if reports else None
    try:
        with open(path, encoding="utf-8") as f:  # type: ignore[arg-type]
            g.results = json.load(f)["results"]
    except (OSError, TypeError, ValueError, KeyError):
        g.results = [{"exercise": ex, "check": t, "status": row.get(f"{ex}: {t}", "missing"),
                      "detail": "", "hint": ""} for ex, t, _ in columns]
    return g


def grade_class(paths: list[str], *, assignment: str | None = None,
                exercises: list[str] | None = None, csv_path: str | None = None,
                reports: str | None = None, jobs: int | None = None,
                cell_timeout: float = 30, check_timeout: float = 20, deadline: float = 300,
                limits: Limits | None = None, points: dict[str, float] | None = None,
                fresh: bool = False, progress: Callable[[str], None] | None = None,
                checks_files: list[str] = (), language: str = "en",
                secret: int | None = None) -> list[Graded]:
    """Grade every notebook under `paths`; write rows and reports as each is done.
    `checks_files`: Python files of one's own checks, graded like the course's.
    `language`: "en" or "ko", the language of the reports (the CSV keeps English keys).
    `secret`: what the checks draw their inputs from (default: drawn now; a leaderboard
    keeps its own, so that a rerun meets the same tasks)."""
    if language not in i18n.LANGS:
        raise ValueError(f"language must be one of {', '.join(i18n.LANGS)}, got {language!r}")
    own = [Path(f).resolve() for f in checks_files]
    for path in own:
        grading.load_checks_file(path)
    subs, by_assignment, known = plan(paths, assignment, exercises, points or {})
    all_columns = [c for a in sorted(by_assignment) for c in by_assignment[a]]
    book = Gradebook(Path(csv_path), all_columns) if csv_path else None
    report_dir = Path(reports) if reports else (
        Path(csv_path).with_name(Path(csv_path).stem + "-reports") if csv_path else None)
    done: list[Graded] = []
    if book is not None:
        previous = {} if fresh else book.previous()
        book.start(fresh)
        for sub in list(subs):
            row = previous.get((sub.student, sub.assignment or ""))
            if row and row.get("sha256") == sub.sha256:
                done.append(_from_report(report_dir, row, by_assignment[sub.assignment]))
                subs.remove(sub)
        kept = {(g.student, g.assignment) for g in done}
        for g in known:
            if (g.student, g.assignment) not in kept:
                book.append(g)
    if report_dir is not None:
        for g in known:
            if g.assignment:
                write_reports(report_dir, g, language)
    sweep_stale_runs()
    run = Path(tempfile.mkdtemp(prefix=RUN_PREFIX))
    os.chmod(run, 0o755)
    (run / "pid").write_text(str(os.getpid()), encoding="utf-8")
    try:
        site, kernel, box = pristine_copy(run, own)
        kernels = {a: kernel_for(run, kernel, a, list(dict.fromkeys(ex for ex, _, _ in cols)))
                   for a, cols in sorted(by_assignment.items())}
        mode = isolation_mode(str(kernel), str(box))
        fingerprint = digest(site, box, *kernels.values())
        options = {"cell_timeout": cell_timeout, "check_timeout": check_timeout,
                   "deadline": deadline, "limits": vars(limits or Limits()),
                   "secret": secret if secret is not None  # the checks' inputs
                   else int.from_bytes(os.urandom(8), "big")}
        lock = threading.Lock()
        counter = iter(range(1, 1_000_000))

        def one(sub: Submission) -> Graded:
            with lock:
                work = run / "work" / str(next(counter))
            columns = by_assignment[sub.assignment]
            try:
                g = grade_one(sub, columns, options, site, work, mode,
                              kernels[sub.assignment], box)
            except Exception as exc:  # a notebook never stops the class: its own row says why
                g = failed_row(sub, columns, mode, exc)
            if digest(site, box, *kernels.values()) != fingerprint:
                raise SystemExit(f"grade: the grader's copy of the course changed while grading "
                                 f"{sub.path} ({mode} isolation); stopping: grade in a container")
            with lock:
                if book is not None:
                    book.append(g)
                if report_dir is not None:
                    try:
                        write_reports(report_dir, g, language)
                    except (OSError, ValueError) as exc:
                        g.notes.append(f"its report could not be written ({exc})")
                if progress:
                    progress(f"graded {g.student} {g.assignment} ({g.seconds:.1f} s, {mode}): "
                             f"{g.passed}/{len(g.columns)}")
            return g

        with ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1)) as pool:
            fresh_results = list(pool.map(one, subs))
    finally:
        shutil.rmtree(run, ignore_errors=True)
    graded = sorted(done + fresh_results + known, key=lambda g: (g.assignment, g.student))
    if book is not None:
        from classroom.grader.gradebook import row

        book.rewrite([row(g, all_columns) for g in graded])
    if report_dir is not None:
        write_summary(report_dir, [g for g in graded if g.assignment], language)
    return graded


# ---------------------------------------------------------------- the table


def table(graded: list[Graded], language: str = "en") -> str:
    """A plain-text table per assignment, student x check, with a legend (in `language`)."""
    out: list[str] = []
    for a in sorted({g.assignment for g in graded}):
        rows = [g for g in graded if g.assignment == a]
        columns = rows[0].columns
        keys = [f"c{i + 1}" for i in range(len(columns))]
        head = ["student", *keys, "points", "total"]
        body = [[g.student, *(g.status(ex, t).upper() for ex, t, _ in columns),
                 f"{g.points:g}/{g.max_points:g}", f"{g.passed}/{len(columns)}"] for g in rows]
        widths = [max(len(str(r[i])) for r in [head, *body]) for i in range(len(head))]
        out.append(f"assignment {a or '?'}")
        out += ["  ".join(str(v).ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
                for r in [head, ["-" * w for w in widths], *body]]
        out += [f"{k} = {ex}: {grading.localized(ex, t, '')[0] if language == 'ko' else t}"
                for k, (ex, t, _) in zip(keys, columns, strict=True)]
        out += [f"note {g.student}: " + ("; ".join(map(grading.translate, g.notes))[:500]
                                         if language == "ko" else g.note)
                for g in rows if g.note]
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns 0 when grading completed."""
    p = argparse.ArgumentParser(prog="python -m classroom.grade",
                                description=__doc__.split("\n")[0])
    p.add_argument("submissions", nargs="+", help="notebooks or folders of notebooks")
    p.add_argument("--assignment", help="the assignment every notebook is (e.g. 02); "
                   "default: told from each notebook")
    p.add_argument("--csv", help="the grades file (appended as notebooks are graded)")
    p.add_argument("--reports", help="folder for the reports (default: next to the CSV)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="notebooks graded at once (default: the number of cores)")
    p.add_argument("--cell-timeout", type=float, default=30, help="seconds per cell (30)")
    p.add_argument("--check-timeout", type=float, default=20, help="seconds per check (20)")
    p.add_argument("--deadline", type=float, default=300,
                   help="seconds for all of a notebook's cells (300)")
    p.add_argument("--memory-mb", type=int, default=Limits.memory_mb,
                   help=f"memory per notebook ({Limits.memory_mb} MB)")
    p.add_argument("--points", help="JSON file of points per exercise or check")
    p.add_argument("--exercises", help="grade only these exercises (comma-separated)")
    p.add_argument("--fresh", action="store_true", help="start the CSV over (no resuming)")
    p.add_argument("--checks", action="append", default=[], metavar="FILE",
                   help="a Python file of your own checks (like classroom/checks/lesson01.py); "
                   "repeat for several")
    p.add_argument("--leaderboard", metavar="BOARD.html",
                   help="the capstone (assignment 10): also write a ranked page BOARD.html and "
                   "BOARD.csv, on tasks drawn from BOARD.secret (kept for reruns); grades go to "
                   "--csv, default BOARD-grades.csv, so that a rerun grades only new notebooks")
    p.add_argument("--lang", choices=i18n.LANGS, default=os.environ.get("AGENTLIB_LANG") or "en",
                   help="the language of the reports: en or ko (default: $AGENTLIB_LANG, else en)")
    args = p.parse_args(argv)
    exercises = [e.strip() for e in args.exercises.split(",")] if args.exercises else None
    limits = Limits(memory_mb=args.memory_mb,
                    cpu_seconds=int(args.deadline + 60))
    secret = None
    if args.leaderboard:
        from classroom.grader import leaderboard

        board = Path(args.leaderboard)
        if board.suffix.lower() not in (".html", ".htm"):
            p.error(f"--leaderboard {args.leaderboard}: name an .html file")
        if args.assignment and course.normalize(args.assignment) != leaderboard.ASSIGNMENT:
            p.error("--leaderboard ranks the capstone: use it with --assignment 10 (or none)")
        args.assignment = leaderboard.ASSIGNMENT
        args.csv = args.csv or str(board.with_name(board.stem + "-grades.csv"))
        secret = leaderboard.board_secret(board)
    try:
        graded = grade_class(
            args.submissions, assignment=args.assignment, exercises=exercises,
            csv_path=args.csv, reports=args.reports, jobs=args.jobs,
            cell_timeout=args.cell_timeout, check_timeout=args.check_timeout,
            deadline=args.deadline, limits=limits, points=load_points(args.points),
            fresh=args.fresh, progress=lambda line: print(line, file=sys.stderr, flush=True),
            checks_files=args.checks, language=args.lang, secret=secret)
    except FileNotFoundError as exc:
        p.error(str(exc))
    except KeyError as exc:
        p.error(str(exc.args[0]))
    if not graded:
        print("grade: no .ipynb files found", file=sys.stderr)
        return 2
    print(table(graded, args.lang))
    if args.csv:
        print(f"wrote {args.csv}")
    if args.leaderboard:
        page, rows = leaderboard.write(board, graded, secret, args.lang)
        print(leaderboard.text(leaderboard.entries(graded), leaderboard.references(secret),
                               args.lang))
        print(f"wrote {page} and {rows}")
    return 0



if __name__ == "__main__":
    sys.exit(main())
