"""`python3 course.py lab`: the start page it opens, --lang ko's Korean menus, no news
prompt, no teacher tools (nbgrader neither installed by it nor shown if a teacher's command
installed it), without starting a server (Popen and the wait for it are stood in for)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_course():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("course_script", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def lab(monkeypatch, tmp_path):
    course = load_course()
    started = {}

    class Proc:
        pid = 4242

        def __init__(self, cmd, **kw):
            started.update(cmd=cmd, env=kw["env"])

        def wait(self):
            return 0

    installs = []
    monkeypatch.setattr(course, "VENV", tmp_path)
    monkeypatch.setattr(course, "LAB_LOG", tmp_path / "lab.log")
    monkeypatch.setattr(course.subprocess, "Popen", Proc)
    monkeypatch.setattr(course, "wait_for_server",
                        lambda py, proc, page: f"http://localhost:8888/lab/tree/{page}")
    monkeypatch.setattr(course, "quiet", lambda cmd, log: installs.append(cmd) or 0)
    monkeypatch.setattr(course, "korean_pack_installed", lambda python: False)

    def run(*args):
        started.clear()
        assert course.lab(Path(sys.executable), list(args)) == 0
        return started, installs
    return run


def test_the_english_start_page_by_default(lab, capsys):
    started, installs = lab()
    assert "--LabApp.default_url=/lab/tree/lessons/00_start_here.ipynb" in started["cmd"]
    assert "JUPYTERLAB_SETTINGS_DIR" not in started["env"] and installs == []
    assert "Start with lessons/00_start_here.ipynb" in capsys.readouterr().out


def test_lang_ko_opens_the_korean_start_page_with_korean_menus(lab, tmp_path, capsys):
    started, installs = lab("--lang", "ko")
    assert "then lessons/ko/01_append_only_growth.ipynb" in capsys.readouterr().out
    assert "--LabApp.default_url=/lab/tree/lessons/ko/00_start_here.ipynb" in started["cmd"]
    assert "--lang" not in started["cmd"] and "ko" not in started["cmd"]
    assert any(".[ko]" in cmd for cmd in installs)  # the language pack, an optional extra
    settings = Path(started["env"]["JUPYTERLAB_SETTINGS_DIR"])
    plugin = settings / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    assert json.loads(plugin.read_text(encoding="utf-8")) == {"locale": "ko_KR"}
    assert settings.is_relative_to(tmp_path)


def test_lang_ko_installs_the_language_pack_only_once(lab, monkeypatch):
    import course_script

    monkeypatch.setattr(course_script, "korean_pack_installed", lambda python: True)
    _, installs = lab("--lang", "ko")
    assert installs == []


def test_an_unknown_language_is_refused_by_name(lab):
    with pytest.raises(SystemExit, match="no start page for --lang 'fr'"):
        lab("--lang", "fr")


def test_the_lab_starts_without_the_news_prompt(lab, tmp_path):
    started, _ = lab()
    settings = tmp_path / "share" / "jupyter" / "lab" / "settings"  # JupyterLab's default place
    assert f"--LabApp.app_settings_dir={settings}" in started["cmd"]
    [overrides] = (settings / "overrides.d").glob("*.json")
    notification = json.loads(overrides.read_text(encoding="utf-8"))[
        "@jupyterlab/apputils-extension:notification"]
    assert notification == {"fetchNews": "false", "checkForUpdates": False}


def test_the_lab_hides_the_teachers_extensions_even_when_installed(lab, tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "/elsewhere")
    started, _ = lab()
    first, *rest = started["env"]["JUPYTER_CONFIG_PATH"].split(os.pathsep)
    assert rest == ["/elsewhere"] and Path(first).is_relative_to(tmp_path)
    page = json.loads((Path(first) / "labconfig" / "page_config.json").read_text("utf-8"))
    assert page == {"disabledExtensions": {"@jupyter/nbgrader": True}}


def test_the_lab_installs_no_teacher_tool_and_the_teachers_commands_do(monkeypatch, tmp_path):
    import tomllib

    course = load_course()
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]

    def brings(command):
        return {req.split(">")[0] for e in course.extras_for(command) for req in extras[e]}

    assert "nbgrader" not in brings("lab")
    for command in ("test", "grade", "nbgrader-export"):
        assert "nbgrader" in brings(command), command
    installs = []
    monkeypatch.setattr(course, "venv_python", lambda: Path(sys.executable))
    monkeypatch.setattr(course, "STAMP", tmp_path / "stamp")
    monkeypatch.setattr(course, "quiet", lambda cmd, log: installs.append(cmd[cmd.index("-e") + 1]) or 0)
    course.ensure_venv(course.extras_for("lab"))
    course.ensure_venv(course.extras_for("lab"))  # current: nothing to do
    course.ensure_venv(course.extras_for("grade"))
    course.ensure_venv(course.extras_for("lab"))  # keeps what a teacher's command added
    assert installs == [".[test]", ".[teacher,test]"]


def test_the_browser_test_starts_the_lab_a_learner_gets(monkeypatch, tmp_path):
    """scripts/browser_test.py starts JupyterLab through course.py's `lab_command`: what
    `course.py lab` runs (the start page, the news settings, nbgrader hidden), plus only
    its own port, token, user settings and the app object exposed to the page."""
    spec = importlib.util.spec_from_file_location("browser_test", ROOT / "scripts" /
                                                  "browser_test.py")
    browser = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(browser)
    course, started = load_course(), {}
    monkeypatch.setattr(course, "VENV", tmp_path / "venv")
    monkeypatch.setattr(browser, "course_launcher", lambda: course)

    def popen(cmd, **kw):
        started.update(cmd=cmd, env=kw["env"])
        return "proc"

    monkeypatch.setattr(browser.subprocess, "Popen", popen)
    proc, start = browser.start_lab(tmp_path / "root", 8123, "tok", tmp_path / "log",
                                    tmp_path / "state")
    learner, env, page = course.lab_command(Path(sys.executable), [], root=tmp_path / "root")
    assert (proc, start, page) == ("proc", "lessons/00_start_here.ipynb", start)
    assert started["cmd"][:len(learner)] == learner  # the learner's command, then its own
    assert not any("nbgrader" in a or "app_settings" in a or "default_url" in a
                   for a in started["cmd"][len(learner):])
    assert started["env"]["JUPYTER_CONFIG_PATH"] == env["JUPYTER_CONFIG_PATH"]
