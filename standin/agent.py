"""What the offline course model says: an agent whose only knowledge is the request.

Each call reads the system prompt, the tools and the visible messages, and decides one
step. Nothing is remembered between calls, and nothing knows which lesson is running:
if a strategy removed the task, a finding or a constraint, the model no longer knows it.

The course model understands the course's three kinds of task (an audit of configs, a
needle in a long log, a purchase under constraints). Offered a `delegate` tool, it leads
an audit instead of doing it: one sub-task per folder, then an answer from the results;
given a sub-task for one folder, it audits only that folder. It is a deterministic
stand-in for a real model, written so that the effects of context management are
visible; it is not Claude and is not meant to imitate Claude's wording.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from standin.history import SUMMARY_MARK, blocks, result_text
from standin.opsagent import Ops
from standin.summarizer import summarize, turns_from_transcript

SUMMARY_REQUEST = re.compile(  # a system prompt asking for a summary, in the usual words
    r"\bsummar|\bcondens|\bcompress|\brecap|\bdistil|\bdigest of\b|\bsum up\b"
    r"|\bboil (?:it )?down\b|\bshorten (?:the|this|it)\b|요약|압축해|줄여", re.I)  # or Korean
CLEARED_RE = re.compile(r"^\s*\[?\s*(tool result\s+)?(cleared|removed|omitted|elided)", re.I)
CONTINUE_RE = re.compile(r'continue with read_file\(path=("(?:[^"\\\n]|\\.)*"), offset=(\d+)\)')
NO_TASK = (  # worded so that none of the skills' task patterns matches it
    "I see no task I can do. I am the offline course model, not Claude, and only do the "
    "course's three tasks: a config audit, a root cause in a log, a laptop within limits "
    "(coursekit.workloads). For anything else, set ANTHROPIC_API_KEY.")


@dataclass
class Result:
    """A tool result the model can see, with the call that produced it."""

    name: str
    input: dict
    text: str
    is_error: bool
    newest: bool  # in the last message: not yet looked at

    @property
    def cleared(self) -> bool:
        return bool(CLEARED_RE.match(self.text))


@dataclass
class View:
    """Everything visible in one request, sorted by kind."""

    system: str
    tool_names: set[str]
    user_texts: list[str] = field(default_factory=list)  # what the user wrote, oldest first
    own_texts: list[str] = field(default_factory=list)  # the model's earlier text (its notes)
    summaries: list[str] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    tool_defs: dict = field(default_factory=dict)  # the definitions it can read, by name

    @property
    def knowledge(self) -> str:
        """All text the model can read, for facts and constraints."""
        parts = [self.system, *self.summaries, *self.user_texts, *self.own_texts]
        return "\n".join(p for p in parts if p)

    @property
    def newest(self) -> list[Result]:
        return [r for r in self.results if r.newest]

    def last_instruction(self) -> str:
        return self.user_texts[-1] if self.user_texts else ""


def read_view(system, tools, messages) -> View:
    if isinstance(system, list):
        system = "\n".join(b.get("text", "") for b in system)
    view = View(system or "", {t.get("name", "") for t in tools or []},
                tool_defs={t.get("name", ""): t for t in tools or []})
    calls: dict[str, tuple[str, dict]] = {}
    last = len(messages) - 1
    for i, m in enumerate(messages):
        for b in blocks(m):
            kind = b.get("type")
            if kind == "text" and m["role"] == "user":
                target = view.summaries if b["text"].startswith(SUMMARY_MARK) else view.user_texts
                target.append(b["text"])
            elif kind == "text":
                view.own_texts.append(b["text"])
            elif kind == "thinking":  # its own earlier thinking, where the API keeps it
                view.own_texts.append(b.get("thinking") or "")
            elif kind == "compaction" and b.get("content"):
                view.summaries.append(b["content"])
            elif kind in ("tool_use", "server_tool_use"):
                calls[b.get("id")] = (b.get("name"), b.get("input") or {})
            elif kind == "tool_search_tool_result":
                name, args = calls.get(b.get("tool_use_id"), ("?", {}))
                found = b.get("content") if isinstance(b.get("content"), dict) else {}
                names = [r.get("tool_name", "") for r in found.get("tool_references") or []]
                view.results.append(Result(name, args, "\n".join(names) or "no tools found",
                                           "error_code" in found, newest=i == last))
            elif kind == "code_execution_tool_result":
                name, args = calls.get(b.get("tool_use_id"), ("?", {}))
                out = b.get("content") if isinstance(b.get("content"), dict) else {}
                text = out.get("stdout", "") + out.get("stderr", "") if "stdout" in out else \
                    f"error: {out.get('error_code')}"
                view.results.append(Result(name, args, text, bool(out.get("return_code")) or
                                           "error_code" in out, newest=i == last))
            elif kind == "tool_result":
                name, args = calls.get(b["tool_use_id"], ("?", {}))
                view.results.append(Result(name, args, result_text(b), bool(b.get("is_error")),
                                           newest=i == last))
    return view


def respond(*, system, tools, messages, seed: str) -> list[dict]:
    """The content of the model's next message (tool_use ids are filled in by the server)."""
    view = read_view(system, tools, messages)
    if not tools and _asks_for_summary(view):
        return [_text(summarize(turns_from_transcript("\n".join(view.user_texts)), view.system))]
    for skill in (Ops, Shopping, Lead, Audit, Needle):
        if skill.applies(view):
            return skill(view).act()
    return [_text(NO_TASK)]  # a plain reply, never an error: the request itself was fine


