"""A learner's session in a real browser: JupyterLab in headless Chromium, driven by Playwright.

    python scripts/browser_test.py [--out runs/browser] [--chromium PATH]

It copies the course's notebooks to a temporary folder (so nothing here can change the
repository), starts JupyterLab there on a free loopback port with a token, and then:
opens every lesson and checks that opening it does not mark it changed; runs all cells of
lesson 01 and checks that no cell shows an error; moves the context-window viewer's
slider with the keyboard and checks that the view changes. Screenshots go to --out. It
stops only the processes it started. Exit status 0: passed; 1: failed; 3: skipped (no
Chromium on this machine; the message says how to install it).
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSON = "lessons/01_append_only_growth.ipynb"
KOREAN = "lessons/ko/01_append_only_growth.ipynb"  # the Korean edition's twin
CHROMIUM_FLAGS = ["--headless=new", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]
SKIPPED = 3


def find_chromium(given: str | None) -> str | None:
    for name in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome"]:
        path = shutil.which(name) if name else None
        if path:
            return path
    return None


def notebooks_only(folder: str, names: list[str]) -> list[str]:
    """What copytree leaves out: everything but notebooks and folders (no checkpoints)."""
    return [n for n in names if n == ".ipynb_checkpoints" or not (
        n.endswith(".ipynb") or os.path.isdir(os.path.join(folder, n)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_lab(root: Path, port: int, token: str, log: Path) -> subprocess.Popen:
    """JupyterLab on 127.0.0.1:port in its own process group (so we stop exactly it)."""
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.root_dir={root}",
           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
           f"--IdentityProvider.token={token}", "--ServerApp.port_retries=0"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    env = dict(os.environ, AGENTLIB_OFFLINE="1", PYTHONHASHSEED="0")
    out = open(log, "w", encoding="utf-8")  # noqa: SIM115 (closed by the process's end)
    return subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_ready(port: int, token: str, proc: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}",
                                        timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"JupyterLab did not answer on port {port} within {seconds:.0f} s")


def open_notebook(page, base: str, path: str) -> None:
    """Open `path` and wait until its kernel is idle."""
    page.goto(f"{base}/lab/tree/{path}?token={page.token}")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook", timeout=60_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".jp-Notebook-ExecutionIndicator')].some(e => e.dataset.status === 'idle')",
        timeout=90_000)


def dirty(page) -> bool:
    return page.locator(".lm-TabBar-tab.jp-mod-dirty").count() > 0


def check(ok: bool, what: str, failures: list[str]) -> None:
    print(("PASS  " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def run_all(page) -> list[str]:
    """Run ▸ Run All Cells on the open notebook, wait until done; the error outputs' texts."""
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
    page.wait_for_function(
        "() => { const n = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');"
        " const busy = [...n.querySelectorAll('.jp-InputPrompt')]"
        ".some(p => p.textContent.includes('*'));"
        " const idle = n.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status"
        " === 'idle'; return !busy && idle; }", timeout=150_000)
    errors = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) "
                          "[data-mime-type='application/vnd.jupyter.stderr']")
    return [errors.nth(i).inner_text()[:200] for i in range(errors.count())]


