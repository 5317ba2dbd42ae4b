"""Every version pinned in constraints.txt installs on the oldest Python the course accepts
(pyproject's requires-python): Debian 12's python3 is 3.11.2, and one pin that needs 3.11.5
(soupsieve 4.1.3 did) stops `python3 course.py lab` there with a resolver error."""

import importlib.metadata
import tomllib
from pathlib import Path

from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]


def oldest_python() -> str:
    """'>=3.11' -> '3.11.0': the first release the course says it runs on."""
    spec = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    floor = spec["project"]["requires-python"].strip()
    assert floor.startswith(">="), f"requires-python {floor!r}: expected '>=X.Y'"
    version = floor[2:].strip().split(".")
    return ".".join((version + ["0", "0"])[:3])


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    return dict(line.split("==", 1) for line in lines if line.strip() and not line.startswith("#"))


def test_every_pin_installs_on_the_oldest_python_the_course_accepts():
    floor = oldest_python()
    too_new, other, checked = [], [], 0
    for name, version in pins().items():
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # an extra not installed here (playwright comes with browser-test)
        if dist.version != version:
            other.append(f"{name} (installed {dist.version}, pinned {version})")
            continue
        checked += 1
        needs = dist.metadata.get("Requires-Python")
        if needs and not SpecifierSet(needs).contains(floor, prereleases=True):
            too_new.append(f"{name}=={version} needs Python {needs}")
    assert not other, f"this environment does not hold the pinned versions: {other}"
    assert checked >= 0.9 * len(pins()), f"only {checked} of {len(pins())} pins installed"
    assert not too_new, (f"pins that do not install on Python {floor} (pyproject's "
                         f"requires-python); pin an older release: {too_new}")
