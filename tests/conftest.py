"""Test-wide settings: every test runs offline and with a fixed hash seed.

Set before any kernel starts, so notebooks run by nbval and by the grading tests
inherit them. A learner's ANTHROPIC_API_KEY is never used by the tests.
"""

import os

os.environ["AGENTLIB_OFFLINE"] = "1"
os.environ["PYTHONHASHSEED"] = "0"

# Notebooks that exist to misbehave (infinite loops, crashes) must never be collected
# by nbval; the grading tests build theirs in a temporary folder, keep it that way.
collect_ignore_glob = ["grading_fixtures/*"]
