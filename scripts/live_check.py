"""Execute the lessons in the live profile, the way they would run on Claude.

    python scripts/live_check.py [--seed N] [--budget USD] [--jobs N] [NOTEBOOK...]  # stand-in
    python scripts/live_check.py --claude [--budget USD] [NOTEBOOK...]     # real Claude

By default every lesson runs in the live profile (AGENTLIB_PROFILE=live: the small sizes)
against the unscripted stand-in (AGENTLIB_UNSCRIPTED=1, AGENTLIB_SEED=N): no key, no
network, no cost. It fails on any error cell (cells tagged `raises-exception` may raise)
and prints what the pass would cost: the stand-in's usage priced with the catalog at the
default model's prices. With --claude (and ANTHROPIC_API_KEY set) the same lessons call
Claude and stop at their first error; the budget (AGENTLIB_BUDGET_USD, else $5) caps the
whole pass, each lesson getting what the ones before it left.

Notebooks run in a temporary folder (a copy of lessons/ beside links to bench/ and
docs/), never over the saved outputs. The executed copies are kept for reading in
runs/live-check/seed-N/ (stand-in) or runs/live/ (Claude), both git-ignored.
`--jobs N` (the stand-in only) runs N lessons at once, one process each: the report is the
same, in the same order; each lesson's budget is what the lessons finished before it
started left, and a pass whose total went over the budget ends as the budget stopping it.
Exit status: 0 if every lesson ran without an error cell, 1 otherwise, 3 when the budget
stopped the pass.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from execute_notebooks import LocalKernelManager, strip_volatile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CELL_TIMEOUT = 600  # live requests are slow; a retried 529 waits
LINKED = ("bench", "docs", "exercises", "solutions")  # what lessons read beside them
TOKENIZER = 1.3  # Claude's newer tokenizer counts ~30% more tokens than the stand-in's


def lesson_env(claude: bool, seed: int, budget: float, log: Path) -> dict[str, str]:
    """The environment a lesson's kernel inherits."""
    env = dict(os.environ, AGENTLIB_PROFILE="live", AGENTLIB_BUDGET_USD=f"{budget:.6f}",
               AGENTLIB_USAGE_LOG=str(log), PYTHONHASHSEED="0")
    env.pop("MPLBACKEND", None)
    if claude:
        for key in ("AGENTLIB_OFFLINE", "AGENTLIB_UNSCRIPTED", "AGENTLIB_SEED"):
            env.pop(key, None)
    else:
        env.update(AGENTLIB_OFFLINE="1", AGENTLIB_UNSCRIPTED="1", AGENTLIB_SEED=str(seed))
    return env


def errors_of(nb) -> list[dict]:
    """Error outputs of cells not tagged `raises-exception`: (cell, name, first line)."""
    found = []
    for i, cell in enumerate(nb.cells):
        if "raises-exception" in cell.get("metadata", {}).get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append({"cell": i, "ename": out["ename"],
                              "evalue": (out["evalue"].strip().splitlines() or [""])[0]})
    return found


def metered(log: Path) -> dict:
    """Sum of the usage lines a lesson's clients wrote."""
    total = {"calls": 0, "input": 0, "cache_read": 0, "cache_write": 0, "output": 0,
             "usd": 0.0}
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            u = json.loads(line)
            total["calls"] += u["calls"]
            total["input"] += u["input_tokens"]
            total["cache_read"] += u["cache_read"]
            total["cache_write"] += u["cache_write_5m"] + u["cache_write_1h"]
            total["output"] += u["output_tokens"]
            total["usd"] += u["usd"]
    return total