def _asks_for_summary(view: View) -> bool:
    return bool(SUMMARY_REQUEST.search(view.system))


def parse_notice(text: str) -> tuple[str, int] | None:
    """(path, offset) of the last "continue with read_file(...)" a result ends with."""
    found = CONTINUE_RE.findall(text)
    return (json.loads(found[-1][0]), int(found[-1][1])) if found else None


def _text(s: str) -> dict:
    return {"type": "text", "text": s}


def _call(tool: str, **args) -> dict:
    return {"type": "tool_use", "id": "", "name": tool, "input": args}


# ---------------------------------------------------------------- scratchpad

MEMORY_FILE = "/memories/notes.md"
LINE_NUMBER = re.compile(r"^\s*\d+\t", re.M)


class Scratchpad:
    """The model's use of a notes file outside the window: the `notes` tool or `memory`.

    Used only when such a tool is offered and the system prompt asks for notes or memory.
    """

    def __init__(self, view: View):
        self.view = view
        self.kind = ("notes" if "notes" in view.tool_names else
                     "memory" if "memory" in view.tool_names else None)
        asks = re.search(r"\b(notes|memory)\b", view.system, re.I)
        self.on = bool(self.kind and asks)
        self.results = [r for r in view.results if r.name == self.kind and not r.cleared]

    def text(self) -> str:
        """What the model has read from its notes and can still see."""
        reads = [r.text for r in self.results if not r.is_error and self._is_read(r)]
        return LINE_NUMBER.sub("", "\n".join(reads))

    def _is_read(self, r: Result) -> bool:
        return r.input.get("action") == "read" if self.kind == "notes" else \
            r.input.get("command") == "view" and r.input.get("path") == MEMORY_FILE

    def looked(self) -> bool:
        """Has the model looked at its notes (or found there are none) in this window?"""
        return any(r.input.get("action") == "read" or r.input.get("command") == "view"
                   for r in self.results)

    def just_read(self) -> bool:
        return any(r.newest and not r.is_error and self._is_read(r) for r in self.results)

    def read(self) -> dict:
        if self.kind == "notes":
            return _call("notes", action="read")
        return _call("memory", command="view", path=MEMORY_FILE)

    def _exists(self) -> bool:
        """Does the notes file exist, as far as the visible results tell?"""
        return any(not r.is_error and r.input.get("path") == MEMORY_FILE for r in self.results)

    def append(self, text: str) -> dict:
        if self.kind == "notes":
            return _call("notes", action="append", text=text)
        for r in self.results:  # repair the previous write if it went the wrong way
            if r.newest and r.is_error and "already exists" in r.text:
                return _call("memory", command="insert", path=MEMORY_FILE, insert_line=0,
                             insert_text=r.input.get("file_text", "") + "\n" + text)
            if r.newest and r.is_error and "does not exist" in r.text \
                    and r.input.get("command") == "insert":
                return _call("memory", command="create", path=MEMORY_FILE,
                             file_text=r.input.get("insert_text", "") + "\n" + text + "\n")
        if self._exists():
            return _call("memory", command="insert", path=MEMORY_FILE, insert_line=0,
                         insert_text=text)
        return _call("memory", command="create", path=MEMORY_FILE, file_text=text + "\n")


