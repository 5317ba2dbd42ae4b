"""The unscripted stand-in: the scripted agent's decisions, varied the way a real model varies.

`connect(offline=True, unscripted=True, seed=N)` puts this layer around `agent.respond`.
From the seed and the request (so the same request gets the same reply) it varies what
a real model may vary and a lesson must not depend on:

- wording: every line said another way, Markdown answers (lists, tables, units, extra
  prose, a ruled-out hypothesis named), no "Noted" lines, summaries that paraphrase
  (`voice.py`); it reads its own earlier words back, as a model reads what it wrote;
- pace: sometimes the next files are read in the same reply (fewer steps), sometimes a
  file is read again before answering (an extra step); independent calls in any order;
- searches and scripts (lesson 9's ops platform): other patterns and phrases that find
  the same tool, scripts written another way (`opsagent.styled`);
- faults: now and then a 529 `overloaded_error` (the SDK retries it).

Thinking blocks come from the model the client asks for (the default Claude model, whose
rules the server applies: `between_tools` notes, blocks bound to the conversation). It
is the test double for live mode (`course.py live-check`): runs still finish most of the
time, and a lesson must survive the ones that do not. It is not Claude either.
"""

from __future__ import annotations

import random
import re

from standin import agent, opsagent, voice

OVERLOAD_RATE = 0.03  # share of create calls answered 529 (retried by the SDK)
BATCH = (0, 1, 1, 2)  # extra files read in the same reply
VERIFY_RATE = 0.3  # chance to re-read a file before answering (once per run)
READ_BACK_TOOLS = ("notes", "memory", "delegate")  # results that hold the model's own words
HYPOTHESIS_RE = re.compile(r"hypothesis: root cause is ([A-Z]+-[A-Z]+)")
FACT_RE = re.compile(r"([A-Z][a-z]+ \d+): price \$[\d,]+; RAM \d+ GB; rating (\d+(?:\.\d+)?)")


class Unscripted:
    """The layer; `seed` decides every variation."""

    def __init__(self, seed: int):
        self.seed = int(seed)

    def overloaded(self, call: int) -> bool:
        """Is create call number `call` answered 529? (A retry is a new call.)"""
        return random.Random(f"529:{self.seed}:{call}").random() < OVERLOAD_RATE

    def respond(self, *, system, tools, messages, seed: str) -> list[dict]:
        rng = random.Random(f"unscripted:{self.seed}:{seed}")
        plain = read_back(messages)
        with opsagent.styled(random.Random(f"ops:{self.seed}:{seed}")):
            content = agent.respond(system=system, tools=tools, messages=plain, seed=seed)
        view = agent.read_view(system, tools, plain)
        content = pace(content, view, rng)
        facts = _facts(view, content)
        return [_say(b, rng, facts) for b in content]


# ---------------------------------------------------------------- reading back

def read_back(messages: list[dict]) -> list[dict]:
    """The history with the model's own words (its text, thinking, notes, sub-agents'
    results, summaries) read back into the scripted agent's lines."""
    names = {}
    out = []
    for m in messages:
        if not isinstance(m.get("content"), list):
            out.append({**m, "content": voice.read_back(m["content"])}
                       if isinstance(m.get("content"), str) else m)
            continue
        content = []
        for b in m["content"]:
            kind = b.get("type")
            if kind == "tool_use":
                names[b.get("id")] = b.get("name")
            if kind == "text":
                b = {**b, "text": voice.read_back(b["text"])}
            elif kind == "thinking" and b.get("thinking"):
                b = {**b, "thinking": voice.read_back(b["thinking"])}
            elif kind == "compaction" and b.get("content"):
                b = {**b, "content": voice.read_back(b["content"])}
            elif kind == "tool_result" and names.get(b.get("tool_use_id")) in READ_BACK_TOOLS:
                b = {**b, "content": _result_back(b.get("content"))}
            content.append(b)
        out.append({**m, "content": content})
    return out


def _result_back(content):
    if isinstance(content, str):
        return "\n".join(_numbered_back(x) for x in content.split("\n"))
    return [{**c, "text": _result_back(c["text"])} if c.get("type") == "text" else c
            for c in content or []]


