"""A learner's session in a real browser: JupyterLab in headless Chromium, driven by Playwright.

    python scripts/browser_test.py [--out runs/browser] [--chromium PATH]

It copies the course's notebooks to a temporary folder (so nothing here can change the
repository) and starts JupyterLab there as `course.py lab` starts it (its `lab_command`:
the same start page, settings and hidden teacher's extensions), on a free loopback port
with a token, and then: checks what a learner sees first (the course's start page, no
Nbgrader menu or panel, no prompt about Jupyter news); opens every lesson and checks that
opening it does not mark it changed; runs all cells of lesson 01 and checks that no cell
shows an error; moves the context-window viewer's slider with the keyboard and checks
that the view changes; opens the capstone's leaderboard page (a made-up class, in English
and Korean: `course.py grade ... --leaderboard`) and checks that its table and frontier
plot are drawn and that a click on a column's heading sorts the rows by it, both ways.
Screenshots go to --out. It stops only the processes it started.
Exit status 0: passed; 1: failed; 3: skipped (no Chromium on this machine; the message
says how to install it).

It never waits for a fixed time: every step waits for the condition it needs (the
notebook loaded, its kernel connected, idle and described, every cell run, the viewer
drawn, the caption changed), each with a deadline generous enough for a cold machine,
and reads what JupyterLab holds (its notebook model, through `window.jupyterapp`, which
this JupyterLab exposes) rather than what happens to be drawn on screen. JupyterLab runs
with user settings and workspaces of its own (nothing of yours is read or changed) and
without autosave, so that whether a file is written cannot depend on how long a run took.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
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


SETTINGS = {  # this JupyterLab's own user settings: what `course.py lab` sets is its own
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
}


def lab_folders(state: Path) -> tuple[Path, Path]:
    """(settings, workspaces) folders of the test's own, under `state`."""
    settings, workspaces = state / "settings", state / "workspaces"
    for name, values in SETTINGS.items():
        path = settings / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")
    workspaces.mkdir(parents=True, exist_ok=True)
    return settings, workspaces


def course_launcher():
    """course.py as a module: the launcher whose `lab_command` a learner's `lab` runs."""
    spec = importlib.util.spec_from_file_location("course_launcher", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def start_lab(root: Path, port: int, token: str, log: Path, state: Path
              ) -> tuple[subprocess.Popen, str]:
    """JupyterLab as `course.py lab` starts it, serving `root`, on 127.0.0.1:port in its own
    process group (so we stop exactly it), with user settings and workspaces under `state`
    and its app object reachable from the page; (the process, the start page)."""
    settings, workspaces = lab_folders(state)
    ours = ["--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
            f"--IdentityProvider.token={token}", "--ServerApp.port_retries=0",
            f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={workspaces}",
            "--LabApp.expose_app_in_browser=True"]
    cmd, env, start = course_launcher().lab_command(Path(sys.executable), ours, root=root)
    env.update(AGENTLIB_OFFLINE="1", PYTHONHASHSEED="0")
    out = open(log, "w", encoding="utf-8")  # noqa: SIM115 (closed by the process's end)
    return subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True), start


def wait_ready(port: int, token: str, proc: subprocess.Popen, seconds: float = 180) -> None:
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


# Deadlines, in milliseconds. Every wait ends as soon as its condition holds; these only
# bound a step that is stuck, so they are set for a cold machine (first start of Python,
# JupyterLab and Chromium, nothing cached), not for a warm one.
LOAD = 240_000  # a page, its notebook and the notebook's kernel, started and connected
RUN = 900_000  # Run All Cells of a lesson
DRAWN = 120_000  # a widget drawn after its cell ran; a caption redrawn after a key press

