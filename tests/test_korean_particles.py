"""Korean particles are chosen by the word they follow (issue 33 item 3): 메시지 3을, 메시지
2를, `read_file`로, 40%를. No template of the course (the print and plot catalog, the checks'
phrases and titles) and no saved Korean output holds a particle left open (을(를), 이(가),
(으)로), and every template that puts a particle after a value picks the right form for
values that end both ways: numbers read as Korean numerals, Hangul, Latin words and code names.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from classroom.checks import ko as checks_ko
from coursekit import i18n
from coursekit.particles import attach, coda, open_particles, pick

ROOT = Path(__file__).resolve().parent.parent

# (word, 을/를, 으로/로): the forms a reader expects
CASES = [
    ("메시지", "를", "로"), ("결과", "를", "로"), ("블록", "을", "으로"), ("파일", "을", "로"),
    ("1", "을", "로"), ("2", "를", "로"), ("3", "을", "으로"), ("6", "을", "으로"),
    ("7", "을", "로"), ("9", "를", "로"), ("10", "을", "으로"), ("13-16", "을", "으로"),
    ("100", "을", "으로"), ("1,000", "을", "으로"), ("12,000", "을", "으로"), ("1,234", "를", "로"),
    ("0.05", "를", "로"), ("1.25", "를", "로"), ("40%", "를", "로"), ("$1,400", "을", "으로"),
    ("메시지 3(어시스턴트의 tool_use)", "을", "으로"), ("audit(12)", "을", "으로"),
    ("keep", "을", "으로"), ("step", "을", "으로"), ("read_file", "을", "로"), ("tool", "을", "로"),
    ("token", "을", "으로"), ("string", "을", "으로"), ("cache", "를", "로"),
    ("notes", "를", "로"), ("server", "를", "로"), ("agent_loop", "를", "로"),
    ("safe_truncate", "를", "로"), ("`validate`", "를", "로"), ("API", "를", "로"),
    ("URL", "을", "로"), ("x", "를", "로"), ("BAD-DEPLOY", "를", "로"), ("Clearing", "을", "으로"),
    ("SlidingWindow", "를", "로"), ("course-model-1", "을", "로"), ("'None'", "을", "으로"),
]


@pytest.mark.parametrize("word, object_form, toward_form", CASES)
def test_the_particle_follows_the_word(word, object_form, toward_form):
    assert pick(word, "을") == object_form
    assert pick(word, "를") == object_form  # either form asks for the same particle
    assert pick(word, "으로") == toward_form
    subject = {"을": "이", "를": "가"}[object_form]
    assert attach(word, "이") == word + subject


def test_an_unreadable_ending_is_said_so():
    assert coda("→") is None


def korean_templates() -> dict[str, str]:
    """Every Korean template of the course: where it is -> its text."""
    found = {f"i18n.PHRASES[{k!r}]": v for k, v in i18n.PHRASES.items()}
    found |= {f"i18n.PRINTED[{k!r}]": v for k, v in i18n.PRINTED.items()}
    found |= {f"checks.ko.PHRASES_KO[{k!r}]": v for k, v in checks_ko.PHRASES_KO.items()}
    for key, (title, hint) in checks_ko.CHECKS_KO.items():
        found[f"checks.ko.CHECKS_KO[{key!r}]"] = f"{title}\n{hint}"
    return found


def test_no_template_leaves_a_particle_open():
    bad = {where: open_particles(text) for where, text in korean_templates().items()
           if open_particles(text)}
    assert not bad, f"write the particle as a placeholder's tail ({{n:을}}) instead: {bad}"


def korean_notebooks() -> list[Path]:
    return sorted(p for folder in ("lessons", "solutions", "exercises")
                  for p in (ROOT / folder / "ko").glob("*.ipynb"))


def test_no_korean_notebook_prints_or_says_a_particle_left_open():
    bad = []
    for path in korean_notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            texts = ["".join(cell["source"])] if cell["cell_type"] == "markdown" else []
            for out in cell.get("outputs", []):
                text = out.get("text", out.get("data", {}).get("text/plain", ""))
                texts.append(text if isinstance(text, str) else "".join(text))
            bad += [f"{path.name} {cell['id']}: {found}" for t in texts
                    if (found := open_particles(t))]
    assert not bad, bad


def particle_slots(template: str) -> list[tuple[str, str, str]]:
    """(field, its format spec before the particle, the particle) for every placeholder whose
    spec ends in a particle."""
    out = []
    for _, field, spec, _ in string.Formatter().parse(template):
        tail = i18n.HANGUL_TAIL.fullmatch(spec or "") if field is not None else None
        if tail:
            out.append((field, tail["spec"], tail["particle"]))
    return out


def filled(template: str, value: object) -> str:
    """`template` with every particle's value `value` and the other fields a plain value that
    fits their spec."""
    values = {}
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is None or not field:
            continue
        name = field.split(".")[0].split("[")[0]
        if any(field == f for f, _, _ in particle_slots(template)):
            values[name] = value
        elif spec and spec.rstrip("<>^0123456789").endswith((",", "d", "f", "%", "g", "e", "+")):
            values[name] = 1
        elif spec and any(c in spec for c in ",.%dfg"):
            values[name] = 1
        else:
            values.setdefault(name, "값")
    return i18n.fill(template, **values)


WITH_PARTICLES = {where: text for where, text in korean_templates().items()
                  if particle_slots(text)}


def test_templates_put_particles_after_values():
    assert len(WITH_PARTICLES) >= 25, sorted(WITH_PARTICLES)  # 28 once were left open


@pytest.mark.parametrize("where", sorted(WITH_PARTICLES))
def test_a_template_picks_the_particle_for_values_ending_both_ways(where):
    template = WITH_PARTICLES[where]
    for value in (3, 2, 1, 10, "감사", "메시지", "keep", "cache", "read_file", "`validate`"):
        text = filled(template, value)
        assert not open_particles(text), text
        for _, spec, particle in particle_slots(template):
            shown = format(value, spec) if spec else str(value)
            assert f"{shown}{pick(shown, particle)}" in text, (value, text)


def test_the_checks_catalog_formats_particles_the_way_the_grader_calls_it():
    """classroom.grading fills PHRASES_KO with `str.format`: a Template's own format picks."""
    phrase = checks_ko.PHRASES_KO["the run reported {type}, not a dict"]
    assert phrase.format(type="list") == "실행이 dict가 아니라 list를 알려 왔습니다"
    assert phrase.format(type="tuple") == "실행이 dict가 아니라 tuple을 알려 왔습니다"
