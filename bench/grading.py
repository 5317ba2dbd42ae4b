"""How long grading a class takes: N copies of one solution notebook, graded as N students.

    .venv/bin/python bench/grading.py [--assignment 02] [--students 30] [--jobs N]

Prints the wall time of `python -m classroom.grade` (default --jobs: the core count), the
CPU time it and its processes used (what a busy machine changes least), and checks that
every student got full marks. Offline; writes only to a temporary folder.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--assignment", default="02")
    p.add_argument("--students", type=int, default=30)
    p.add_argument("--jobs", type=int, default=None)
    args = p.parse_args()
    source = next((ROOT / "solutions").glob(f"{args.assignment}_*.ipynb"))
    with tempfile.TemporaryDirectory(prefix="agentlib-bench-grading-") as tmp:
        folder = Path(tmp) / args.assignment
        folder.mkdir()
        for i in range(args.students):
            shutil.copy(source, folder / f"student{i:02d}.ipynb")
        cmd = [sys.executable, "-m", "classroom.grade", str(folder), "--csv",
               str(Path(tmp) / "grades.csv")]
        if args.jobs:
            cmd += ["--jobs", str(args.jobs)]
        start, used = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        seconds = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
        with open(Path(tmp) / "grades.csv", encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    full = sum(r["passed"] == r["total"] for r in rows)
    print(f"assignment {args.assignment}: {len(rows)} notebooks graded in {seconds:.1f} s "
          f"with --jobs {args.jobs or os.cpu_count()} on {os.cpu_count()} cores "
          f"({seconds / len(rows):.2f} s each, {cpu / len(rows):.2f} CPU s each); {full} with "
          "full marks")
    return 0 if full == len(rows) == args.students else 1


if __name__ == "__main__":
    sys.exit(main())
