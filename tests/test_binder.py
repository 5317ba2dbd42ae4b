"""The Binder / JupyterHub image, built the way repo2docker builds it: a fresh virtual
environment, `pip install -r binder/requirements.txt`, then `binder/postBuild`; then the
course must import and reach the offline model."""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pins(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def test_binder_requirements_are_the_constraints():
    assert pins(ROOT / "binder" / "requirements.txt") == pins(ROOT / "constraints.txt")
    assert os.access(ROOT / "binder" / "postBuild", os.X_OK)


@pytest.mark.heavy  # a whole environment installed from scratch: minutes, with --all only
def test_the_binder_environment_builds_and_runs_the_course(tmp_path):
    env_dir = tmp_path / "binder-env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(env_dir), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    step = subprocess.run([str(python), "-m", "pip", "install", "-q", "-r",
                           "binder/requirements.txt"], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert step.returncode == 0, step.stdout[-2000:] + step.stderr[-2000:]
    step = subprocess.run(["bash", "binder/postBuild"], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert step.returncode == 0, step.stdout[-2000:] + step.stderr[-2000:]
    probe = ("import agentlib, jupyterlab; c = agentlib.connect(offline=True); "
             "r = c.messages.create(model='course-model-1', max_tokens=64, "
             "messages=[{'role': 'user', 'content': 'hello'}]); print(r.stop_reason)")
    out = subprocess.run([str(python), "-c", probe], cwd=tmp_path, env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.strip() == "end_turn", out.stderr[-2000:]
    assert sys.prefix != str(env_dir)  # the test ran in its own environment, not this one


def test_hub_link_is_an_nbgitpuller_link_to_the_start_page():
    from urllib.parse import parse_qs, urlparse

    out = subprocess.run([sys.executable, str(ROOT / "course.py"), "hub-link",
                          "https://hub.example.edu/", "--repo",
                          "https://github.com/example/context-course.git"],
                         capture_output=True, text=True, check=True).stdout.strip()
    url = urlparse(out)
    assert (url.scheme, url.netloc, url.path) == ("https", "hub.example.edu",
                                                  "/hub/user-redirect/git-pull")
    query = parse_qs(url.query)
    assert query == {"repo": ["https://github.com/example/context-course.git"],
                     "branch": ["main"],
                     "urlpath": ["lab/tree/context-course/lessons/00_start_here.ipynb"]}
