"""Peak memory of a learner's kernel per lesson, for sizing a JupyterHub.

    .venv/bin/python bench/kernel_memory.py [NOTEBOOK ...]   # default: every lesson

Runs each notebook top to bottom in a fresh kernel (offline, as a learner would), with one
extra cell at the end that reads the kernel's own peak resident memory (getrusage), and
prints a table: lesson, peak RSS in MB, wall seconds. The notebooks are not written.
"""

from __future__ import annotations

import os
import resource  # noqa: F401  (the kernel uses it; imported here to fail early off Unix)
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
PROBE = ("import resource, sys\n"
         "kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
         "print('PEAK_RSS_MB', round(kb / 1024 if sys.platform != 'darwin' else kb / 2**20))")


def peak_rss(path: Path) -> tuple[int, float]:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    start = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    return int(text.split("PEAK_RSS_MB")[1].split()[0]), time.perf_counter() - start


def main(argv: list[str]) -> int:
    os.environ["AGENTLIB_OFFLINE"] = "1"
    paths = [Path(p) for p in argv] or sorted((ROOT / "lessons").glob("0[1-9]_*.ipynb"))
    print(f"{'lesson':45} {'peak RSS':>9} {'seconds':>8}")
    for path in paths:
        mb, seconds = peak_rss(path)
        print(f"{path.name:45} {mb:>6} MB {seconds:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