SETTLED = """(path) => {
  const app = window.jupyterapp, w = app && app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.context.isReady || !w.model) {
    return false;
  }
  const session = w.sessionContext, kernel = session.session && session.session.kernel;
  return session.isReady && !!kernel && kernel.connectionStatus === 'connected'
    && kernel.status === 'idle' && w.content.widgets.length === w.model.cells.length;
}"""
"""The notebook at `path` is the current tab, loaded and drawn, its kernel connected and idle."""

AFTER_KERNEL = """async () => {
  const w = window.jupyterapp.shell.currentWidget, kernel = w.sessionContext.session.kernel;
  await kernel.info;  // JupyterLab writes the notebook's language_info and kernelspec
  await kernel.spec;  // from these two, in callbacks registered before ours: they ran
  await new Promise(done => setTimeout(done, 0));
  return {dirty: w.model.dirty, model: w.model.toJSON()};
}"""
"""What opening a notebook does once its kernel is there has happened: is it marked changed?"""

WATCH_RUN = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  window.__courseRun = {started: false};
  for (const cell of w.model.cells) {
    if (cell.type === 'code') {
      cell.stateChanged.connect((_, change) => {
        if (change.name === 'executionState' && change.newValue === 'running') {
          window.__courseRun.started = true;
        }
      });
    }
  }
}"""
"""Before Run All: note when a cell starts running (so the wait below cannot end early)."""

RAN = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return window.__courseRun.started && !!kernel && kernel.status === 'idle'
    && [...w.model.cells].every(c => c.type !== 'code' || c.executionState !== 'running');
}"""
"""Run All has run: a cell started, none is still running or queued, the kernel is idle."""

ERRORS = """() => {
  const w = window.jupyterapp.shell.currentWidget, found = [];
  for (const cell of w.model.cells) {
    if (cell.type !== 'code') continue;
    for (const out of cell.outputs.toJSON()) {
      const text = [].concat(out.text || []).join('');
      if (out.output_type === 'error') found.push(`${out.ename}: ${out.evalue}`);
      else if (out.output_type === 'stream' && out.name === 'stderr') found.push(text);
    }
  }
  return found.map(t => t.slice(0, 200));
}"""
"""The error outputs and stderr texts of the current notebook's cells, as its model holds
them (every cell, whether or not it is drawn on screen now)."""

