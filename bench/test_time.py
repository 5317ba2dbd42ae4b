"""How long the README's test command takes: `python3 course.py test`, timed.

    python3 bench/test_time.py [--runs N] [--log FILE] [-- PYTEST ARGS]

Makes sure the venv is installed first (that install is not counted), then runs the
command with `--durations=20` and prints, for each run: the wall time, pytest's summary
line, the CPU time the tests used (all their processes: workers, kernels, graders) and
the CPU time the rest of the machine used meanwhile, then the slowest 20 items. Other work
on the machine lengthens the wall time: the last figure says by how much to distrust it.
Arguments after `--` go to pytest (e.g. `-- --all` for the slow mode). Exit status: the
last run's.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course.py"


def busy_seconds() -> float | None:
    """CPU seconds the whole machine has spent busy since boot (Linux), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    """User + system CPU seconds of every finished child (and the children they waited for)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def slowest(output: str) -> list[str]:
    """The lines of pytest's "slowest N durations" section."""
    lines, inside = [], False
    for line in output.splitlines():
        if re.match(r"=+ slowest .*durations", line):
            inside = True
        elif inside and line.startswith("="):
            break
        elif inside and line.strip() and not line.startswith("("):
            lines.append(line.rstrip())
    return lines


def summary(output: str) -> str:
    """pytest's last line: "N passed, M deselected in S s"."""
    found = [ln.strip("= ").strip() for ln in output.splitlines()
             if re.match(r"=+ .*\b(passed|failed|error|no tests ran)\b.* in [\d.]+s", ln)]
    return found[-1] if found else "(no pytest summary line: see the log)"


def one_run(args: list[str], log: Path) -> tuple[int, float, dict]:
    cmd = [sys.executable, str(COURSE), "test", "--durations=20", *args]
    cpu0, busy0, load0 = children_cpu(), busy_seconds(), os.getloadavg()[0]
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        code = subprocess.call(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    wall = time.monotonic() - start
    ours = children_cpu() - cpu0
    busy1 = busy_seconds()
    text = log.read_text(encoding="utf-8", errors="replace")
    others = None if busy0 is None or busy1 is None else max(0.0, busy1 - busy0 - ours)
    return code, wall, {"cpu": ours, "others": others, "load_before": load0,
                        "summary": summary(text), "slowest": slowest(text)}


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {seconds % 60:04.1f} s"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pytest_args = argv[argv.index("--") + 1:] if "--" in argv else []
    own = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="how many times (default 1)")
    ap.add_argument("--log", default=None,
                    help="pytest's output (default: .venv/test-time.log; run N adds .N)")
    opts = ap.parse_args(own)
    # the install, if one is due, happens here and is not timed (pytest --version: no tests)
    subprocess.run([sys.executable, str(COURSE), "test", "--version"], cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    base = Path(opts.log) if opts.log else ROOT / ".venv" / "test-time.log"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    shown = " ".join(["python3 course.py test", *pytest_args])
    print(f"timing `{shown}` on {cores} cores, {opts.runs} run(s)", flush=True)
    walls, code, last = [], 0, {}
    for n in range(1, opts.runs + 1):
        log = base if opts.runs == 1 else base.with_name(f"{base.name}.{n}")
        code, wall, last = one_run(pytest_args, log)
        walls.append(wall)
        others = ("" if last["others"] is None else
                  f"; the rest of the machine used {last['others']:.0f} CPU s meanwhile "
                  f"({last['others'] / wall:.1f} of {cores} cores)")
        print(f"run {n}: {minutes(wall)} wall, exit {code}: {last['summary']}\n"
              f"  the tests used {last['cpu']:.0f} CPU s ({last['cpu'] / wall:.2f} cores on "
              f"average){others}; load average before: {last['load_before']:.1f}; "
              f"log: {log}", flush=True)
    if len(walls) > 1:
        print(f"wall time over {len(walls)} runs: min {minutes(min(walls))}, median "
              f"{minutes(statistics.median(walls))}, max {minutes(max(walls))}")
    print("slowest 20 items (last run):")
    for line in last.get("slowest", []):
        print("  " + line)
    return code


if __name__ == "__main__":
    sys.exit(main())
