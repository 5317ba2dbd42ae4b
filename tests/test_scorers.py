"""The scorers read the answers a real model writes: Markdown lists, bold, tables, units,
extra prose, and what it rejected named as such. At least ten right shapes per workload
score as right, and the known-wrong ones still fail."""

import re

import pytest

from coursekit import workloads

AUDIT = workloads.audit(12)  # truth: email 90, media 40 (inherited), payments 90
NEEDLE = workloads.needle(400)
SHOP = workloads.constraints()


def test_the_fixtures_are_what_the_shapes_assume():
    assert AUDIT.truth == {"email": 90, "media": 40, "payments": 90}
    assert (NEEDLE.truth, GUESS) == ("BAD-DEPLOY", "POOL-EXHAUSTED")
    assert (SHOP.truth, TOP, LOW) == ("Kestrel 13", "Lumen 16", "Isle 14")


AUDIT_RIGHT = [
    "email: 90\nmedia: 40\npayments: 90",
    "- **email**: 90\n- **media**: 40\n- **payments**: 90",
    "| service | timeout_s |\n|---|---|\n| email | 90s |\n| media | 40s |\n| payments | 90s |",
    "I checked all 13 files.\n\n**Above 30:**\n1. `email` — 90 seconds\n2. `media` — 40 s "
    "(inherited from defaults)\n3. `payments` — 90 s\n\n**Not above 30:** checkout (30), "
    "auth (20), orders (25)",
    "The services above 30 are email (90), media (40, inherited) and payments (90).",
    "Answer:\n- services/email.conf: 90\n- services/media.conf: 40\n- services/payments.conf: 90",
    "## Result\n\n| service | value | above 30? |\n|---|---|---|\n| email | 90 | yes |\n"
    "| checkout | 30 | no |\n| media | 40 | yes |\n| payments | 90 | yes |",
    "Three services exceed the threshold: email (timeout_s = 90), media (timeout_s = inherit "
    "-> 40) and payments (timeout_s = 90). checkout is exactly 30, so it is not above.",
    "- email: 90\n- media: 40\n- payments: 90\n- checkout: 30 (not above 30)",
    "**email** → 90; **media** → 40 (via defaults); **payments** → 90",
    "Noted [13/13] services/payments.conf: payments timeout_s = 90 (above 30)\nAnswer:\n"
    "email: 90\nmedia: 40\npayments: 90",
    "Here is what I found:\n\n* `email`: `timeout_s = 90`\n* `media`: `timeout_s = inherit` "
    "(40 from `services/_defaults.conf`)\n* `payments`: `timeout_s = 90`\n\n"
    "### Below the threshold\n* checkout: 30\n* auth: 20",
]
AUDIT_WRONG = {
    "email: 90\nmedia: 40": "misses payments",
    "email: 90\nmedia: 40\npayments: 90\ncheckout: 30": "adds a service not above 30",
    "email: 60\nmedia: 40\npayments: 90": "a wrong value",
    "none": "none, with three above",
    "I could not finish the audit.": "no answer",
}


@pytest.mark.parametrize("answer", AUDIT_RIGHT)
def test_audit_answers_in_a_real_models_shapes_score_right(answer):
    score = AUDIT.score(answer)
    assert score.success, (score, answer)


@pytest.mark.parametrize("answer", AUDIT_WRONG)
def test_wrong_audit_answers_still_fail(answer):
    assert not AUDIT.score(answer).success, AUDIT_WRONG[answer]


def test_an_audit_with_nothing_above_accepts_none_in_words():
    for t in range(90, 200, 10):  # a threshold no value is above
        empty = workloads.audit(12, threshold=t)
        if not empty.truth:
            break
    assert not empty.truth
    assert empty.score("None of the services is above the threshold.").success
    assert not empty.score("email: 90").success


