"""Re-execute notebooks in place, so their saved outputs are fresh and reproducible.

    python scripts/execute_notebooks.py [NOTEBOOK...]   # default: lessons/ and solutions/
    python scripts/execute_notebooks.py --time-only lessons/*.ipynb   # how long each takes

Each notebook runs top to bottom in a fresh kernel, in its own folder, offline
(AGENTLIB_OFFLINE=1) with PYTHONHASHSEED=0, 120 s per cell. Plots stay inline images
(MPLBACKEND is removed so the kernel's inline backend is used). Cells tagged
`raises-exception` may raise; any other error stops that notebook and leaves the file
untouched. Timing metadata is not recorded and consecutive prints are merged into one
output however they were flushed, so re-running gives a stable diff. The wall
time of each notebook is printed here, never written into the notebook; `--time-only`
runs and times them the same way and writes nothing, and also prints the CPU time the
kernel used (which other work on the machine inflates less than the wall time): the start
page's "how long a lesson runs" is measured so.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager
from jupyter_core.paths import jupyter_runtime_dir
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from traitlets import CaselessStrEnum, default

ROOT = Path(__file__).resolve().parent.parent
CELL_TIMEOUT = 120
VOLATILE_CELL_METADATA = ("execution", "ExecuteTime")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# What JupyterLab writes when it opens a notebook: saved the same, opening changes nothing.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


class LocalKernelManager(KernelManager):
    """A kernel reached over local sockets (IPC) instead of TCP: nothing listens on a port,
    and the kernel has no reason to warn that its traffic is unencrypted. The socket path
    is absolute, since the kernel runs in the notebook's folder, not in ours."""

    transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

    @default("ip")
    def _absolute_ip(self) -> str:
        folder = jupyter_runtime_dir()
        os.makedirs(folder, exist_ok=True)
        return os.path.join(folder, f"agentlib-kernel-{uuid.uuid4().hex[:12]}")


def deterministic_env() -> None:
    """Set this process's environment, which the kernel inherits."""
    os.environ["AGENTLIB_OFFLINE"] = "1"
    os.environ["PYTHONHASHSEED"] = "0"
    os.environ.pop("MPLBACKEND", None)
    os.environ.pop("AGENTLIB_LANG", None)  # each notebook's language is its own (its folder)


def strip_volatile(nb: nbformat.NotebookNode) -> None:
    """Drop what changes on every run or cannot be shown later: cell timings, and widgets.

    Widget state is not saved (its model ids change every run), so a saved widget view
    would point at nothing: it is dropped, and the output's other forms stay (the
    course's viewer carries a static picture and a line saying how to get the slider).
    """
    for cell in nb.cells:
        for key in VOLATILE_CELL_METADATA:
            cell.metadata.pop(key, None)
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)


def children_cpu() -> float:
    """CPU seconds used so far by this process's finished children (0 where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def execute(path: Path, timeout: int = CELL_TIMEOUT, write: bool = True) -> float:
    """Execute `path` in place (or only run it: `write=False`); return its wall time in
    seconds."""
    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    start = time.perf_counter()
    NotebookClient(
        nb, timeout=timeout, kernel_name="python3", record_timing=False,
        kernel_manager_class=LocalKernelManager,
        store_widget_state=False, coalesce_streams=True,  # one stdout block, however flushed
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    seconds = time.perf_counter() - start
    if not write:
        return seconds
    strip_volatile(nb)
    text = nbformat.writes(nb).rstrip("\n") + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return seconds


def default_notebooks() -> list[Path]:
    """Every notebook in lessons/ and solutions/, then the Korean edition's (lessons/ko/,
    solutions/ko/; their kernels run in ko/, so agentlib speaks Korean there)."""
    return [p for folder in ("lessons", "solutions", "lessons/ko", "solutions/ko")
            for p in sorted((ROOT / folder).glob("*.ipynb"))]


def main(argv: list[str] | None = None) -> int:
    """Execute the named notebooks (or the defaults); return 1 if any failed."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("notebooks", nargs="*", type=Path)
    p.add_argument("--timeout", type=int, default=CELL_TIMEOUT, help="seconds per cell")
    p.add_argument("--time-only", action="store_true",
                   help="run and time each notebook in a fresh kernel; write nothing")
    args = p.parse_args(argv)
    notebooks = args.notebooks or default_notebooks()
    if not notebooks:
        print("no notebooks found in lessons/ or solutions/")
        return 0
    deterministic_env()
    failed = []
    for path in notebooks:
        cpu = children_cpu()
        try:
            seconds = execute(path, args.timeout, write=not args.time_only)
        except CellExecutionError as exc:
            failed.append(path)
            print(f"FAILED {path}: {str(exc).strip().splitlines()[-1]}", flush=True)
            continue
        except Exception as exc:
            failed.append(path)
            print(f"FAILED {path}: {type(exc).__name__}: {exc}", flush=True)
            continue
        used = f"  {children_cpu() - cpu:6.1f} s CPU" if args.time_only else ""
        print(f"{seconds:7.1f} s{used}  {path}", flush=True)
    if failed:
        print(f"{len(failed)} notebook(s) failed; their files were left unchanged")
    elif args.time_only:
        print("timed only: no notebook was written")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
