"""Tasks with ground truth, so every lesson's claim is a measured number.

- audit: many small service configs among log noise; which have `timeout_s` above 30?
  (`folders=k` spreads them over k region folders, for sub-agents to share out.)
- constraints: the user states limits early, many lookups follow, then asks for a choice.
- needle: one long log whose decisive line sits near its end.

Each generator is deterministic in its seed and returns a `Workload`: the task text,
scripted follow-up user turns, a toolbox, the truth, and `score(answer)`.
"""

from __future__ import annotations

import random
import re
import tempfile
from typing import Any

from agentlib.task import Score, Workload
from agentlib.tools import Toolbox
from agentlib.workspace import Workspace


def _root(root: str | None, name: str) -> str:
    return root or tempfile.mkdtemp(prefix=f"agentlib-{name}-")


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


# ---------------------------------------------------------------- audit

WORDS = ["auth", "billing", "cart", "catalog", "checkout", "email", "gateway", "inventory",
         "ledger", "media", "orders", "payments", "profile", "ratings", "search", "shipping",
         "tax", "users"]
LOG_MESSAGES = [
    "INFO request served in {ms}ms", "INFO cache hit ratio {pct}%",
    "WARN client timeout after {s}s on /v1/orders", "INFO health check ok",
    "DEBUG pool size {n} active {k}", "WARN retrying upstream call ({k}/3)",
    "INFO deployed build {build}", "ERROR upstream returned 503; backing off {s}s",
]
TIMEOUTS = [5, 10, 15, 20, 25, 30, 30, 35, 45, 60, 90, 120]
DEFAULTS_TIMEOUT = 40
REGIONS = ["eu-west", "us-east", "ap-south", "eu-north", "us-west", "ap-east", "sa-east",
           "af-south"]  # the sub-folders of audit(folders=...)
AUDIT_TASK = (
    "Audit the service configs in this workspace. Find every service whose `timeout_s` is "
    "above {threshold} and give its value. A service with `timeout_s = inherit` uses the value "
    "in `services/_defaults.conf`. When you are done, answer with one line per such service "
    "in the form `name: value` (the file name without `.conf`), or `none`.")