KOREAN_CAPTION = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const texts = [...panel.querySelectorAll('.widget-vbox .widget-html-content')];
  return /[\uac00-\ud7a3]/.test(texts.map(e => e.textContent).join(' '));
}"""


FIRST_VIEW = """async () => {
  const app = window.jupyterapp;
  await app.restored;
  const news = await app.serviceManager.settings.fetch(
    '@jupyterlab/apputils-extension:notification');  // the schema's defaults, overrides in
  const user = (news.settings || {}).fetchNews;
  const labels = sel => [...document.querySelectorAll(sel)].map(e => e.textContent.trim());
  return {
    plugins: app.listPlugins().filter(id => /nbgrader/i.test(id)),
    menus: labels('.lm-MenuBar-itemLabel'),
    panels: labels('.lm-TabBar-tabLabel').concat(
      [...document.querySelectorAll('.jp-SideBar .lm-TabBar-tab')].map(e => e.title || '')),
    fetchNews: user !== undefined ? user : news.schema.properties.fetchNews.default,
    toasts: labels('.Toastify__toast'),
  };
}"""
"""What a learner sees first: the teacher's plugins loaded, the menus, the side panels'
tabs, whether JupyterLab will ask about Jupyter news (it asks while `fetchNews` is
"none"), and the notifications shown."""


def api(base: str, token: str, path: str, method: str = "GET") -> object:
    request = urllib.request.Request(f"{base}/api/{path}?token={token}", method=method)
    with urllib.request.urlopen(request, timeout=60) as r:
        body = r.read()
    return json.loads(body) if body else None


def stop_kernels(page, base: str) -> None:
    """Leave the page, then end every session and its kernel (those this test opened)."""
    page.goto("about:blank")
    for s in api(base, page.token, "sessions"):
        api(base, page.token, f"sessions/{s['id']}", method="DELETE")


def open_notebook(page, base: str, path: str) -> dict:
    """Open `path` as the only tab (`?reset`: nothing restored from an earlier page) and wait
    until it is loaded and drawn and its kernel connected, idle and described; return
    whether it is then marked changed, and the notebook JupyterLab holds."""
    page.goto(f"{base}/lab/tree/{path}?reset&token={page.token}")
    page.wait_for_function(SETTLED, arg=path, timeout=LOAD)
    return page.evaluate(AFTER_KERNEL)


def what_changed(shown: dict, saved: dict) -> str:
    """Where the notebook JupyterLab holds differs from its file (to say why it is dirty)."""
    def norm(v):  # a text as one string, however it was split into lines
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            return "".join(v)
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items() if k != "id"}
        return [norm(x) for x in v] if isinstance(v, list) else v

    a, b = norm(shown), norm(saved)
    meta_a, meta_b = a.get("metadata", {}), b.get("metadata", {})
    found = [f"metadata.{k}" for k in sorted(set(meta_a) | set(meta_b))
             if meta_a.get(k) != meta_b.get(k)]
    cells_a, cells_b = a.get("cells", []), b.get("cells", [])
    if len(cells_a) != len(cells_b):
        found.append(f"{len(cells_a)} cells, {len(cells_b)} saved")
    for i, (x, y) in enumerate(zip(cells_a, cells_b, strict=False)):
        keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
        if keys:
            found.append(f"cell {i}: {', '.join(keys)}")
    return "; ".join(found[:6]) or "the same content as the file"


def holds(expectation) -> bool:  # noqa: ANN001
    """Whether a Playwright wait (`expect(...)`, `wait_for_function`) met its condition."""
    from playwright.sync_api import Error

    try:
        expectation()
        return True
    except (AssertionError, Error):
        return False


def check(ok: bool, what: str, failures: list[str]) -> None:
    print(("PASS  " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def run_all(page) -> list[str]:
    """Run ▸ Run All Cells on the open notebook, wait until every cell has run; the error
    outputs' texts."""
    page.evaluate(WATCH_RUN)
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
    page.wait_for_function(RAN, timeout=RUN)
    return page.evaluate(ERRORS)


def first_view(page, base: str, start: str, failures: list[str], out: Path) -> None:
    """The lab's own address, as a learner opens it: the course's start page, nothing of
    the teacher's tools, no question about news."""
    page.goto(f"{base}/?reset&token={page.token}")
    opened = holds(lambda: page.wait_for_function(SETTLED, arg=start, timeout=LOAD))
    seen = page.evaluate(FIRST_VIEW)
    check(opened, f"the lab opens on the course's start page ({start})", failures)
    nbgrader = seen["plugins"] + [m for m in seen["menus"] + seen["panels"]
                                  if re.search(r"nbgrader|assignment", m, re.I)]
    check(not nbgrader, "no Nbgrader menu, panel or plugin" +
          (f" (found: {nbgrader[:4]})" if nbgrader else ""), failures)
    news = [t for t in seen["toasts"] if re.search(r"news", t, re.I)]
    check(seen["fetchNews"] == "false" and not news,
          f"no prompt about Jupyter news (fetchNews {seen['fetchNews']!r}"
          + (f"; shown: {news[0][:60]!r})" if news else ")"), failures)
    print(f"NOTE  menus: {', '.join(seen['menus'])}; nbgrader's lab extension is "
          f"{'installed' if teacher_extension_installed() else 'not installed'} here",
          flush=True)
    page.screenshot(path=str(out / "00-start-page.png"))
    stop_kernels(page, base)


def teacher_extension_installed() -> bool:
    """Whether this environment holds nbgrader's JupyterLab extension (`course.py test` and
    the teacher's commands install it), i.e. whether hiding it was put to the test."""
    return (Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter" /
            "nbgrader").is_dir()