# ---------------------------------------------------------------- audit

NOTE_RE = re.compile(r"^Noted \[(\d+)/(\d+)\] (\S+): (.*)$", re.M)
PLAN_RE = re.compile(r"^Plan: check (\d+) files in order(?:, in (\S*) with (\S*))?: (.+)$", re.M)
LIST_LINE_RE = re.compile(r"^(\S+)\s+\(\d+ lines?\)$", re.M)
FOLDER_RE = re.compile(r"in the folder `([^`]*/)`")  # a sub-task for one folder
RESULT_ONLY_RE = re.compile(r"\bthe result only\b", re.I)  # a sub-agent's reply rules


def plan(files: list[str]) -> str:
    """The model's note of what it will read, compact: folder and extension said once."""
    folder = files[0].rsplit("/", 1)[0] + "/" if "/" in files[0] else ""
    ext = "." + files[0].rsplit(".", 1)[-1] if "." in files[0] else ""
    if all(f.startswith(folder) and f.endswith(ext) for f in files) and (folder or ext):
        names = [f[len(folder):len(f) - len(ext)] for f in files]
        return (f"Plan: check {len(files)} files in order, in {folder} with {ext}: "
                + ", ".join(names))
    return f"Plan: check {len(files)} files in order: {', '.join(files)}"