_log = NEEDLE.workspace.read_file("incident.log")
GUESS = re.search(r"hypothesis: root cause is (\S+)", _log).group(1)
C = NEEDLE.truth
NEEDLE_RIGHT = [
    C, f"**{C}**", f"`{C}`", f"The confirmed root cause is {C}.", f"Answer: {C}",
    f"Root cause: {C} (the on-call hypothesis {GUESS} was ruled out).",
    f"{C} — the postmortem confirms it; {GUESS} was only an unconfirmed hypothesis.",
    f"## Root cause\n**{C}**\n\nThe early note suspected {GUESS}, but this was ruled out.",
    f"The incident was caused by {C}, not {GUESS}.",
    f"After reading the whole log: `{C}` (confirmed in the RESOLVED postmortem line; "
    f"hypothesis {GUESS} ruled out).",
    f"It was not {GUESS} but {C}.", C.lower(),
    f"The on-call team first suspected {GUESS}. The postmortem confirmed the real root cause: "
    f"**{C}**.",
]
NEEDLE_WRONG = [GUESS, f"{C} or {GUESS}", "unknown", f"Root cause: {GUESS}", "",
                f"Noted: the log names a hypothesis, {GUESS}, not yet confirmed. I read the "
                f"whole log and found no confirmation, so the hypothesis is the best answer.\n"
                f"Answer: {GUESS}"]


@pytest.mark.parametrize("answer", NEEDLE_RIGHT)
def test_needle_answers_in_a_real_models_shapes_score_right(answer):
    score = NEEDLE.score(answer)
    assert score.success, (score, answer)


@pytest.mark.parametrize("answer", NEEDLE_WRONG)
def test_wrong_needle_answers_still_fail(answer):
    assert not NEEDLE.score(answer).success


def test_the_needle_detail_names_what_was_ruled_out():
    assert NEEDLE.score(NEEDLE_RIGHT[5]).detail == (
        f"confirmed cause {C}; answered ['{C}'] (ruled out: {GUESS})")
    assert NEEDLE.score(f"Answer: {C}").detail == f"confirmed cause {C}; answered ['{C}']"


B = SHOP.truth
_facts = {}
for _turn in SHOP.turns[1:-1]:
    _name = _turn.removeprefix("Look up the ").rstrip(".")
    _facts[_name] = SHOP.toolbox.run({"type": "tool_use", "id": "x", "name": "get_product",
                                      "input": {"name": _name}})["content"]
TOP = next(n for n, f in _facts.items() if "rating 4.9" in f)
LOW = next(n for n, f in _facts.items() if "RAM 16" in f)
SHOP_RIGHT = [
    B, f"**{B}**", f"I recommend the {B}: it fits your budget and has 32 GB.", f"Answer: {B}",
    f"Although the {TOP} has the best rating, it is over budget; choose the {B}.",
    f"I recommend the **{B}** ($1,300, 32 GB RAM, rated 4.5). The {TOP} is rated higher (4.9) "
    "but does not meet your limits.",
    f"| model | price | RAM | fits? |\n|---|---|---|---|\n| {TOP} | $1,900 | 64 GB | ❌ over "
    f"budget |\n| {B} | $1,300 | 32 GB | ✅ |\n\n**Recommendation: {B}**",
    f"Go with the {B}. The {LOW} is cheaper but has only 16 GB of RAM.",
    f"My pick: the {B}.",
    f"The {TOP} is tempting but exceeds your $1,400 budget. The best option within your "
    f"limits is the {B}.",
    f"Buy the {B} — it is the best-rated model under $1,400 with at least 32 GB of RAM.",
    f"## Recommendation\n\n**{B}**\n\n- Price: $1,300 (within your $1,400 budget)\n"
    f"- RAM: 32 GB\n\nNot the {TOP}: it is over budget.",
]
SHOP_WRONG = [TOP, f"I recommend the {TOP}.", f"The {B} fits, but I recommend the {TOP}.",
              f"Go with the {LOW}: it is the best rated.", "I can't decide.", ""]


@pytest.mark.parametrize("answer", SHOP_RIGHT)
def test_constraints_answers_in_a_real_models_shapes_score_right(answer):
    score = SHOP.score(answer)
    assert score.success and score.constraint_kept, (score, answer)


@pytest.mark.parametrize("answer", SHOP_WRONG)
def test_wrong_constraints_answers_still_fail(answer):
    assert not SHOP.score(answer).success


def test_the_scripted_answers_score_as_before():
    """The course model's own shapes: what the saved notebooks were scored with."""
    assert workloads._parse_pairs("Warning, the result for services/eu-west/ was cut short; "
                                  "the answer may be incomplete.\nCombined from 2 sub-agent "
                                  "results.\nAnswer:\nauth: 45") == {"auth": 45}
    assert SHOP.score(f"I recommend the {B} ($1,300, 32 GB RAM, rating 4.5): it fits your "
                      f"limits (budget at most $1,400; RAM at least 32 GB).\nAnswer: {B}"
                      ).success
    assert AUDIT.score(None).recall == 0.0 and not NEEDLE.score(None).success