def _log_line(rng: random.Random) -> str:
    msg = rng.choice(LOG_MESSAGES).format(ms=rng.randint(3, 900), pct=rng.randint(40, 99),
                                          s=rng.randint(1, 90), n=rng.randint(4, 64),
                                          k=rng.randint(1, 3), build=rng.randint(1000, 9999))
    return (f"2026-03-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
            f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z {msg}")


def _service_file(rng: random.Random, name: str, timeout: int | str) -> str:
    settings = ["[settings]", f"retries = {rng.randint(1, 5)}", f"timeout_s = {timeout}",
                f"pool_size = {rng.choice([8, 16, 32, 64])}",
                f"log_level = {rng.choice(['info', 'warn', 'debug'])}"]
    noise = [_log_line(rng) for _ in range(rng.randint(24, 40))]
    at = rng.randint(0, len(noise))
    lines = [f"# service: {name}", f"# owner: team-{rng.randint(1, 9)}", "[recent log]"]
    lines += noise[:at] + settings + (["[recent log, continued]"] if at < len(noise) else [])
    lines += noise[at:]
    return "\n".join(lines) + "\n"


def audit(n_files: int = 12, seed: int = 0, *, threshold: int = 30,
          root: str | None = None, folders: int | None = None) -> Workload:
    """Service configs among log noise; find those with `timeout_s` above `threshold`.

    `folders` spreads the configs over that many sub-folders of `services/` (one per
    region, dealt in turn, so their sizes differ by one at most); the files' contents, the
    truth and the shared defaults file stay the same as without it.
    """
    _check_int("n_files", n_files, 1, 5000)
    if folders is not None:
        _check_int("folders", folders, 1, len(REGIONS))
    rng = random.Random(f"audit-{seed}")
    names = [WORDS[i % len(WORDS)] + ("" if i < len(WORDS) else f"-{i // len(WORDS)}")
             for i in range(n_files)]
    rng.shuffle(names)
    where = {name: f"services/{REGIONS[i % folders]}/" if folders else "services/"
             for i, name in enumerate(names)}
    files = {"services/_defaults.conf":
             "# shared defaults for every service\n[settings]\nretries = 3\n"
             f"timeout_s = {DEFAULTS_TIMEOUT}\npool_size = 16\n"}
    truth: dict[str, int] = {}
    for name in names:
        timeout: int | str = "inherit" if rng.random() < 0.15 else rng.choice(TIMEOUTS)
        files[f"{where[name]}{name}.conf"] = _service_file(rng, name, timeout)
        value = DEFAULTS_TIMEOUT if timeout == "inherit" else timeout
        if value > threshold:
            truth[name] = value
    ws = Workspace.from_files(_root(root, "audit"), files)

    def score(answer: str | None) -> Score:
        found = _parse_pairs(answer or "", names)
        hits = sum(1 for k, v in found.items() if truth.get(k) == v)
        precision = hits / len(found) if found else (1.0 if not truth else 0.0)
        recall = hits / len(truth) if truth else (1.0 if answer else 0.0)
        ok = answer is not None and precision == 1.0 and recall == 1.0
        return Score(ok, precision, recall,
                     detail=f"{hits} of {len(truth)} found, {len(found) - hits} wrong")

    return Workload("audit", AUDIT_TASK.format(threshold=threshold), Toolbox(ws.tools()),
                    truth, score, workspace=ws)


# ---------------------------------------------------------------- reading answers
# A real model answers in Markdown: lists, bold, tables, units (`90s`), extra prose, and
# the items it rejected named as such ("not above 30: checkout (30)"). The scorers read
# what the answer asserts: clauses and sections that reject something are set aside.

AUDIT_REJECTS = re.compile(  # "checkout: 30 (not above 30)", "## Below the threshold"
    r"not (?:above|over|greater|more|exceed)|n't exceed|\bbelow\b|\bunder\b|at or below|"
    r"at most|≤|<=|\bwithin\b|exclud|ruled out|equal to|exactly \d|❌|✗|✘|\|\s*no\s*\|",
    re.I)
NEEDLE_REJECTS = re.compile(  # "the hypothesis CERT-EXPIRED was ruled out", "not DNS-..."
    r"ruled out|rule out|\bnot\b|n't|unconfirmed|hypothes|suspect|\binitial|\bearlier\b|"
    r"instead of|rather than|\bwrong\b|incorrect|disproved|red herring|rejected|exclud|"
    r"\bguess", re.I)
SHOP_REJECTS = re.compile(  # "the Basalt 15 is rated higher but over budget"
    r"over (?:the |your )?(?:budget|limit)|exceeds?|too little|too expensive|only \d+ ?GB|"
    r"does not|doesn't|\bnot\b|fails?\b|ruled out|rejected|exclud|instead of|rather than|"
    r"❌|✗|✘", re.I)
HEADING = re.compile(r"^\s*(?:#+\s+.*|\*\*[^*]+\*\*:?|[^|:]*:)\s*$")
MARKUP = re.compile(r"\*\*|__|`")


def _sections(answer: str, rejects: re.Pattern) -> list[tuple[str, bool]]:
    """(line, in a section whose heading rejects) for each line of an answer."""
    out, rejecting = [], False
    for line in answer.splitlines():
        if HEADING.match(line):
            rejecting = bool(rejects.search(line))
        out.append((line, rejecting))
    return out


def _clauses(line: str, pattern: str = r"[;()\n]|\.\s|\.$|\bbut\b|\bwhereas\b") -> list[str]:
    return [c for c in re.split(pattern, line) if c.strip()]


def _names_regex(names) -> re.Pattern:
    alternation = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternation})(?![\w-])", re.I)