class Audit:
    """Read every file of the listing in order, note each finding, answer from the notes."""

    TASK_RE = re.compile(r"whose `?(\w+)`? is above (\d+)")

    @classmethod
    def applies(cls, view: View) -> bool:
        return cls.TASK_RE.search(view.system + "\n" + "\n".join(view.user_texts +
                                                                 view.summaries)) is not None

    def __init__(self, view: View):
        self.view = view
        m = self.TASK_RE.search("\n".join([view.system, *view.user_texts, *view.summaries]))
        self.key, self.threshold = m.group(1), int(m.group(2))
        folder = FOLDER_RE.search("\n".join([view.system, *view.user_texts, *view.summaries]))
        self.folder = folder.group(1) if folder else None
        self.pad = Scratchpad(view)
        # its notes: in summaries, its own words, the notes file, and what the system prompt
        # or a system message says (an operator's task list or findings, read as its own)
        self.memory = "\n".join([view.system, *view.summaries, *view.own_texts, self.pad.text()])
        self.notes: dict[tuple[int, str], str] = {}
        for a, _, path, rest in NOTE_RE.findall(self.memory):  # a resolved note wins
            if "= inherit (needs" not in rest or (int(a), path) not in self.notes:
                self.notes[(int(a), path)] = rest

    def files(self) -> list[str]:
        for r in reversed(self.view.results):
            if r.name == "list_files" and not r.cleared and not r.is_error:
                found = [f for f in LIST_LINE_RE.findall(r.text) if self._mine(f)]
                if found:
                    return found
        plans = PLAN_RE.findall(self.memory)
        if not plans:
            return []
        _, folder, ext, names = plans[-1]
        return [f"{folder}{name.strip()}{ext}" for name in names.split(",")]

    def _mine(self, path: str) -> bool:
        """Is `path` part of this task: any file, or with a folder named, the files
        directly in it and the shared defaults?"""
        return self.folder is None or path.endswith("_defaults.conf") or \
            path.rsplit("/", 1)[0] + "/" == self.folder

    def visible_file(self, path: str) -> str | None:
        """The newest uncut, uncleared text of `path` the model can see, if any."""
        for r in reversed(self.view.results):
            if r.name == "read_file" and r.input.get("path") == path and not r.cleared \
                    and not r.is_error:
                return r.text
        return None

    def value_in(self, text: str) -> str | None:
        m = re.search(rf"^\s*{re.escape(self.key)}\s*=\s*(\d+|inherit)\s*$", text, re.M)
        return m.group(1) if m else None

    def act(self) -> list[dict]:
        """One step; with a notes tool, findings also go to the notes file, read first."""
        pad = self.pad
        if pad.on and not self.notes and not pad.looked():
            return [_text("First I'll look at my notes."), pad.read()]
        content = self.decide()
        final = content[-1]["type"] == "text"
        said = [line for line in content[0]["text"].splitlines()
                if line.startswith(("Noted [", "Plan: "))]
        repair = [r for r in pad.results if r.newest and r.is_error
                  and r.input.get("command") in ("create", "insert")]
        if pad.on and (said or repair):  # save findings first; answer on a later step
            if final:
                content = [_text("\n".join(said) or "Fixing my notes.")]
            return content + [pad.append("\n".join(said))]
        if pad.on and final and not pad.just_read():
            return [_text("Before answering, I'll read my notes."), pad.read()]
        return content

    def decide(self) -> list[dict]:
        files = self.files()
        said: list[str] = []
        if not files:
            if any(r.name == "list_files" and r.newest for r in self.view.results):
                return [_text("The workspace has no files to audit. Answer: none")]
            return [_text("I'll start by listing the files."), _call("list_files")]
        if not PLAN_RE.search(self.memory) or \
                any(r.name == "list_files" and r.newest for r in self.view.results):
            said.append(plan(files))
        defaults = next((f for f in files if f.endswith("_defaults.conf")), None)
        n = len(files)
        # look at what just came back
        for r in self.view.newest:
            if r.name != "read_file":
                continue
            path = r.input.get("path", "")
            if path not in files:
                continue
            pos = files.index(path) + 1
            if r.cleared or r.is_error:
                return [_text("\n".join(said + [f"The result for {path} is gone; reading it "
                                                "again."])), _call("read_file", path=path)]
            value = self.value_in(r.text)
            notice = parse_notice(r.text)
            name = path.rsplit("/", 1)[-1].removesuffix(".conf")
            if path == defaults:
                note = "shared defaults (values in the file)"
            elif value is None and notice:
                said.append(f"No `{self.key}` in {path} so far; continuing at "
                            f"offset={notice[1]}.")
                return [_text("\n".join(said)), _call("read_file", path=notice[0],
                                                      offset=notice[1])]
            elif value is None:
                note = f"{name} has no {self.key} setting"
            elif value == "inherit":
                note = f"{name} {self.key} = inherit (needs {defaults})"
            else:
                note = self._verdict(name, int(value))
            self.notes[(pos, path)] = note
            said.append(f"Noted [{pos}/{n}] {path}: {note}")
        # resolve inherited values against visible defaults, re-reading them when cleared
        pending = [(pos, path, note) for (pos, path), note in sorted(self.notes.items())
                   if "= inherit (needs" in note]
        if pending:
            text = self.visible_file(defaults) if defaults else None
            value = self.value_in(text) if text else None
            if value is None and defaults:
                said.append(f"I need the shared value from {defaults}, which I can no "
                            "longer see; reading it again.")
                return [_text("\n".join(said)), _call("read_file", path=defaults)]
            for pos, path, _ in pending:
                name = path.rsplit("/", 1)[-1].removesuffix(".conf")
                note = self._verdict(name, int(value), inherited=True)
                self.notes[(pos, path)] = note
                said.append(f"Noted [{pos}/{n}] {path}: {note}")
        done = max((pos for pos, _ in self.notes), default=0)
        if done < n:
            nxt = files[done]
            return [_text("\n".join(said + [f"Next: {nxt}."])), _call("read_file", path=nxt)]
        if RESULT_ONLY_RE.search(self.view.system):  # a sub-agent: the result, nothing else
            return [_text(self.answer().removeprefix("Answer:\n"))]
        return [_text("\n".join(said + [self.answer()]))]

    def _verdict(self, name: str, value: int, inherited: bool = False) -> str:
        how = " via defaults" if inherited else ""
        side = "above" if value > self.threshold else "not above"
        return f"{name} {self.key} = {value}{how} ({side} {self.threshold})"

    def answer(self) -> str:
        pat = re.compile(rf"^(\S+) {re.escape(self.key)} = (\d+)(?: via defaults)? \(above ")
        found = {}
        for (_, _), note in sorted(self.notes.items()):
            m = pat.match(note)
            if m:
                found[m.group(1)] = int(m.group(2))
        if not found:
            return "Answer:\nnone"
        return "Answer:\n" + "\n".join(f"{k}: {v}" for k, v in found.items())