def session(chromium: str, root: Path, base: str, token: str, out: Path) -> list[str]:
    from playwright.sync_api import sync_playwright

    failures: list[str] = []
    lessons = sorted(p.relative_to(root).as_posix() for p in (root / "lessons").glob("*.ipynb"))
    lessons.append(KOREAN)
    before = {p: (root / p).read_bytes() for p in lessons}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        flags = CHROMIUM_FLAGS + (["--no-sandbox"] if os.geteuid() == 0 else [])
        browser = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=flags, headless=True,
            viewport={"width": 1400, "height": 900})
        page = browser.new_page()
        page.token = token
        for path in lessons:  # opening a notebook must change nothing
            open_notebook(page, base, path)
            page.wait_for_timeout(1500)  # time for anything that would rewrite metadata
            check(not dirty(page), f"{path} opens without being marked changed", failures)
        page.screenshot(path=str(out / "01-opened.png"))

        open_notebook(page, base, LESSON)
        texts = run_all(page)
        check(not texts, f"{LESSON}: every cell ran without an error" +
              (f" (first: {texts[0]!r})" if texts else ""), failures)
        page.screenshot(path=str(out / "02-ran-all-cells.png"), full_page=True)

        viewer = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-vbox").last
        viewer.scroll_into_view_if_needed()
        caption = viewer.locator(".widget-html-content").first
        shown = ""
        for _ in range(60):  # the live viewer renders after its cell finished: wait for it
            shown = caption.inner_text() if caption.count() else ""
            if shown.startswith("step "):
                break
            page.wait_for_timeout(500)
        viewer.locator(".noUi-handle, .widget-slider input, [role=slider]").first.focus()
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(1000)
        moved = caption.inner_text()
        check(shown.startswith("step ") and moved != shown,
              f"the viewer's slider moves with the keyboard ({shown[:16]!r} -> {moved[:16]!r})",
              failures)
        viewer.screenshot(path=str(out / "03-viewer-after-arrow-left.png"))

        open_notebook(page, base, KOREAN)  # the Korean edition: same code, Korean words
        texts = run_all(page)
        check(not texts, f"{KOREAN}: every cell ran without an error" +
              (f" (first: {texts[0]!r})" if texts else ""), failures)
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        heading = panel.locator(".jp-RenderedMarkdown h1").first.inner_text()
        captions = panel.locator(".widget-vbox .widget-html-content")
        caption = ""
        for _ in range(60):  # the live viewer renders after its cell finished: wait for it
            caption = " ".join(captions.nth(i).inner_text() for i in range(captions.count()))
            if re.search("[\uac00-\ud7a3]", caption):
                break
            page.wait_for_timeout(500)
        check("레슨 1" in heading and re.search("[\uac00-\ud7a3]", caption) is not None
              and "messages ·" not in caption,
              f"the Korean lesson reads in Korean ({heading[:20]!r}, viewer {caption[:24]!r})",
              failures)
        fonts = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True,
                               text=True).stdout.split() if shutil.which("fc-list") else []
        if fonts:
            print(f"PASS  the browser has a Korean font ({fonts[0]})", flush=True)
        else:  # the check above reads the page's text; without a font it shows empty boxes
            print("NOTE  no Korean font on this system: the screenshot shows boxes for Hangul "
                  "(Debian/Ubuntu: `sudo apt install fonts-nanum`)", flush=True)
        page.screenshot(path=str(out / "04-korean-ran-all-cells.png"), full_page=True)
        browser.close()
    changed = [p for p in lessons if (root / p).read_bytes() != before[p]]
    check(not changed, "no notebook file was written by opening or running it"
          + (f" (changed: {changed})" if changed else ""), failures)
    return failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "runs" / "browser"))
    ap.add_argument("--chromium", default=None)
    args = ap.parse_args(argv)
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("browser test skipped: no Chromium found. Install it with your package manager "
              "(Debian/Ubuntu: `sudo apt install chromium`), or pass --chromium PATH.")
        return SKIPPED
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="agentlib-browser-") as tmp:
        root = Path(tmp)
        for folder in ("lessons", "exercises"):
            shutil.copytree(ROOT / folder, root / folder, ignore=notebooks_only)
        port, token = free_port(), secrets.token_hex(16)
        proc = start_lab(root, port, token, out / "jupyterlab.log")
        try:
            wait_ready(port, token, proc)
            failures = session(chromium, root, f"http://127.0.0.1:{port}", token, out)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)  # our JupyterLab and its kernels only
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
    print(f"browser test: {'FAILED' if failures else 'passed'} in "
          f"{time.monotonic() - started:.0f} s; screenshots in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
