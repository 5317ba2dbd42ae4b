"""The stand-in's code execution sandbox: where a script that calls the client's tools runs.

A script runs in a fresh Python subprocess (`python -I`, empty environment) whose working
folder is a new temporary folder, deleted after it: no network (an audit hook refuses
every socket, and on Linux the process also runs in a network namespace of its own when
`unshare` allows), no files written, renamed or deleted outside that folder and nothing
read outside it but Python's own library, no subprocesses, CPU and memory limits
(`resource`) and a wall-clock limit. A script that runs past its limits is killed and
answered with the API's error shape (`execution_time_exceeded`); nothing here can hang.

Resuming without state: each call replays the script from the start, handing it the
results the client already sent for its earlier tool calls, in order, until it finishes or
waits on a call nobody answered yet. The course model's scripts are deterministic, so the
replay takes the same path. Calls made together (`asyncio.gather`) pause together.
Sources: docs/api-facts.md, section 20.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache

CPU_SECONDS = 10  # RLIMIT_CPU of a script
WALL_SECONDS = 15.0  # a script killed after this long, whatever it does
MEMORY_BYTES = 2 * 1024 ** 3
FILE_BYTES = 16 * 1024 ** 2
MAX_OUTPUT = 100_000  # characters of stdout or stderr kept

HARNESS = r'''
import ast, asyncio, io, json, os, sys, traceback
import collections, datetime, decimal, functools, itertools, math, re, statistics  # noqa
spec = json.loads(sys.stdin.read())
results, calls = spec["results"], []
HOME = os.path.realpath(os.getcwd())
ROOTS = tuple(os.path.realpath(p) for p in {sys.prefix, sys.base_prefix, sys.exec_prefix}
              | {p for p in sys.path if p and "site-packages" not in p})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
BLOCKED = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
           "os.fork", "os.forkpty", "os.kill", "os.killpg", "ctypes.", "os.putenv",
           "winreg.", "_winapi.")
PATHS = {"os.remove": 1, "os.rename": 2, "os.replace": 2, "os.rmdir": 1, "os.mkdir": 1,
         "os.chmod": 1, "os.chown": 1, "os.link": 2, "os.symlink": 2, "os.truncate": 1,
         "os.utime": 1, "os.chdir": 1, "shutil.rmtree": 1, "shutil.copyfile": 2,
         "shutil.copytree": 2, "shutil.move": 2}
READS = ("os.listdir", "os.scandir", "glob.glob", "os.walk")


def inside(path, roots):
    if path is None or isinstance(path, int):
        return True
    p = os.path.realpath(os.fsdecode(path))
    return any(p == r or p.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def hook(event, args):
    if event.startswith("socket."):
        raise PermissionError("sandbox: no network access")
    if event.startswith(BLOCKED):
        raise PermissionError(f"sandbox: {event} is not allowed")
    if event == "open":
        path, mode, flags = (list(args) + [None, None])[:3]
        writing = bool(mode and any(c in str(mode) for c in "wax+")) or bool(
            isinstance(flags, int) and flags & WRITE_FLAGS)
        if not inside(path, (HOME,)) and (writing or not inside(path, ROOTS)):
            raise PermissionError(f"sandbox: no access to {path!r} outside the working folder")
    elif event in PATHS:
        for path in args[:PATHS[event]]:
            if not inside(path, (HOME,)):
                raise PermissionError(f"sandbox: no access to {path!r} outside the working folder")
    elif event in READS and args and not inside(args[0], (HOME,) + ROOTS):
        raise PermissionError(f"sandbox: no access to {args[0]!r} outside the working folder")


def make(name):
    async def tool(**kwargs):
        k = len(calls)
        calls.append({"name": name, "input": kwargs})
        if k < len(results):
            return results[k]
        await asyncio.get_running_loop().create_future()  # waits for the client's result
    tool.__name__ = name
    return tool


scope = {"__name__": "__main__", **{n: make(n) for n in spec["tools"]}}
out, err = io.StringIO(), io.StringIO()
real = sys.stdout
status, code = "done", 0


async def run():
    compiled = compile(spec["code"], "<code_execution>", "exec",
                       flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(compiled, scope)
    if asyncio.iscoroutine(result):
        await result


async def main():
    task = asyncio.ensure_future(run())
    idle = 0
    while not task.done():
        before = len(calls)
        await asyncio.sleep(0)
        idle = idle + 1 if len(calls) == before and len(calls) > len(results) else 0
        if idle > 100:
            task.cancel()
            return "paused"
    task.result()
    return "done"


loop = asyncio.new_event_loop()  # its self-pipe is a socketpair: made before the hook
sys.addaudithook(hook)
sys.stdout, sys.stderr = out, err
try:
    status = loop.run_until_complete(main())
except BaseException:
    traceback.print_exc(file=err)
    code = 1
sys.stdout, sys.stderr = real, sys.__stderr__
real.write(json.dumps({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue(),
                       "return_code": code, "calls": calls}))
'''


@lru_cache(maxsize=1)
def _netns() -> list[str]:
    """`unshare -rn` when this machine allows it (Linux, user namespaces), else nothing."""
    tool = shutil.which("unshare")
    if not tool or not sys.platform.startswith("linux"):
        return []
    try:
        ok = subprocess.run([tool, "-rn", sys.executable, "-c", "pass"], capture_output=True,
                            timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        ok = False
    return [tool, "-rn"] if ok else []


def _limits() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
    for limit, value in ((resource.RLIMIT_AS, MEMORY_BYTES), (resource.RLIMIT_FSIZE, FILE_BYTES)):
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):
            pass


def run(code: str, tools: list[str], results: list[str]) -> dict:
    """Run `code` with `tools` as async functions, the first calls answered by `results`.

    Returns {"status": "done" | "paused" | "error", "stdout", "stderr", "return_code",
    "calls": [{"name", "input"}, ...]} (every call the script made, answered or not), or
    for a script killed at its limits {"status": "error", "error_code":
    "execution_time_exceeded"}.
    """
    spec = json.dumps({"code": code, "tools": tools, "results": results})
    home = tempfile.mkdtemp(prefix="standin-code-")
    try:
        proc = subprocess.run(
            [*_netns(), sys.executable, "-I", "-c", HARNESS], input=spec, capture_output=True,
            text=True, cwd=home, env={"PYTHONIOENCODING": "utf-8", "PYTHONHASHSEED": "0"},
            timeout=WALL_SECONDS, preexec_fn=_limits if os.name == "posix" else None)
    except subprocess.TimeoutExpired:
        return {"status": "error", "error_code": "execution_time_exceeded"}
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if proc.returncode != 0 or not proc.stdout:
        if proc.returncode in (-9, -24, 137, 152):  # SIGKILL, SIGXCPU: past its CPU limit
            return {"status": "error", "error_code": "execution_time_exceeded"}
        return {"status": "error", "error_code": "unavailable"}
    report = json.loads(proc.stdout)
    for key in ("stdout", "stderr"):
        if len(report[key]) > MAX_OUTPUT:
            report[key] = report[key][:MAX_OUTPUT] + f"\n[output cut at {MAX_OUTPUT} characters]"
    return report