# ---------------------------------------------------------------- lead (sub-agents)

# a result line `name: value`, alone or after a transcript's "ASSISTANT: "
PAIR_RE = re.compile(r"^\s*(?:[A-Z]+:\s+)?([A-Za-z][\w.-]*)\s*:\s*(\d+)\s*$", re.M)
CUT_RE = re.compile(r"\bnot shown\b")


class Lead:
    """With a `delegate` tool: list the files, give each folder to a sub-agent (all in one
    reply, so they can run in parallel), then answer from their results alone."""

    @classmethod
    def applies(cls, view: View) -> bool:
        return "delegate" in view.tool_names and Audit.applies(view)

    def __init__(self, view: View):
        self.view = view
        self.task = next((t for t in [*view.user_texts, *view.summaries]
                          if Audit.TASK_RE.search(t)), view.system)

    def act(self) -> list[dict]:
        results = [r for r in self.view.results if r.name == "delegate"]
        if results:
            return [_text(self.answer(results))]
        listing = next((r for r in reversed(self.view.results) if r.name == "list_files"
                        and not r.cleared and not r.is_error), None)
        if listing is None and "list_files" in self.view.tool_names:
            return [_text("I'll list the files to see how the work divides."),
                    _call("list_files")]
        files = LIST_LINE_RE.findall(listing.text) if listing else []
        folders = list(dict.fromkeys(f.rsplit("/", 1)[0] + "/" for f in files
                                     if "/" in f and not f.endswith("_defaults.conf")))
        if not folders:  # nothing to divide: one sub-agent gets the whole task
            return [_text("I'll hand the whole task to one sub-agent."),
                    _call("delegate", task=self.task)]
        return [_text(f"Plan: one sub-agent per folder, {len(folders)} in parallel: "
                      + ", ".join(folders))] + [_call("delegate", task=self.subtask(f))
                                                for f in folders]

    def subtask(self, folder: str) -> str:
        """The user's task, narrowed to one folder and otherwise word for word."""
        scope = f"in the folder `{folder}` (only the files directly in it)"
        if "in this workspace" in self.task:
            return self.task.replace("in this workspace", scope, 1)
        return f"Work only {scope}. {self.task}"

    def answer(self, results: list[Result]) -> str:
        found: dict[str, int] = {}
        gaps = []
        for r in results:
            where = FOLDER_RE.search(r.input.get("task", ""))
            name = where.group(1) if where else "the whole task"
            if r.is_error or r.cleared:
                gaps.append(f"the sub-agent for {name} returned no result")
            elif CUT_RE.search(r.text):
                gaps.append(f"the result for {name} was cut short")
            found.update((k, int(v)) for k, v in PAIR_RE.findall(r.text))
        said = "".join(f"Warning, {g}; the answer may be incomplete.\n" for g in gaps)
        lines = "\n".join(f"{k}: {v}" for k, v in found.items()) or "none"
        return f"{said}Combined from {len(results)} sub-agent results.\nAnswer:\n{lines}"


# ---------------------------------------------------------------- needle

