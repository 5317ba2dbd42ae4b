"""Test-wide settings: every test runs offline and with a fixed hash seed.

Set before any kernel starts, so notebooks run by nbval and by the grading tests
inherit them. A learner's ANTHROPIC_API_KEY is never used by the tests.
"""

import os

from hypothesis import HealthCheck, settings

os.environ["AGENTLIB_OFFLINE"] = "1"
os.environ["PYTHONHASHSEED"] = "0"
os.environ.pop("AGENTLIB_LANG", None)  # each notebook's language is its own (its folder)

# Property tests: 60 examples each, or HYPOTHESIS_PROFILE=full for 1,000.
settings.register_profile("fast", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("full", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

# Notebooks that exist to misbehave (infinite loops, crashes) must never be collected
# by nbval; the grading tests build theirs in a temporary folder, keep it that way.
collect_ignore_glob = ["grading_fixtures/*"]
