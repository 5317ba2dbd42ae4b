"""The ops workload (lesson 9): its catalog, its truth, and a scorer that can fail."""

import json

import pytest

from agentlib import tokens
from coursekit import workloads


def test_catalog_is_large_and_realistic():
    w = workloads.ops()
    sizes = [tokens.count([], tools=[t]) for t in w.tools]
    assert 55 <= len(sizes) <= 65 and min(sizes) >= 200 and max(sizes) <= 800
    assert all(p.get("description") for t in w.tools
               for p in t["input_schema"]["properties"].values())
    assert 3 <= len(w.truth["tools_needed"]) <= 5
    assert workloads.ops().tools == w.tools  # deterministic


def test_tools_run_over_the_dataset():
    w = workloads.ops(variant="change")
    run = w.toolbox.run
    inc = json.loads(run({"type": "tool_use", "id": "1", "name": "get_incident",
                          "input": {"incident_id": w.truth["incident"]}})["content"])
    assert inc["service"] == w.truth["service"]
    bad = run({"type": "tool_use", "id": "2", "name": "get_incident",
               "input": {"incident_id": "INC-0"}})
    assert bad["is_error"]
    assert "rb-" in run({"type": "tool_use", "id": "3", "name": "rollback_deployment", "input": {
        "deployment_id": w.truth["deployment"], "reason": "test"}})["content"]


def test_scorers_can_fail():
    w = workloads.ops()
    t = w.truth
    right = f"service: {t['service']}; deployment: {t['deployment']}; oncall: {t['oncall']}"
    assert w.score(right).success
    assert w.score(f"My pick: {right}.").success  # a sentence's full stop is not the name's
    assert w.score(f"service: `{t['service']}`; deployment: **{t['deployment']}**; "
                   f"oncall: {t['oncall']}.").success
    assert not w.score(right.replace(t["deployment"], "dep-00000")).success
    assert not w.score(None).success
    inv = workloads.ops(variant="invoices")
    assert inv.score(f"total: ${inv.truth['total']:,.2f}").success
    assert not inv.score(f"total: ${inv.truth['total'] + 1:,.2f}").success
    rep = workloads.ops(variant="reports")
    assert rep.score("reports: " + ", ".join(rep.truth["reports"])).success
    assert not rep.score("reports: " + ", ".join(rep.truth["reports"][1:])).success
    change = workloads.ops(variant="change")
    assert not change.score("rollback: rb-1; note: note-1").success  # nothing was done


def test_defer_and_programmatic_options():
    w = workloads.ops(defer="regex", programmatic=True, variant="invoices")
    custom = [t for t in w.tools if "input_schema" in t]
    assert all(t["defer_loading"] for t in custom)
    assert {"tool_search_tool_regex", "code_execution"} <= {t["name"] for t in w.tools}
    assert next(t for t in custom if t["name"] == "get_invoice")["allowed_callers"] == [
        "code_execution_20260120"]


def test_a_smaller_catalog_offers_the_needed_tools_first():
    full = [t["name"] for t in workloads.ops().tools]
    four = workloads.ops(tools=4, defer="regex")
    assert [t["name"] for t in four.tools] == ["get_incident", "list_deployments", "get_service",
                                               "get_oncall", "tool_search_tool_regex"]
    six = [t["name"] for t in workloads.ops(variant="change", tools=8).tools]
    assert set(six) >= {"rollback_deployment", "add_incident_note"} and len(six) == 8
    assert six == [n for n in full if n in six]  # catalog order
    assert [t["name"] for t in workloads.ops(tools=61).tools] == full
    for bad in (0, 62, "4"):
        with pytest.raises(ValueError, match="tools must be an integer"):
            workloads.ops(tools=bad)