def run_one(path: Path, work: Path, env: dict, claude: bool) -> tuple[object, float]:
    """Execute a copy of `path` in `work`/lessons with `env`; return (notebook, seconds)."""
    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    folder = work / "lessons"
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    start = time.perf_counter()
    try:
        NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", record_timing=False,
                       kernel_manager_class=LocalKernelManager, store_widget_state=False,
                       coalesce_streams=True, allow_errors=not claude,
                       resources={"metadata": {"path": str(folder)}}).execute()
    except CellExecutionError:
        pass  # the error is in the notebook's outputs
    finally:
        os.environ.clear()
        os.environ.update(saved)
    strip_volatile(nb)
    return nb, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("notebooks", nargs="*", type=Path)
    p.add_argument("--seed", type=int, default=None,
                   help="the unscripted stand-in's seed (default: $AGENTLIB_SEED or 0)")
    p.add_argument("--claude", action="store_true",
                   help="call Claude (needs ANTHROPIC_API_KEY; costs money)")
    p.add_argument("--budget", type=float, default=None,
                   help="dollars for the whole pass (default: $AGENTLIB_BUDGET_USD or 5)")
    p.add_argument("--out", type=Path, default=None,
                   help="where to keep the executed copies (default: under runs/)")
    p.add_argument("--jobs", type=int, default=1,
                   help="lessons run at once (the stand-in only; default 1)")
    args = p.parse_args(argv)
    if args.jobs < 1 or (args.jobs > 1 and args.claude):
        print("--jobs is a number >= 1, and with --claude only 1 (the budget is spent in order)")
        return 2
    seed = args.seed if args.seed is not None else int(os.environ.get("AGENTLIB_SEED", "0"))
    budget = args.budget if args.budget is not None else \
        float(os.environ.get("AGENTLIB_BUDGET_USD", "") or 5.0)
    if args.claude and not os.environ.get("ANTHROPIC_API_KEY"):
        print("live-check --claude needs ANTHROPIC_API_KEY in the environment")
        return 2
    notebooks = [n.resolve() for n in args.notebooks] or \
        sorted((ROOT / "lessons").glob("*.ipynb"))
    out_dir = args.out or ROOT / "runs" / ("live" if args.claude else f"live-check/seed-{seed}")
    out_dir = out_dir.resolve()
    if out_dir in (ROOT / "lessons", ROOT / "solutions", ROOT / "exercises"):
        print(f"live-check never writes over {out_dir.name}/; choose another --out")
        return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    against = "Claude (real requests)" if args.claude else f"the unscripted stand-in, seed {seed}"
    shown = out_dir.relative_to(ROOT) if ROOT in out_dir.parents else out_dir
    print(f"live profile, against {against}; budget ${budget:.2f} for the pass; "
          f"executed copies in {shown}/", flush=True)
    rows, failed, stopped = [], [], None
    with tempfile.TemporaryDirectory(prefix="agentlib-live-check-") as tmp:
        work = Path(tmp)
        (work / "lessons").mkdir()
        for name in LINKED:
            if (ROOT / name).exists():
                (work / name).symlink_to(ROOT / name, target_is_directory=True)
        spent = 0.0
        pool = concurrent.futures.ProcessPoolExecutor(
            args.jobs, mp_context=multiprocessing.get_context("fork")) if args.jobs > 1 else None
        running: dict[Path, object] = {}

        def start(path: Path) -> None:  # with what the lessons finished so far left
            shutil.copy2(path, work / "lessons" / path.name)
            log = work / f"{path.stem}.usage.jsonl"
            env = lesson_env(args.claude, seed, max(budget - spent, 0.0), log)
            running[path] = (pool.submit(run_one, path, work, env, args.claude) if pool
                             else (path, work, env), log)

        queue = list(notebooks)
        while queue and len(running) < args.jobs:
            start(queue.pop(0))
        for path in notebooks:
            if path not in running:
                break  # the budget stopped the pass before it started
            job, log = running.pop(path)
            nb, seconds = job.result() if pool else run_one(*job, args.claude)
            with open(out_dir / path.name, "w", encoding="utf-8", newline="\n") as f:
                f.write(nbformat.writes(nb).rstrip("\n") + "\n")
            cost = metered(log)
            spent += cost["usd"]
            errors = errors_of(nb)
            status = "ok" if not errors else f"{len(errors)} error cell(s)"
            rows.append((path.name, status, cost, seconds))
            sent = cost["input"] + cost["cache_read"] + cost["cache_write"]
            print(f"{path.name:42} {status:18} {cost['calls']:>5} calls {sent:>10,} in "
                  f"{cost['output']:>8,} out ${cost['usd']:>8.4f} {seconds:6.1f} s", flush=True)
            for e in errors[:3]:
                print(f"    cell {e['cell']}: {e['ename']}: {e['evalue'][:160]}", flush=True)
            if errors:
                failed.append(path.name)
            budget_hit = next((e for e in errors if e["ename"] == "BudgetExceeded"), None)
            if budget_hit or (pool and spent > budget):
                stopped = (path.name, budget_hit["evalue"] if budget_hit else
                           f"the pass spent ${spent:.4f} of its ${budget:.2f}")
                break
            if queue:
                start(queue.pop(0))
        if pool:
            for job, _ in running.values():
                job.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
    total = sum(r[2]["usd"] for r in rows)
    calls = sum(r[2]["calls"] for r in rows)
    seconds = sum(r[3] for r in rows)
    print(f"\nmetered cost of the pass: ${total:.4f} in {calls:,} calls, {seconds:.0f} s "
          f"({len(rows)} notebooks), at catalog prices")
    if not args.claude:
        print(f"(stand-in token counts, cl100k; Claude's tokenizer counts about 30% more: "
              f"~${total * TOKENIZER:.4f} on Claude)")
    if stopped:
        print(f"\nthe budget stopped the pass in {stopped[0]}:\n  {stopped[1]}")
        return 3
    if failed:
        print(f"\n{len(failed)} notebook(s) with error cells: {', '.join(failed)}")
        return 1
    print("\nno error cell")
    return 0


if __name__ == "__main__":
    sys.exit(main())