BOARD_CLASS = [("ada", 8, 0.020), ("bo", 5, 0.050), ("cy", 2, 0.012), ("dee", 7, 0.070)]
"""The made-up capstone class of the board: (student, runs solved, dollars a run)."""


def leaderboard_pages(folder: Path) -> dict[str, Path]:
    """The capstone's leaderboard of BOARD_CLASS (classroom/grader/leaderboard.py), one page
    per language, with the course's references computed as the grader computes them."""
    from classroom.checks import lesson10
    from classroom.grader import leaderboard
    from classroom.grader.gradebook import Graded

    def runs(solved: int, cost: float) -> list[dict]:
        pairs = [(f, m) for f in lesson10.FAMILIES for m in lesson10.MODELS]
        out = []
        for i, (family, model) in enumerate(pairs):
            t = lesson10.Trial(family, model, success=i < solved, cost=cost, peak=3_000 + i)
            out.append({**t.__dict__, "points": t.points})
        return out

    graded = [Graded(name, "10", f"{name}.ipynb", "0" * 64, [], [
        {"exercise": leaderboard.EXERCISE, "check": "returns a setup", "status": "pass",
         "detail": "", "hint": "", "data": {"runs": runs(solved, cost)}}])
        for name, solved, cost in BOARD_CLASS]
    pages = {}
    for language in ("en", "ko"):
        pages[language] = folder / f"board-{language}.html"
        leaderboard.write(pages[language], graded, secret=1, language=language)
    return pages


def board_view(browser, pages: dict[str, Path], out: Path, failures: list[str]) -> None:
    """The leaderboard in the browser: rows, the plot, sorting by a click, both ways."""
    page = browser.new_page()
    page.goto(pages["en"].as_uri())
    rows = page.locator("table.board tbody tr")
    students = [(rows.nth(i).locator("td").nth(1).text_content() or "").strip()
                for i in range(rows.count())]
    check(students[:4] == ["ada", "dee", "bo", "cy"] and rows.count() == len(BOARD_CLASS) + 2,
          f"the leaderboard ranks the class and shows the references ({students})", failures)
    box = page.locator(".plot svg").bounding_box()
    check(bool(box) and box["width"] > 200 and box["height"] > 100,
          f"the leaderboard's frontier plot is drawn ({box})", failures)
    heads = [(h or "").strip() for h in page.locator("table.board th").all_text_contents()]
    column = heads.index("dollars")
    values = f"els => els.map(e => parseFloat(e.cells[{column}].dataset.value))"
    shown = []
    for _ in range(2):  # ascending, then descending
        page.locator("table.board th").nth(column).click()
        shown.append(rows.evaluate_all(values))
    check(shown[0] == sorted(shown[0]) and shown[1] == sorted(shown[1], reverse=True)
          and shown[0] != shown[1], f"a click on 'dollars' sorts the board both ways ({shown})",
          failures)
    page.screenshot(path=str(out / "05-leaderboard-sorted.png"), full_page=True)
    page.goto(pages["ko"].as_uri())
    title = (page.locator("h1").text_content() or "").strip()
    check(title == "캡스톤 순위표" and page.locator(".plot svg").count() == 1,
          f"the Korean leaderboard reads in Korean ({title!r})", failures)
    page.screenshot(path=str(out / "06-leaderboard-ko.png"), full_page=True)
    page.close()