class Needle:
    """Read a log page by page while it says there is more; answer the confirmed cause.
    With a `search` tool and a long log still to go, search it instead (`SearchThenRead`)."""

    TASK_RE = re.compile(r"Read `([^`]+)` and report the confirmed root cause")
    CONFIRMED_RE = re.compile(r"root cause confirmed: ([A-Z]+-[A-Z]+)")
    GUESS_RE = re.compile(r"hypothesis: root cause is ([A-Z]+-[A-Z]+)")
    SOUGHT = "root cause"  # what the task names, the words to search for

    @classmethod
    def applies(cls, view: View) -> bool:
        return cls.TASK_RE.search("\n".join([view.system, *view.user_texts,
                                             *view.summaries])) is not None

    def __init__(self, view: View):
        self.view = view
        m = self.TASK_RE.search("\n".join([view.system, *view.user_texts, *view.summaries]))
        self.path = m.group(1)

    def act(self) -> list[dict]:
        seen = "\n".join(r.text for r in self.view.results
                         if r.name == "read_file" and not r.cleared)
        everything = seen + "\n" + self.view.knowledge
        confirmed = self.CONFIRMED_RE.search(everything)
        if confirmed:
            return [_text(f"The log confirms the root cause: {confirmed.group(1)}.\n"
                          f"Answer: {confirmed.group(1)}")]
        reads = [r for r in self.view.results if r.name == "read_file" and not r.is_error]
        if not reads:
            return [_text(f"I'll read {self.path}."), _call("read_file", path=self.path)]
        searching = SearchThenRead(self.view, self.path, self.SOUGHT)
        if searching.started() or searching.worth_it(reads[0]):
            step = searching.act()
            if step:
                return step
        last = reads[-1]
        notice = parse_notice(last.text)
        if last.cleared:
            return [_text(f"My read of {self.path} was cleared; reading it again."),
                    _call("read_file", **last.input)]
        guess = self.GUESS_RE.search(everything)
        note = (f"Noted: the log names a hypothesis, {guess.group(1)}, not yet confirmed."
                if guess else "Noted: no root cause in this part.")
        if notice and not searching.found:
            return [_text(f"{note} The result says there is more; continuing at "
                          f"offset={notice[1]}."),
                    _call("read_file", path=notice[0], offset=notice[1])]
        if guess:  # everything it saw has been read, as far as it knows
            return [_text(f"{note} I read the whole log and found no confirmation, so the "
                          f"hypothesis is the best answer.\nAnswer: {guess.group(1)}")]
        return [_text("I read the whole log and found no root cause.\nAnswer: unknown")]


MORE_RE = re.compile(r"(\d+) more lines not shown")
HIT_RE = re.compile(r"^(.+?):(\d+): (.*)$", re.M)


class SearchThenRead:
    """Search first, then read only the lines around each match (seeds 003 and 004: titles
    and snippets first, then the document). Worth it when a read came back cut with more
    lines still to go than it showed, and a `search` tool is offered: paging on would put
    page after page in the window. Everything it knows comes from the request: its search
    (or, if that was cleared, it searches again) and the calls it made (their inputs stay
    visible when their results are cleared)."""

    AROUND = 2  # lines read on each side of a match

    def __init__(self, view: View, path: str, pattern: str):
        self.view, self.path, self.pattern = view, path, pattern
        self.searches = [r for r in view.results if r.name == "search"
                         and r.input.get("pattern") == pattern and not r.is_error]
        self.found = False  # did a visible search find the pattern in the file?

    def worth_it(self, read: Result) -> bool:
        more = MORE_RE.search(read.text)
        shown = read.text.count("\n")
        return "search" in self.view.tool_names and more is not None and \
            int(more.group(1)) > shown

    def started(self) -> bool:
        return bool(self.searches)

    def act(self) -> list[dict] | None:
        """The next call: the search, or a read around a match not read yet; None when
        every match has been read."""
        visible = [r for r in self.searches if not r.cleared]
        if not visible:
            return [_text(f"The log is long; I'll search it for \"{self.pattern}\" and read "
                          "only the lines around each match."),
                    _call("search", pattern=self.pattern)]
        hits = [(int(n), line) for p, n, line in HIT_RE.findall(visible[-1].text)
                if p == self.path]
        hits.sort(key=lambda h: ("confirmed" not in h[1], -h[0]))  # the decisive one first
        self.found = bool(hits)
        done = {(r.input.get("offset"), r.input.get("limit")) for r in self.view.results
                if r.name == "read_file" and r.input.get("limit")}
        for number, _ in hits:
            start = max(0, number - 1 - self.AROUND)
            if (start, 2 * self.AROUND + 1) not in done:
                return [_text(f"Noted: {len(hits)} match(es) in {self.path}. Reading the lines "
                              f"around line {number}."),
                        _call("read_file", path=self.path, offset=start,
                              limit=2 * self.AROUND + 1)]
        return None


