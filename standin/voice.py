"""Wording for the unscripted stand-in: the scripted agent's lines, said another way.

The scripted agent (`agent.py`) writes fixed lines ("Noted [3/13] ...", "Plan: check ...",
"Answer:" and `name: value` lines) and reads its own notes back in that form. The
unscripted stand-in says each line in one of several wordings chosen by its random
generator (`say`), with Markdown answers and no "Noted" lines, and reads its earlier words
back (`read_back`) before the scripted agent decides the next step, as a model reads
what it wrote. Every wording that carries a fact the agent needs later (a finding, the
plan, the next file, a limit, a looked-up product, a summary heading, a result line) can
be read back; the others (small talk) need not be. Course choices, not the API's.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

FIELD = {"k": r"\d+", "n": r"\d+", "v": r"\d+", "t": r"\d+", "offset": r"\d+",
         "calls": r"\d+", "path": r"[^\s`(),]+", "defaults": r"[^\s`(),]+",
         "name": r"[\w.-]+", "key": r"\w+", "folder": r"\S*", "ext": r"\S*", "names": r".+",
         "x": r"[A-Z]+-[A-Z]+", "model": r"[A-Z][a-z]+ \d+", "price": r"[\d,]+",
         "ram": r"\d+", "rating": r"\d+(?:\.\d+)?", "said": r".+", "rest": r".*",
         "why": r".+", "what": r".+?", "count": r"\d+"}


class Form:
    """One way to say a line: a format with {fields}, and the regex that reads it back."""

    def __init__(self, fmt: str):
        self.fmt = fmt
        parts = re.split(r"\{(\w+)\}", fmt)
        self.fields = set(parts[1::2])
        self.rx = re.compile("^" + "".join(
            re.escape(p) if i % 2 == 0 else f"(?P<{p}>{FIELD[p]})"
            for i, p in enumerate(parts)) + "$")

    def read(self, line: str) -> dict | None:
        m = self.rx.match(line)
        return m.groupdict() if m else None

    def say(self, fields: dict) -> str:
        return self.fmt.format(**fields)


def _kind(canonical: str, *variants: str) -> tuple[Form, list[Form]]:
    forms = (Form(canonical), [Form(v) for v in variants])
    assert all(v.fields == forms[0].fields for v in forms[1]), canonical
    return forms


_PREFIXES = ("- `{path}` ({k} of {n}): ", "{k}/{n} {path}: ", "File {k} of {n}, {path}: ")
_NOTES = {  # the note of one file: canonical body, then the other ways to say it
    "{name} {key} = {v} (above {t})": (
        "{name} has {key} = {v}, above {t}", "**{name}**: {key} {v} (over {t})",
        "{name}'s {key} is {v}, which is above {t}."),
    "{name} {key} = {v} (not above {t})": (
        "{name} has {key} = {v}, not above {t}", "**{name}**: {key} {v} (at most {t})",
        "{name}'s {key} is {v}, which is not above {t}."),
    "{name} {key} = {v} via defaults (above {t})": (
        "{name} inherits {key} = {v} from the defaults, above {t}",
        "**{name}**: {key} {v} via the defaults (over {t})",
        "{name}'s {key} comes from the defaults: {v}, which is above {t}."),
    "{name} {key} = {v} via defaults (not above {t})": (
        "{name} inherits {key} = {v} from the defaults, not above {t}",
        "**{name}**: {key} {v} via the defaults (at most {t})",
        "{name}'s {key} comes from the defaults: {v}, which is not above {t}."),
    "{name} {key} = inherit (needs {defaults})": (
        "{name} has {key} = inherit; the value is in {defaults}",
        "**{name}**: {key} inherited, see {defaults}",
        "{name}'s {key} comes from {defaults}, still to look up."),
    "shared defaults (values in the file)": (
        "the shared defaults", "**shared defaults**, for every service",
        "defaults that every service can inherit."),
    "{name} has no {key} setting": (
        "{name} sets no {key}", "**{name}**: no {key} at all", "{name} has no {key} line."),
}
KINDS: list[tuple[Form, list[Form]]] = [
    _kind("Noted [{k}/{n}] {path}: " + body, *(p + v for p in _PREFIXES for v in others))
    for body, others in _NOTES.items()]
KINDS += [
    _kind("Plan: check {n} files in order, in {folder} with {ext}: {names}",
          "I'll go through all {n} files in order (folder {folder}, extension {ext}): {names}",
          "To read, one by one ({n} files in {folder}, ending in {ext}): {names}"),
    _kind("Plan: check {n} files in order: {names}",
          "I'll go through all {n} files in order: {names}",
          "To read, one by one ({n} files): {names}"),
    _kind("Next: {path}.", "Next up: `{path}`.", "Reading {path} next.", "Now for {path}."),
    _kind("Noted: the log names a hypothesis, {x}, not yet confirmed.{rest}",
          "The log suggests {x}, but nothing confirms it yet.{rest}",
          "So far only a hypothesis: {x} (unconfirmed).{rest}"),
    _kind("Noted: no root cause in this part.{rest}",
          "Nothing conclusive in this part.{rest}", "No root cause in this section yet.{rest}"),
    _kind("Noted: {model}: price ${price}; RAM {ram} GB; rating {rating}.",
          "- **{model}**: ${price}, {ram} GB RAM, rated {rating}.",
          "{model} costs ${price}, has {ram} GB of RAM and a {rating} rating."),
    _kind("Understood. Your limits as I note them: {said}. Tell me which models to look up.",
          "Got it. Your limits: {said}. Which models should I look up?",
          "Your limits, as I understand them: {said}. Tell me what to look up."),
    _kind("{calls} tool calls made in the summarized part.",
          "So far: {calls} tool calls.", "Tool calls so far: {calls}."),
]
for _heading in ("Goal", "Progress", "Key facts", "Decisions", "Next steps"):
    KINDS.append(_kind(f"## {_heading}", f"**{_heading}**", f"### {_heading}", f"{_heading}:"))

FREE = [  # small talk: said another way, never read back
    _kind("I'll start by listing the files.", "Let me list the files first.",
          "First, the file listing.", "I'll look at what is in the workspace."),
    _kind("First I'll look at my notes.", "Let me check my notes first.",
          "My notes first."),
    _kind("Before answering, I'll read my notes.", "Let me re-read my notes before I answer.",
          "One look at my notes before answering."),
    _kind("Fixing my notes.", "Let me repair the notes file.", "Correcting my notes."),
    _kind("The result for {path} is gone; reading it again.",
          "I can no longer see {path}; reading it again.", "{path} was cleared, so again:"),
    _kind("No `{key}` in {path} so far; continuing at offset={offset}.",
          "{path} has no {key} in this part; reading on from offset={offset}.",
          "Nothing on {key} yet in {path}, continuing (offset={offset})."),
    _kind("I need the shared value from {defaults}, which I can no longer see; reading it "
          "again.", "I need the value in {defaults} again.",
          "The shared value is out of sight; re-reading {defaults}."),
    _kind("I'll read {path}.", "Reading {path}.", "Let me open {path}."),
    _kind("My read of {path} was cleared; reading it again.",
          "The earlier read of {path} is gone; again.", "Re-reading {path}."),
    _kind(" The result says there is more; continuing at offset={offset}.",
          " There is more; on from offset={offset}.",
          " More follows, so I continue at offset={offset}."),
    _kind("Looking up {what}.", "Let me look up {what}.", "Checking {what}."),
    _kind("I'll list the files to see how the work divides.",
          "Let me see how the files divide first.", "Listing the files to split the work."),
    _kind("I'll hand the whole task to one sub-agent.",
          "One sub-agent can do the whole task.", "Delegating the whole task."),
    _kind("I recommend the {model} (${price}, {ram} GB RAM, rating {rating}): {why}.",
          "**{model}** (${price}, {ram} GB RAM, rated {rating}) is the one: {why}.",
          "Go with the {model}: ${price}, {ram} GB RAM, rating {rating}; {why}."),
    _kind("Combined from {count} sub-agent results.",
          "I merged the results of {count} sub-agents.", "From {count} sub-agents:"),
]


# ---------------------------------------------------------------- reading back

SPEAKER = re.compile(r"^((?:ASSISTANT|USER|TOOL RESULT[^:]*): )(.*)$")  # a transcript's lines


@lru_cache(maxsize=65_536)
def _read_line(line: str) -> str:
    speaker = SPEAKER.match(line)
    if speaker:
        return speaker.group(1) + _read_line(speaker.group(2))
    for canonical, variants in KINDS:
        for form in variants:
            fields = form.read(line)
            if fields is not None:
                return canonical.say(fields)
    return line


PAIR_BACK = [re.compile(p) for p in (  # the answer lines `say` writes, as (name, value)
    r"^\s*[-*]\s+\*\*([A-Za-z][\w.-]*)\*\*:\s*(\d+)\s*$",
    r"^\s*\|\s*([A-Za-z][\w.-]*)\s*\|\s*(\d+)s?\s*\|\s*$",
    r"^\s*[-*]\s+`([A-Za-z][\w.-]*)`:\s*(\d+)\s*s\s*$",
    r"^\s*\d+\.\s+([A-Za-z][\w.-]*)\s+—\s+(\d+)\s*$")]
INLINE_PAIR = re.compile(r"([A-Za-z][\w.-]*) \((\d+)\)")


@lru_cache(maxsize=65_536)
def read_back(text: str) -> str:
    """`text` with every line `say` can write back in the scripted agent's words."""
    out = []
    for line in text.split("\n"):
        for rx in PAIR_BACK:
            m = rx.match(line)
            if m:
                line = f"{m.group(1)}: {m.group(2)}"
                break
        else:
            if line.startswith(INLINE_LEAD):
                line = "\n".join(f"{a}: {b}" for a, b in INLINE_PAIR.findall(line))
            else:
                line = _read_line(line)
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------- saying

