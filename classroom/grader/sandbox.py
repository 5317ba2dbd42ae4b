"""Start the runner isolated, with limits, and leave nothing behind.

Two levels, the strongest the system allows (`isolation_mode` probes once):

- "namespaces" (Linux, no root needed where user namespaces are allowed): the runner
  gets its own user, PID, mount, network, IPC and UTS namespaces. Its filesystem is a
  new root holding only what Python needs, read-only (the system's /usr, the Python
  installation, the learner kernel's pristine copy of the course: the agent and the kit,
  no checks), a writable folder shared with the grader, and private /tmp and home
  folders in memory. The course folder, its solutions/, the grades and the teacher's
  files are not there; no network; the grader's processes are not visible, so they
  cannot be signalled; when the runner ends, every process it started ends with the
  namespace.
- "process" (anywhere else): a process group, a child subreaper that kills whatever
  the notebook left running, and the same resource limits. The notebook runs as the
  grader's user and could reach the grader's files: grade untrusted notebooks in a
  container there.

Both apply resource limits (CPU seconds, memory, file size, processes, open files),
give the runner an environment with only what it needs (no teacher variables, no API
key), and discard what the notebook prints.

    python -m classroom.grader.sandbox SPEC_JSON   (started by `start`, not by hand)
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from .channel import Channel

BOX = "_gradebox"
"""The package name of the grader's private modules in a sandbox (classroom/grade.py copies
the runner, its channel, its wire and the watch there): on no path the notebook can import."""
INNER_UID = INNER_GID = 1000
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC, MS_PRIVATE = 1024, 2048, 4096, 16384, 1 << 18
MS_RELATIME, MNT_DETACH = 1 << 21, 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41}
ETC_FILES = ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group",
             "nsswitch.conf", "hosts", "mime.types", "ssl", "ca-certificates",
             "alternatives", "fonts"]
SYSTEM_DIRS = ["/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin"]
DEVICES = ["null", "zero", "full", "random", "urandom"]


@dataclass
class Limits:
    """What one notebook may use; the defaults fit every lesson with room to spare."""

    cpu_seconds: int = 600
    memory_mb: int = 1024
    file_mb: int = 64
    processes: int = 64
    open_files: int = 256
    tmp_mb: int = 256


# ---------------------------------------------------------------- the grader's side


def exposed_paths(*sites: Path) -> list[str]:
    """What the runner's root holds, read-only: the system, Python, the kernel's copy of the
    course (the agent, the kit, no checks) and the grader's private modules."""
    paths = [p for p in SYSTEM_DIRS if os.path.lexists(p)]
    paths += [f"/etc/{name}" for name in ETC_FILES if os.path.lexists(f"/etc/{name}")]
    for prefix in (sys.base_prefix, sys.base_exec_prefix, sys.prefix, sys.exec_prefix):
        real = os.path.realpath(prefix)
        if not any(real == p or real.startswith(p + "/") for p in paths):
            paths.append(real)
    paths += [str(site) for site in sites]
    return paths


COURSE = ("agentlib", "apiwire", "standin", "coursekit", "classroom")


def hidden_copies(exposed: list[str]) -> list[str]:
    """The course's packages installed in a site-packages folder the sandbox shows (a
    regular `pip install`, not an editable one): covered with an empty folder, so that the
    course's own source is not on the sandbox's disk outside its withheld copy."""
    import site

    found = []
    for folder in {*site.getsitepackages(), site.getusersitepackages()}:
        real = os.path.realpath(folder)
        if not any(real == p or real.startswith(p + "/") for p in exposed):
            continue
        found += [f"{real}/{name}" for name in COURSE if os.path.isdir(f"{real}/{name}")]
    return found


def runner_env(home: str, tmp: str, path: str) -> dict[str, str]:
    """The runner's whole environment: nothing of the teacher's, no key, always offline,
    one thread per numeric library (a notebook's threads are the notebook's)."""
    bin_dir = os.path.dirname(sys.executable)
    return {"PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": tmp,
            "USER": "student", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "PYTHONPATH": path, "PYTHONHASHSEED": "0", "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1", "AGENTLIB_OFFLINE": "1", "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": f"{home}/.matplotlib", "IPYTHONDIR": f"{home}/.ipython",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}