def session(chromium: str, root: Path, base: str, token: str, out: Path,
            start: str, boards: dict[str, Path] | None = None) -> list[str]:
    from playwright.sync_api import expect, sync_playwright

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
        page.set_default_timeout(DRAWN)
        page.set_default_navigation_timeout(LOAD)
        page.token = token
        first_view(page, base, start, failures, out)
        for path in lessons:  # opening a notebook must change nothing
            opened = open_notebook(page, base, path)
            why = "" if not opened["dirty"] else \
                f" (it differs from its file in {what_changed(opened['model'], json.loads(before[path]))})"
            check(not opened["dirty"], f"{path} opens without being marked changed{why}",
                  failures)
            if path == lessons[-1]:
                page.screenshot(path=str(out / "01-opened.png"))
            stop_kernels(page, base)

        open_notebook(page, base, LESSON)
        texts = run_all(page)
        check(not texts, f"{LESSON}: every cell ran without an error" +
              (f" (first: {texts[0]!r})" if texts else ""), failures)
        page.screenshot(path=str(out / "02-ran-all-cells.png"), full_page=True)

        viewer = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-vbox").last
        caption = viewer.locator(".widget-html-content").first
        # the live viewer is drawn after its cell finished: wait for its caption
        drawn = holds(lambda: expect(caption).to_have_text(re.compile(r"^\s*step "),
                                                           timeout=DRAWN))
        shown = (caption.text_content() or "").strip() if drawn else ""
        moved = shown
        if drawn:
            viewer.scroll_into_view_if_needed()
            viewer.locator(".noUi-handle, .widget-slider input, [role=slider]").first.focus()
            page.keyboard.press("ArrowLeft")
            if holds(lambda: expect(caption).not_to_have_text(shown, timeout=DRAWN)):
                moved = (caption.text_content() or "").strip()
        check(shown.startswith("step ") and moved != shown,
              f"the viewer's slider moves with the keyboard ({shown[:16]!r} -> {moved[:16]!r})",
              failures)
        viewer.screenshot(path=str(out / "03-viewer-after-arrow-left.png"))
        stop_kernels(page, base)

        open_notebook(page, base, KOREAN)  # the Korean edition: same code, Korean words
        texts = run_all(page)
        check(not texts, f"{KOREAN}: every cell ran without an error" +
              (f" (first: {texts[0]!r})" if texts else ""), failures)
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        heading = panel.locator(".jp-RenderedMarkdown h1").first
        # its text whether or not it is on screen (the run scrolled down: innerText is empty)
        holds(lambda: expect(heading).to_contain_text("레슨 1", timeout=DRAWN))
        heading_text = (heading.text_content() or "").strip()
        holds(lambda: page.wait_for_function(KOREAN_CAPTION, timeout=DRAWN))
        captions = panel.locator(".widget-vbox .widget-html-content")
        caption_text = " ".join((captions.nth(i).text_content() or "").strip()
                                for i in range(captions.count()))
        check("레슨 1" in heading_text and re.search("[\uac00-\ud7a3]", caption_text) is not None
              and "messages ·" not in caption_text,
              f"the Korean lesson reads in Korean ({heading_text[:20]!r}, viewer "
              f"{caption_text[:24]!r})", failures)
        fonts = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True,
                               text=True).stdout.split() if shutil.which("fc-list") else []
        if fonts:
            print(f"PASS  the browser has a Korean font ({fonts[0]})", flush=True)
        else:  # the check above reads the page's text; without a font it shows empty boxes
            print("NOTE  no Korean font on this system: the screenshot shows boxes for Hangul "
                  "(Debian/Ubuntu: `sudo apt install fonts-nanum`)", flush=True)
        page.screenshot(path=str(out / "04-korean-ran-all-cells.png"), full_page=True)
        stop_kernels(page, base)
        if boards:
            board_view(browser, boards, out, failures)
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
        root = Path(tmp) / "course"  # what JupyterLab serves; its own state beside it
        for folder in ("lessons", "exercises"):
            shutil.copytree(ROOT / folder, root / folder, ignore=notebooks_only)
        port, token = free_port(), secrets.token_hex(16)
        proc, start = start_lab(root, port, token, out / "jupyterlab.log", Path(tmp) / "lab")
        try:
            boards = leaderboard_pages(Path(tmp))
            wait_ready(port, token, proc)
            failures = session(chromium, root, f"http://127.0.0.1:{port}", token, out, start,
                               boards)
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