ANSWER_HEADS = ("**Answer**", "Here is what I found:", "Services above the threshold:",
                "## Result")
NONE_SAID = ("None of the services is above the threshold.", "No service exceeds it.",
             "**Answer:** none")
EXTRA_PROSE = ("", "", "All the files were checked.", "That covers every file in the listing.")
INLINE_LEAD = "Above the threshold: "
PAIR_LINE = re.compile(r"^([A-Za-z][\w.-]*): (\d+)$")


def _pairs(lines: list[str], rng: random.Random, final: bool) -> list[str]:
    """`name: value` lines as a Markdown list, a table, ... (inline only in a final answer)."""
    pairs = [PAIR_LINE.match(x).groups() for x in lines]
    style = rng.randrange(5 if final else 4)
    if style == 0:
        return [f"- **{a}**: {b}" for a, b in pairs]
    if style == 1:
        return ["| service | value |", "|---|---|"] + [f"| {a} | {b}s |" for a, b in pairs]
    if style == 2:
        return [f"- `{a}`: {b} s" for a, b in pairs]
    if style == 3:
        return [f"{i}. {a} — {b}" for i, (a, b) in enumerate(pairs, 1)]
    *head, last = [f"{a} ({b})" for a, b in pairs]
    return [INLINE_LEAD + (", ".join(head) + " and " + last if head else last) + "."]