# ---------------------------------------------------------------- constraints (shopping)

class Shopping:
    """Look up what the user names; when asked to choose, keep every limit it can see."""

    LOOKUP_RE = re.compile(r"^Look up (?:the )?(.+?)\.?$")
    CHOOSE_RE = re.compile(r"Which one should I buy", re.I)
    LIMITS_RE = re.compile(r"hard limits|budget|buying", re.I)
    FACT_RE = re.compile(r"([A-Z][a-z]+ \d+): price \$([\d,]+); RAM (\d+) GB; rating (\d+(?:\.\d+)?)")
    BUDGET_RE = re.compile(r"budget (?:is )?at most \$([\d,]+)", re.I)
    RAM_RE = re.compile(r"at least (\d+) GB", re.I)

    @classmethod
    def applies(cls, view: View) -> bool:
        last = view.last_instruction()
        return bool(cls.LOOKUP_RE.match(last) or cls.CHOOSE_RE.search(last)
                    or (cls.LIMITS_RE.search(last) and "get_product" in view.tool_names))

    def __init__(self, view: View):
        self.view = view

    def act(self) -> list[dict]:
        last = self.view.last_instruction()
        newest = [r for r in self.view.newest if r.name == "get_product"]
        if newest:
            r = newest[-1]
            if r.is_error:
                return [_text(f"The lookup failed: {r.text}")]
            return [_text(f"Noted: {r.text}.")]
        m = self.LOOKUP_RE.match(last)
        if m:
            return [_text(f"Looking up {m.group(1)}."), _call("get_product", name=m.group(1))]
        if self.CHOOSE_RE.search(last):
            return [_text(self.choose())]
        limits = self.limits()
        said = "; ".join(f"{k} {v}" for k, v in limits.items()) or "none stated"
        return [_text(f"Understood. Your limits as I note them: {said}. "
                      "Tell me which models to look up.")]

    def limits(self) -> dict[str, str]:
        text = "\n".join([self.view.system, *self.view.summaries, *self.view.user_texts,
                          *self.view.own_texts])
        out = {}
        if (b := self.BUDGET_RE.search(text)):
            out["budget at most"] = "$" + b.group(1)
        if (r := self.RAM_RE.search(text)):
            out["RAM at least"] = r.group(1) + " GB"
        return out

    def choose(self) -> str:
        text = "\n".join([self.view.knowledge] + [r.text for r in self.view.results])
        facts = {}
        for name, price, ram, rating in self.FACT_RE.findall(text):
            facts[name] = (int(price.replace(",", "")), int(ram), float(rating))
        if not facts:
            return "I have no product details to choose from."
        limits = self.limits()
        budget = int(limits["budget at most"][1:].replace(",", "")) if "budget at most" \
            in limits else None
        min_ram = int(limits["RAM at least"].split()[0]) if "RAM at least" in limits else None
        fits = {n: f for n, f in facts.items()
                if (budget is None or f[0] <= budget) and (min_ram is None or f[1] >= min_ram)}
        pool = fits or facts
        name = max(sorted(pool), key=lambda n: (pool[n][2], -pool[n][0]))
        price, ram, rating = pool[name]
        why = (f"it fits your limits ({'; '.join(f'{k} {v}' for k, v in limits.items())})"
               if limits else "it has the best rating of the models we looked up")
        return (f"I recommend the {name} (${price:,}, {ram} GB RAM, rating {rating}): {why}.\n"
                f"Answer: {name}")