def _numbered_back(line: str) -> str:
    """A line of a result, read back; a memory file's view numbers its lines ("   3\\t")."""
    m = re.match(r"^(\s*\d+\t)(.*)$", line)
    return m.group(1) + voice.read_back(m.group(2)) if m else voice.read_back(line)


# ---------------------------------------------------------------- pace

def pace(content: list[dict], view: agent.View, rng: random.Random) -> list[dict]:
    """Fewer steps (read the next files now), an extra step (check a file again before
    answering), and independent calls in any order."""
    calls = [b for b in content if b["type"] == "tool_use"]
    if not calls:
        return _verify(content, view, rng)
    reads = [b for b in calls if b["name"] == "read_file"]
    if len(reads) == 1 and set(reads[0]["input"]) == {"path"}:
        more = _next_files(reads[0]["input"]["path"], view)[:rng.choice(BATCH)]
        at = content.index(reads[0]) + 1
        content = content[:at] + [_call("read_file", path=p) for p in more] + content[at:]
    texts = [b for b in content if b["type"] != "tool_use"]
    calls = [b for b in content if b["type"] == "tool_use"]
    if {b["name"] for b in calls} != {"read_file"}:  # reads stay in order: a capped one
        rng.shuffle(calls)  # must be continued before the files after it are noted
    return texts + calls


def _listing(view: agent.View) -> list[str]:
    for r in reversed(view.results):
        if r.name == "list_files" and not r.cleared and not r.is_error:
            return agent.LIST_LINE_RE.findall(r.text)
    return []


def _next_files(path: str, view: agent.View) -> list[str]:
    """The files listed after `path` in its folder, not yet read, not the defaults."""
    files = _listing(view)
    if path not in files:
        return []
    folder = path.rsplit("/", 1)[0]
    read = {r.input.get("path") for r in view.results if r.name == "read_file"}
    return [f for f in files[files.index(path) + 1:] if f.rsplit("/", 1)[0] == folder
            and f not in read and not f.endswith("_defaults.conf")]


def _verify(content: list[dict], view: agent.View, rng: random.Random) -> list[dict]:
    """Before an audit's answer, sometimes read one of the files again."""
    text = "\n".join(b.get("text", "") for b in content)
    paths = [r.input.get("path") for r in view.results if r.name == "read_file"]
    done = [p for p in paths if p and not p.endswith("_defaults.conf")]
    if "read_file" not in view.tool_names or not re.search(r"^Answer:$|^\w[\w.-]*: \d+$",
                                                           text, re.M) \
            or len(set(paths)) != len(paths) or len(done) < 2 or rng.random() >= VERIFY_RATE:
        return content
    path = rng.choice(done)
    return [{"type": "text", "text": f"Before I answer, let me double-check {path}."},
            _call("read_file", path=path)]


def _call(tool: str, **args) -> dict:
    return {"type": "tool_use", "id": "", "name": tool, "input": args}


# ---------------------------------------------------------------- wording

def _facts(view: agent.View, content: list[dict]) -> dict:
    """What a real answer often mentions besides the answer: the ruled-out hypothesis of a
    log, a product rated higher than the one chosen."""
    seen = "\n".join([view.knowledge] + [r.text for r in view.results if not r.cleared])
    facts: dict = {}
    if (h := HYPOTHESIS_RE.search(seen)):
        facts["hypothesis"] = h.group(1)
    text = "\n".join(b.get("text", "") for b in content)
    chosen = re.search(r"^Answer: (.+)$", text, re.M)
    ratings = {n: float(r) for n, r in FACT_RE.findall(seen)}
    if chosen and chosen.group(1) in ratings:
        better = [(r, n) for n, r in ratings.items() if r > ratings[chosen.group(1)]]
        if better:
            r, n = max(better)
            facts["better"] = (n, r)
    return facts


def _say(block: dict, rng: random.Random, facts: dict) -> dict:
    if block["type"] == "text":
        return {**block, "text": voice.say(block["text"], rng, facts)}
    if block["type"] == "tool_use" and block["name"] in ("notes", "memory"):
        written = {k: voice.say(v, rng) for k, v in block["input"].items()
                   if k in ("text", "file_text", "insert_text") and isinstance(v, str)}
        return {**block, "input": {**block["input"], **written}}
    return block