def _line(line: str, rng: random.Random) -> str:
    for canonical, variants in KINDS + FREE:
        fields = canonical.read(line)
        if fields is not None:
            if fields.get("rest"):
                fields["rest"] = _line(fields["rest"], rng)
            return rng.choice(variants).say(fields)
    return line


def _needle_answer(cause: str, rng: random.Random, hypothesis: str | None) -> list[str]:
    if cause == "unknown":
        return [rng.choice(("I could not find a confirmed root cause in the log.",
                            "**Answer:** unknown, the log confirms nothing."))]
    said = [f"**Root cause: {cause}**", f"The confirmed root cause is `{cause}`.",
            f"Root cause: {cause}"]
    if hypothesis and hypothesis != cause:
        said += [f"{cause}, confirmed in the postmortem; the earlier hypothesis {hypothesis} "
                 "was ruled out.",
                 f"The root cause is {cause} (not {hypothesis}, which was only a hypothesis)."]
    return [rng.choice(said)]


def say(text: str, rng: random.Random, facts: dict | None = None) -> str:
    """The scripted agent's text, worded by `rng`: Markdown answers, no "Noted" lines.
    `facts` may name the hypothesis a log ruled out and a product rated higher than the one
    chosen, which a real answer often mentions."""
    facts = facts or {}
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        tail = lines[i + 1:]
        if line == "Answer:" and tail and (tail == ["none"] or all(PAIR_LINE.match(x)
                                                                   for x in tail)):
            out.append(rng.choice(ANSWER_HEADS))
            if tail == ["none"]:
                out[-1:] = [rng.choice(NONE_SAID)]
            else:
                out += _pairs(tail, rng, final=True)
            out += [x for x in [rng.choice(EXTRA_PROSE)] if x]
            break
        if all(PAIR_LINE.match(x) for x in lines[i:]) and i == 0:  # a sub-agent's result
            out += _pairs(lines, rng, final=False)
            break
        if text.strip() == "none":
            out.append(rng.choice(("none", "No service in this part is above the threshold.")))
            break
        if line.startswith("Answer: "):
            value = line.removeprefix("Answer: ")
            if re.fullmatch(r"[A-Z]+-[A-Z]+|unknown", value):
                out += _needle_answer(value, rng, facts.get("hypothesis"))
            elif value == "none":
                out.append(rng.choice(NONE_SAID))
            else:
                out.append(rng.choice((f"**Answer:** {value}", f"Answer: **{value}**",
                                       f"My pick: the {value}.")))
                if facts.get("better"):
                    name, rating = facts["better"]
                    out.append(f"The {name} is rated higher ({rating}) but does not meet "
                               "your limits.")
            i += 1
            continue
        if line.startswith("The log confirms the root cause: "):
            i += 1  # said again, in other words, with the answer
            continue
        out.append(_line(line, rng))
        i += 1
    return "\n".join(out)