class Sandbox:
    """A running sandbox: its process, the channel to its runner, and (once found) the
    runner's pid as the grader sees it; the grader polices the notebook's processes from
    here, outside the notebook's reach."""

    def __init__(self, process: subprocess.Popen, channel: Channel, work: Path,
                 mode: str = "process") -> None:
        self.process, self.channel, self.work, self.mode = process, channel, work, mode
        self.runner: int | None = None
        self.frozen = False  # the runner can start no thread or process (`freeze`)

    def find_runner(self) -> int | None:
        """The runner's pid (call when it says hello: only it and its init are there)."""
        below = descendants(self.process.pid)
        self.runner = below[-1] if below else None
        return self.runner

    def stop_strays(self) -> int:
        """Kill every process of the sandbox but its init and the runner; how many."""
        if self.runner is None:
            return 0
        keep = {self.runner, *self._chain()}
        strays = [p for p in descendants(self.process.pid) if p not in keep]
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return len(strays)

    def _chain(self) -> list[int]:
        """The sandbox's own processes above the runner (its init, in namespaces)."""
        table = parents()
        chain, pid = [], self.runner
        while pid in table and table[pid] != self.process.pid and pid != self.process.pid:
            pid = table[pid]
            chain.append(pid)
        return chain

    def runner_threads(self) -> int:
        return threads(self.runner) if self.runner is not None else 0

    def freeze(self) -> bool:
        """Let the runner start no thread and no process from now on (its RLIMIT_NPROC set
        from outside to 1, which it cannot raise); False where that does not hold: Linux does
        not apply the limit to a process whose user is root outside every namespace, and a
        sandbox started by root maps its user to root (grade as another user to get it)."""
        if self.runner is None or not hasattr(resource, "prlimit"):
            return False
        try:
            resource.prlimit(self.runner, resource.RLIMIT_NPROC, (1, 1))
            with open(f"/proc/{self.runner}/status", encoding="utf-8") as f:
                uid = next(line.split()[1] for line in f if line.startswith("Uid:"))
        except (OSError, ValueError, StopIteration):
            return False
        return uid != "0"

    def alive(self) -> bool:
        return self.process.poll() is None

    def exit_note(self) -> str:
        """How the sandbox ended, in words ('' while it runs)."""
        code = self.process.poll()
        if code is None:
            return ""
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else -code
            return f"killed by {name}"
        return f"exit code {code}"

    def close(self) -> None:
        """Stop everything the notebook started, then remove its folders."""
        if self.process.poll() is None:
            try:
                self.process.send_signal(signal.SIGTERM)  # the supervisor kills its tree
                self.process.wait(2)
            except (subprocess.TimeoutExpired, OSError):
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.process.kill()
        except OSError:
            pass
        self.process.wait()
        for fd in (self.channel.read_fd, self.channel.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.work, ignore_errors=True)


