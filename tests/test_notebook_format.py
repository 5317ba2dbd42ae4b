"""Every notebook is saved the way JupyterLab would save it, so opening one changes nothing.

JupyterLab rewrites a kernelspec it does not recognise ("Python 3" becomes "Python 3
(ipykernel)"), marks the notebook changed and autosaves it: a git diff for every learner
who only looked. The repo's scripts write the kernelspec below; this test fails otherwise.
"""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from execute_notebooks import KERNELSPEC  # noqa: E402

NOTEBOOKS = sorted(p for folder in ("lessons", "solutions", "exercises")
                   for p in (ROOT / folder).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)


def test_the_kernelspec_is_the_one_jupyterlab_writes():
    assert KERNELSPEC == {"display_name": "Python 3 (ipykernel)", "language": "python",
                          "name": "python3"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_metadata(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["metadata"].get("kernelspec") == KERNELSPEC
    assert "widgets" not in nb["metadata"]  # widget state is not saved (ids change per run)
    for cell in nb["cells"]:
        assert "execution" not in cell.get("metadata", {})  # no timings