def _parse_pairs(answer: str, names=None) -> dict[str, int]:
    """`name: value` pairs an answer asserts. With `names` (the workload's services), a
    pair is a known name followed by a number in the same clause; without, one per line."""
    pairs: dict[str, int] = {}
    known = _names_regex(names) if names else None
    canon = {n.lower(): n for n in names or ()}
    for line, rejecting in _sections(answer, AUDIT_REJECTS):
        if rejecting or HEADING.match(line):
            continue
        for clause in _clauses(MARKUP.sub("", line), r"[;\n]|\.\s|\bbut\b|\bwhereas\b"):
            if AUDIT_REJECTS.search(clause):
                continue
            if known is None:
                m = re.match(r"^[\s*+|-]*(?:\d+\.\s+)?(?:[\w.-]*/)*([A-Za-z][\w.-]*?)"
                             r"(?:\.conf)?\s*(?::|\||—|–|-|=|→|->)\s*(\d+)\b", clause)
                if m:
                    pairs[m.group(1)] = int(m.group(2))
                continue
            hits = list(known.finditer(clause))
            for i, m in enumerate(hits):
                end = hits[i + 1].start() if i + 1 < len(hits) else len(clause)
                number = re.search(r"\d+", clause[m.end():end])
                if number:
                    pairs[canon[m.group(1).lower()]] = int(number.group())
    return pairs


def _asserted(answer: str, names, pattern: str, rejects: re.Pattern) -> list[str]:
    """The known names an answer mentions outside rejecting clauses, in order."""
    known, canon = _names_regex(names), {n.lower(): n for n in names}
    found = []
    for line, rejecting in _sections(answer, rejects):
        if rejecting:
            continue
        for clause in _clauses(line, pattern):
            hits = known.findall(clause)
            if len(hits) > 1:  # "X, not Y": split the clause where a rejection starts
                pieces = re.split(r",|(?=\bnot\b)|(?=instead of)|(?=rather than)", clause)
            else:
                pieces = [clause]
            for piece in pieces:
                if not rejects.search(piece):
                    found += [canon[h.lower()] for h in known.findall(piece)]
    return found


# ---------------------------------------------------------------- needle

CAUSES = ["CERT-EXPIRED", "DISK-FULL", "DNS-MISCONFIG", "POOL-EXHAUSTED", "CLOCK-SKEW",
          "BAD-DEPLOY"]
NEEDLE_TASK = ("Read `incident.log` and report the confirmed root cause of the incident. "
               "Answer with the cause code only (for example `DISK-FULL`).")