def start(work: Path, site: Path, mode: str, limits: Limits, box: Path | None = None
          ) -> Sandbox:
    """Start a runner for one notebook, its folders under `work` (made here). `site` is the
    kernel's copy of the course; `box` the folder of the grader's private modules (package
    BOX), else the runner comes from `site` itself (classroom.grader, as in the repository)."""
    for name in ("root", "shared", "home", "tmp"):
        (work / name).mkdir(parents=True, exist_ok=True)
    os.chmod(work, 0o755)
    down_r, down_w = os.pipe()
    up_r, up_w = os.pipe()
    home = str(work / "home")
    tmp = "/tmp" if mode == "namespaces" else str(work / "tmp")
    package = BOX if box is not None else "classroom"
    path = f"{box}:{site}" if box is not None else str(site)
    exposed = exposed_paths(*(p for p in (site, box) if p is not None)) \
        if mode == "namespaces" else []
    spec = {"mode": mode, "limits": asdict(limits), "fds": [down_r, up_w],
            "root": str(work / "root"), "shared": str(work / "shared"), "home": home,
            "exposed": exposed, "hidden": hidden_copies(exposed),
            "env": runner_env(home, tmp, path), "runner": f"{package}.grader.runner",
            "python": sys.executable}
    process = subprocess.Popen(
        [sys.executable, "-P", "-m", f"{package}.grader.sandbox", json.dumps(spec)],
        pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=None if os.environ.get("AGENTLIB_SANDBOX_DEBUG") else subprocess.DEVNULL,
        start_new_session=True, cwd=str(work),
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(box if box is not None else site),
             "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    os.close(down_r)
    os.close(up_w)
    return Sandbox(process, Channel(up_r, down_w), work, mode)


@cache
def isolation_mode(site: str, box: str | None = None) -> str:
    """'namespaces' when a namespaced runner can start here (probed once), else 'process'."""
    if sys.platform != "linux" or os.environ.get("AGENTLIB_SANDBOX") == "process":
        return "process"
    import tempfile

    work = Path(tempfile.mkdtemp(prefix="agentlib-probe-"))
    sandbox = start(work, Path(site), "namespaces", Limits(cpu_seconds=30),
                    Path(box) if box else None)
    try:
        hello = sandbox.channel.receive(deadline=time.monotonic() + 30)
        ok = hello.get("op") == "hello"
    except Exception:
        ok = False
    finally:
        sandbox.close()
    return "namespaces" if ok else "process"


# ---------------------------------------------------------------- the notebook's processes


def parents() -> dict[int, int]:
    """pid -> parent pid of every process this one can see (from /proc/*/stat)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                    found[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    return found


def descendants(pid: int, table: dict[int, int] | None = None) -> list[int]:
    """Every process below `pid`, parents before children."""
    table = parents() if table is None else table
    kids: dict[int, list[int]] = {}
    for child, parent in table.items():
        kids.setdefault(parent, []).append(child)
    out, stack = [], sorted(kids.get(pid, []), reverse=True)
    while stack:
        p = stack.pop()
        out.append(p)
        stack += sorted(kids.get(p, []), reverse=True)
    return out


def threads(pid: int) -> int:
    """How many threads process `pid` runs (0 if it is gone)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


# ---------------------------------------------------------------- inside: the syscalls

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    def enc(s):
        return (s.encode() if s is not None else None)
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags),
                       enc(data)), f"mount {target}")


def _prctl(option: int, value: int) -> None:
    _libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0)


def _locked_flags(path: str) -> int:
    """The flags a read-only remount of `path` must keep (a user namespace cannot drop them)."""
    f = os.statvfs(path).f_flag
    flags = 0
    for st, ms in ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV),
                   (os.ST_NOEXEC, MS_NOEXEC), (os.ST_NOATIME, MS_NOATIME),
                   (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME)):
        if f & st:
            flags |= ms
    return flags


def _bind(source: str, root: str, writable: bool = False) -> None:
    """Show `source` at the same path under `root` (read-only unless `writable`)."""
    target = root + source
    if os.path.islink(source):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.symlink(os.readlink(source), target)
        return
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            open(target, "a", encoding="utf-8").close()
    _mount(source, target, None, MS_BIND | MS_REC)
    if not writable:
        _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | _locked_flags(target))


def _tmpfs(target: str, size_mb: int, mode: str) -> None:
    os.makedirs(target, exist_ok=True)
    _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size_mb}m,mode={mode}")


def _readonly_submounts(root: str, writable: set[str]) -> None:
    """Remount read-only every mount under `root` a recursive bind brought along."""
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        points = [line.split()[4].replace("\\040", " ") for line in f]
    for point in points:
        if point.startswith(root + "/") and point not in writable:
            try:
                _mount(None, point, None,
                       MS_REMOUNT | MS_BIND | MS_RDONLY | _locked_flags(point))
            except OSError:
                pass  # e.g. a mount we may not touch; it was read-only for us already


def _build_root(spec: dict) -> None:
    """The runner's filesystem (see the module docstring), then pivot into it."""
    root, limits = spec["root"], spec["limits"]
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=0755")
    _tmpfs(root + "/tmp", limits["tmp_mb"], "1777")  # first: the work folders may be in /tmp
    for path in spec["exposed"]:
        _bind(path, root)
    for path in spec.get("hidden", []):  # an installed copy of the course: not here
        _tmpfs(root + path, 1, "0555")
    _bind(spec["shared"], root, writable=True)
    _tmpfs(root + spec["home"], limits["tmp_mb"], "0777")
    dev = root + "/dev"
    _tmpfs(dev, 1, "0755")
    for name in DEVICES:
        if os.path.exists(f"/dev/{name}"):
            open(f"{dev}/{name}", "a", encoding="utf-8").close()
            _mount(f"/dev/{name}", f"{dev}/{name}", None, MS_BIND)
    _tmpfs(dev + "/shm", limits["tmp_mb"], "1777")
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{dev}/{name}")
    os.makedirs(root + "/proc", exist_ok=True)
    try:
        _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError:
        pass  # some containers forbid it; the runner then has no /proc
    writable = {root + spec["shared"], root + spec["home"], root + "/tmp", dev + "/shm",
                root + "/proc"}
    _readonly_submounts(root, writable)
    os.chdir(root)
    os.mkdir(".old")
    number = SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is None or _libc.syscall(number, b".", b".old") != 0:
        raise OSError(ctypes.get_errno(), "pivot_root failed")
    os.chdir("/")
    _check(_libc.umount2(b"/.old", MNT_DETACH), "umount the old root")
    os.rmdir("/.old")
    _mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    try:
        _libc.sethostname(b"sandbox", 7)
    except Exception:
        pass


