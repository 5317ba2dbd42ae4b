"""For every test folder (tests/, lessons/, solutions/): kernels that start warm.

The kernels that nbval and the tests start are forked from a process that has already
imported ipykernel, the anthropic SDK and matplotlib (tests/warm_kernels.py says why and
what stays the same); tests/conftest.py holds the rest of the test settings.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "tests"))
import warm_kernels  # noqa: E402

warm_kernels.install()