def needle(n_lines: int = 400, seed: int = 0, *, root: str | None = None) -> Workload:
    """One long log; an early guess names a wrong cause, the confirmed one is near the end."""
    _check_int("n_lines", n_lines, 20, 200_000)
    rng = random.Random(f"needle-{seed}")
    guess, cause = rng.sample(CAUSES, 2)
    lines = [_log_line(rng) for _ in range(n_lines)]
    lines[n_lines // 10] = f"NOTE on-call hypothesis: root cause is {guess} (unconfirmed)"
    lines[n_lines - max(3, n_lines // 50)] = (
        f"RESOLVED postmortem: root cause confirmed: {cause} (hypothesis {guess} ruled out)")
    ws = Workspace.from_files(_root(root, "needle"), {"incident.log": "\n".join(lines) + "\n"})

    def score(answer: str | None) -> Score:
        said = set(_asserted(answer or "", CAUSES, r"[;()\n]|\.\s|\.$|\bbut\b",
                             NEEDLE_REJECTS))
        named = {c for c in CAUSES if re.search(rf"(?<![\w-]){c}(?![\w-])", answer or "", re.I)}
        ok = said == {cause}
        ruled = f" (ruled out: {', '.join(sorted(named - said))})" if named - said else ""
        return Score(ok, detail=f"confirmed cause {cause}; answered {sorted(said) or 'nothing'}"
                                f"{ruled}")

    return Workload("needle", NEEDLE_TASK, Toolbox(ws.tools()), cause, score, workspace=ws)


# ---------------------------------------------------------------- constraints

LAPTOPS = ["Aero 14", "Basalt 15", "Cirrus 13", "Drift 16", "Ember 14", "Fjord 15", "Grove 13",
           "Harbor 16", "Isle 14", "Juniper 15", "Kestrel 13", "Lumen 16"]
CONSTRAINTS_TASK = ("I'm buying laptops for my team. I'll ask you to look up a few models "
                    "first, then to pick one.")
CONSTRAINTS_LIMITS = ("One thing before we start, my hard limits: the budget is at most "
                      "${budget:,} per laptop, and it must have at least {ram} GB of RAM.")


def constraints(n_lookups: int = 8, seed: int = 0, *, budget: int = 1400, ram: int = 32
                ) -> Workload:
    """Limits stated first, lookups after, a choice at the end: does the choice keep the limits?"""
    _check_int("n_lookups", n_lookups, 3, len(LAPTOPS))
    rng = random.Random(f"constraints-{seed}")
    names = rng.sample(LAPTOPS, n_lookups)
    catalog: dict[str, dict] = {}
    for i, name in enumerate(names):
        if i == 1:  # the right answer, looked up early
            spec = {"price": budget - 100, "ram": ram, "rating": 4.5}
        elif i == n_lookups - 2:  # the best rated overall, over budget
            spec = {"price": budget + 500, "ram": ram * 2, "rating": 4.9}
        elif i % 2:  # too little RAM, well rated
            spec = {"price": budget - 300, "ram": ram // 2, "rating": 4.7}
        else:  # fits, but rated lower
            spec = {"price": budget - rng.randint(0, 4) * 50, "ram": ram,
                    "rating": round(3.6 + rng.randint(0, 6) / 10, 1)}
        catalog[name] = spec
    best = names[1]

    def get_product(name: str) -> str:
        """Look up a laptop model's price, RAM and rating.

        Args:
            name: the model name, for example "Aero 14".
        """
        key = name.strip().strip("'\"").removeprefix("the ").strip()
        if key not in catalog:
            raise KeyError(f"no laptop named {name!r}; known: {', '.join(sorted(catalog))}")
        s = catalog[key]
        return f"{key}: price ${s['price']:,}; RAM {s['ram']} GB; rating {s['rating']}"

    def score(answer: str | None) -> Score:
        chosen = _choice(answer or "", catalog)
        if chosen is None:
            return Score(False, constraint_kept=False, detail="no known model named")
        s = catalog[chosen]
        kept = s["price"] <= budget and s["ram"] >= ram
        return Score(chosen == best, constraint_kept=kept,
                     detail=f"chose {chosen} (${s['price']:,}, {s['ram']} GB); best is {best}")

    turns = [CONSTRAINTS_LIMITS.format(budget=budget, ram=ram)]
    turns += [f"Look up the {n}." for n in names]
    turns.append("Which one should I buy? Answer with the model name only.")
    return Workload("constraints", CONSTRAINTS_TASK,
                    Toolbox([get_product]), best, score, turns=turns)


CHOOSES = re.compile(r"\banswer\b|recommend|\bpick\b|\bchoose\b|go with|\bbuy\b|best (?:choice|"
                     r"option|fit)|winner", re.I)


def _choice(answer: str, names) -> str | None:
    """The model an answer chooses: named on its answer line, else after the words that
    recommend it, else first named where nothing rejects it, else first named at all."""
    sentences = r"[;\n]|\.\s|\.$"
    for line in answer.splitlines():
        if re.match(r"^[\s*#>-]*answer\b", MARKUP.sub("", line), re.I):
            found = _asserted(line, names, sentences, SHOP_REJECTS)
            if found:
                return found[0]
    chosen = [c[CHOOSES.search(c).start():] for c in _clauses(answer, sentences)
              if CHOOSES.search(c)]  # what follows "I recommend", "choose", ...
    for found in (_asserted("\n".join(chosen), names, sentences, SHOP_REJECTS),
                  _asserted(answer, names, sentences, SHOP_REJECTS)):
        if found:
            return found[0]
    known = _names_regex(names).search(answer)
    return {n.lower(): n for n in names}[known.group(1).lower()] if known else None


# ---------------------------------------------------------------- ops (a large tool catalog)

def ops(seed: int = 0, **options) -> Workload:
    """The ops platform: ~60 realistic tool definitions, a task that needs a few of them
    (lesson 9). See `coursekit.opsworkload.ops` for the variants and options."""
    from coursekit import opsworkload

    return opsworkload.ops(seed, **options)
