"""A kernel forked from the warm zygote is the kernel a plain start gives (tests/warm_kernels.py).

The same probe runs in a kernel started as usual and in one forked from the zygote: what
a notebook could see of its start (path, argv, folder, environment, signals, session,
backend, random state) must be the same, and an interrupt must reach the forked one.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
import warm_kernels
from jupyter_client.manager import KernelManager
from jupyter_client.provisioning import local_provisioner

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

PROBE = """
import json, os, random, signal, subprocess, sys
import matplotlib
from ipykernel.kernelapp import IPKernelApp
print(json.dumps({
    "path": sys.path, "argv0": os.path.basename(sys.argv[0]), "cwd": os.getcwd(),
    "probe_env": os.environ.get("WARM_PROBE"), "main": __name__,
    "session_leader": os.getsid(0) == os.getpid(),
    "sigchld": signal.getsignal(signal.SIGCHLD) == signal.SIG_DFL,
    "sigint": signal.getsignal(signal.SIGINT) is not signal.SIG_IGN,
    "backend": matplotlib.get_backend(), "parent_poller": bool(IPKernelApp.instance().parent_handle),
    "subprocess": subprocess.run(["echo", "ok"], capture_output=True, text=True).stdout,
    "hash": hash("course"), "random": random.random(),
}))
"""


def probe(tmp_path) -> dict:
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(tmp_path), env={**os.environ, "WARM_PROBE": "yes"})
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        out = []
        kc.execute_interactive(PROBE, timeout=60, output_hook=lambda m: out.append(
            m["content"].get("text", "")) if m["msg_type"] == "stream" else None)
        return {"forked": isinstance(km.provisioner.process, warm_kernels.ForkedKernel),
                **json.loads("".join(out))}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_forked_kernel_sees_what_a_plain_one_sees(tmp_path, monkeypatch):
    warm, again = probe(tmp_path), probe(tmp_path)
    monkeypatch.setattr(local_provisioner, "launch_kernel", warm_kernels.PLAIN)  # as usual
    cold = probe(tmp_path)
    assert warm.pop("forked") and again.pop("forked") and not cold.pop("forked")
    assert warm.pop("random") != again.pop("random")  # each fork draws its own state
    cold.pop("random")
    assert warm == cold == again
    assert warm["probe_env"] == "yes" and warm["subprocess"] == "ok\n" and warm["parent_poller"]


def test_an_interrupt_reaches_a_forked_kernel():
    km = KernelManager(kernel_name="python3")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        assert isinstance(km.provisioner.process, warm_kernels.ForkedKernel)
        msg_id = kc.execute("import time\ntime.sleep(60)")
        import time

        time.sleep(1)
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=20)
        while reply["msg_type"] == "kernel_info_reply":  # wait_for_ready's late answers
            reply = kc.get_shell_msg(timeout=20)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "error"
        assert reply["content"]["ename"] == "KeyboardInterrupt"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert not km.is_alive()


def test_only_the_plain_command_is_forked():
    python = sys.executable
    plain = [python, "-m", "ipykernel_launcher", "-f", "k.json"]
    assert warm_kernels._warm(plain, dict(os.environ))
    assert warm_kernels._warm([*plain, "--HistoryManager.hist_file=:memory:"], None)
    assert not warm_kernels._warm(["bwrap", "--", *plain], None)  # a grader's sandbox
    assert not warm_kernels._warm([python, "-m", "other", "-f", "k.json"], None)
    assert not warm_kernels._warm(plain, {"MPLBACKEND": "agg"})