def _set_limits(limits: dict, uid: int, processes: bool) -> None:
    def cap(kind: int, value: int) -> None:
        soft, hard = resource.getrlimit(kind)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(kind, (value, value))

    cpu = int(limits["cpu_seconds"])
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5 if hard == resource.RLIM_INFINITY
                                             else min(cpu + 5, hard)))
    cap(resource.RLIMIT_DATA, int(limits["memory_mb"]) << 20)
    cap(resource.RLIMIT_FSIZE, int(limits["file_mb"]) << 20)
    cap(resource.RLIMIT_NOFILE, int(limits["open_files"]))
    cap(resource.RLIMIT_CORE, 0)
    if processes:
        cap(resource.RLIMIT_NPROC, int(limits["processes"]))


def _exec_runner(spec: dict) -> None:
    """In the child: become the runner (never returns)."""
    read_fd, write_fd = spec["fds"]
    os.set_inheritable(read_fd, True)
    os.set_inheritable(write_fd, True)
    os.closerange(3, min(read_fd, write_fd))
    os.chdir(spec["home"])
    python = spec["python"]
    os.execve(python, [python, "-P", "-m", spec["runner"], str(read_fd), str(write_fd)],
              spec["env"])


def _close(fds: list[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def _reap_until(runner: int) -> int:
    """Reap children until `runner` ends; its exit code."""
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            return 1
        if pid == runner:
            return os.waitstatus_to_exitcode(status)


def _children() -> list[int]:
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                    stat = f.read()
                if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                    found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def _kill_descendants() -> None:
    """As a child subreaper: kill and reap until no descendant is left."""
    for _ in range(200):
        children = _children()
        if not children:
            return
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        time.sleep(0.01)


def _namespaced(spec: dict) -> int:
    uid, gid = os.getuid(), os.getgid()
    _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET
                         | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{INNER_UID} {uid} 1"),
                       ("gid_map", f"{INNER_GID} {gid} 1")):
        with open(f"/proc/self/{name}", "w", encoding="utf-8") as f:
            f.write(text)
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    init = os.fork()
    if init == 0:  # PID 1 of the new namespace
        try:
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            _prctl(PR_SET_DUMPABLE, 0)
            _build_root(spec)
            _prctl(PR_SET_NO_NEW_PRIVS, 1)
            _set_limits(spec["limits"], uid, processes=True)
            runner = os.fork()
            if runner == 0:
                os.setsid()
                _exec_runner(spec)
            _close(spec["fds"])  # only the runner talks to the grader
            os._exit(_reap_until(runner))
        except BaseException:
            traceback.print_exc()
            os._exit(70)
    _close(spec["fds"])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(143))  # init dies with us
    _, status = os.waitpid(init, 0)
    return os.waitstatus_to_exitcode(status)


def _supervised(spec: dict) -> int:
    _prctl(PR_SET_CHILD_SUBREAPER, 1)

    def stop(*_: object) -> None:
        _kill_descendants()
        os._exit(143)

    signal.signal(signal.SIGTERM, stop)
    runner = os.fork()
    if runner == 0:
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        _set_limits(spec["limits"], os.getuid(), processes=False)
        _exec_runner(spec)
    _close(spec["fds"])
    code = _reap_until(runner)
    _kill_descendants()
    return code


def main(argv: list[str]) -> int:
    spec = json.loads(argv[0])
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the grader gone, the sandbox goes
    if spec["mode"] == "namespaces":
        return _namespaced(spec)
    return _supervised(spec)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
