"""The course model on the ops platform (lesson 9): find the few tools a task needs.

Each step of a task needs one kind of tool, named by the task's own words (the incident,
the deployments before it, the service's team, who is on call; a rollback and a note;
invoices; handoff reports). The model calls a tool it can see whose name says that; when
none is visible and a tool search is offered (the server's regex or bm25 search, or a
client tool whose name says it searches tools), it searches with those words first; a
search whose result was cleared, or compacted away, may be asked again.
Offered the code execution tool and tools that code may call, it writes one script for
the many calls whose results only add up (invoices), and one that prints every result
when each must be read (reports). Everything it knows is in the request.

The scripted model always words a search and writes a script the same way. Inside
`styled(rng)` (the unscripted stand-in) it picks among other ways a model may put them:
other patterns and phrases that find the same tool, a script that awaits its calls one at
a time (a round trip each) instead of together, other names and another printed line.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import random
import re

CLIENT_SEARCH = re.compile(r"search_?tools|tool_?search|find_?tools", re.I)
INCIDENT_RE = re.compile(r"Incident (INC-\d+) is open")
CHANGE_RE = re.compile(r"roll back that deployment", re.I)
INVOICES_RE = re.compile(r"billed to customer (\S+) for (\d{4}-\d\d)")
REPORTS_RE = re.compile(r"Read every on-call handoff report")
ONGOING_RE = re.compile(r"still ongoing|still affected|continues|still see|not yet resolved",
                        re.I)
# step -> (the tool's name as the model expects it, regex query, bm25 query)
STEPS = {
    "incident": ("get_incident", r"(?i)get.*incident", "get incident record"),
    "deployments": ("list_deployments", r"(?i)list.*deployments", "list deployments before"),
    "service": ("get_service", r"(?i)get_service\b|service catalog", "get service owning team"),
    "oncall": ("get_oncall", r"(?i)on.?call", "who is on call for team"),
    "rollback": ("rollback_deployment", r"(?i)roll.?back", "roll back deployment"),
    "note": ("add_incident_note", r"(?i)note", "add note to incident"),
    "invoices": ("list_invoices", r"(?i)invoices", "list customer invoices month"),
    "invoice": ("get_invoice", r"(?i)get_invoice|line items", "get invoice line items total"),
    "reports": ("list_handoff_reports", r"(?i)handoff", "list handoff reports"),
    "report": ("get_handoff_report", r"(?i)handoff", "get handoff report text"),
}
# step -> (other regex queries, other bm25 / client queries): each finds the step's tool too
OTHER_QUERIES = {
    "incident": ([r"(?i)incident.*(record|details)", r"get_incident"],
                 ["incident details", "fetch the incident record by id"]),
    "deployments": ([r"(?i)deploy", r"list_deployments"],
                    ["recent deployments of a service", "deployments list"]),
    "service": ([r"(?i)get_service", r"get_service\b"],
                ["get service team", "service catalog entry owning team"]),
    "oncall": ([r"(?i)oncall", r"get_oncall"], ["on call engineer", "oncall schedule team"]),
    "rollback": ([r"(?i)rollback", r"rollback_deployment"],
                 ["rollback a deployment", "revert deployment rollback"]),
    "note": ([r"(?i)incident_note", r"add_incident_note"],
             ["incident note", "add a note to an incident"]),
    "invoices": ([r"(?i)list_invoices", r"(?i)invoice"], ["invoices of a customer", "list invoices"]),
    "invoice": ([r"get_invoice", r"(?i)get_invoice"], ["invoice line items", "get one invoice"]),
    "reports": ([r"(?i)handoff_report", r"list_handoff_reports"],
                ["handoff reports", "list handoff reports on call"]),
    "report": ([r"(?i)handoff_report", r"get_handoff_report"],
               ["handoff report text", "read one handoff report"]),
}

_STYLE: contextvars.ContextVar[random.Random | None] = contextvars.ContextVar(
    "ops_style", default=None)


@contextlib.contextmanager
def styled(rng: random.Random):
    """Within: pick searches and scripts with `rng` (the unscripted stand-in)."""
    token = _STYLE.set(rng)
    try:
        yield
    finally:
        _STYLE.reset(token)


def _pick(options: list):
    """The scripted model's way (the first), or, styled, any of them."""
    rng = _STYLE.get()
    return options[0] if rng is None else rng.choice(options)


def invoices_script(customer: str, month: str, way: int = 0) -> str:
    """The script that sums a customer's invoices for a month: all calls together (0), the
    same with other names and another line (1), or one call at a time (2)."""
    listing = f"await list_invoices(customer={customer!r}, month={month!r})"
    if way == 1:
        return ("import asyncio, json\n"
                f"listed = json.loads({listing})\n"
                "bodies = await asyncio.gather(*(get_invoice(invoice_id=x['id']) "
                "for x in listed))\n"
                "amounts = [json.loads(b)['total'] for b in bodies]\n"
                "print(f'total: ${sum(amounts):.2f} over {len(amounts)} invoices')\n")
    if way == 2:
        return ("import json\n"
                f"invoices = json.loads({listing})\n"
                "total = 0.0\n"
                "for inv in invoices:\n"
                "    total += json.loads(await get_invoice(invoice_id=inv['id']))['total']\n"
                "print(f'{len(invoices)} invoices, total: ${total:.2f}')\n")
    return ("import asyncio, json\n"
            f"invoices = json.loads({listing})\n"
            "details = await asyncio.gather(*[get_invoice(invoice_id=i['id']) "
            "for i in invoices])\n"
            "total = sum(json.loads(d)['total'] for d in details)\n"
            "print(f'{len(invoices)} invoices, total: ${total:.2f}')\n")


def reports_script(way: int = 0) -> str:
    """The script that prints every handoff report: all calls together (0), or one at a
    time (1)."""
    if way == 1:
        return ("import json\n"
                "for entry in json.loads(await list_handoff_reports()):\n"
                "    report = json.loads(await get_handoff_report(report_id=entry['id']))\n"
                "    print(report['id'], report['text'])\n")
    return ("import asyncio, json\n"
            "reports = json.loads(await list_handoff_reports())\n"
            "texts = await asyncio.gather(*[get_handoff_report(report_id=r['id']) "
            "for r in reports])\n"
            "for t in texts:\n"
            "    r = json.loads(t)\n"
            "    print(r['id'], r['text'])\n")


def _text(s: str) -> dict:
    return {"type": "text", "text": s}


def _call(tool: str, **args) -> dict:
    return {"type": "tool_use", "id": "", "name": tool, "input": args}


def _json(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None


class Ops:
    @classmethod
    def applies(cls, view) -> bool:
        text = "\n".join(view.summaries + view.user_texts)
        return bool(INCIDENT_RE.search(text) or INVOICES_RE.search(text) or
                    REPORTS_RE.search(text))

    def __init__(self, view):
        self.view = view
        self.text = "\n".join(view.summaries + view.user_texts)  # a compaction keeps the goal
        self.defs = view.tool_defs

    # ---------------------------------------------------------------- finding tools
    def result(self, name: str, **match):
        for r in reversed(self.view.results):
            if r.name == name and not r.is_error and not r.cleared and all(
                    r.input.get(k) == v for k, v in match.items()):
                return r
        return None

    def need(self, step: str, say: str, **args) -> list[dict]:
        """Call the step's tool if it is visible; else search for it; else say so."""
        name, regex, words = STEPS[step]
        if name in self.view.tool_names:
            return [_text(say), _call(name, **args)]
        searched = [r for r in self.view.results if r.name.startswith(("tool_search_tool",))
                    or CLIENT_SEARCH.search(r.name)]
        asked = {json.dumps(r.input, sort_keys=True) for r in searched if not r.cleared}
        other_regex, other_words = OTHER_QUERIES[step]
        for tool in sorted(self.view.tool_names):
            if tool == "tool_search_tool_regex":
                options = [regex, *other_regex]
            elif tool == "tool_search_tool_bm25" or CLIENT_SEARCH.search(tool):
                options = [words, *other_words]
            else:
                continue
            options = [{"query": q} for q in options
                       if json.dumps({"query": q}, sort_keys=True) not in asked]
            if not options:
                continue
            query = _pick(options)
            kind = "server_tool_use" if tool.startswith("tool_search_tool") else "tool_use"
            return [_text(f"I need a tool to {words}; searching the tool catalog."),
                    {"type": kind, "id": "", "name": tool, "input": query}]
        return [_text(f"I cannot find a tool to {words} among the tools I have.\n"
                      "Answer: unknown")]

    def programmatic(self, *names: str) -> bool:
        code = self.defs.get("code_execution")
        return bool(code) and all(code.get("type") in (self.defs.get(n) or {}).get(
            "allowed_callers", []) for n in names)

    # ---------------------------------------------------------------- the tasks
    def act(self) -> list[dict]:
        if INVOICES_RE.search(self.text):
            return self.invoices(*INVOICES_RE.search(self.text).groups())
        if REPORTS_RE.search(self.text):
            return self.reports()
        return self.incident(INCIDENT_RE.search(self.text).group(1))

    def incident(self, incident: str) -> list[dict]:
        r = self.result("get_incident", incident_id=incident)
        inc = _json(r.text) if r else None
        if not inc:
            return self.need("incident", f"First, the record of {incident}.",
                             incident_id=incident)
        service, opened = inc["service"], inc["opened_at"]
        r = self.result("list_deployments", service=service)
        deps = _json(r.text) if r else None
        if deps is None:
            return self.need("deployments", f"{incident} hit {service}, opened {opened}. Now "
                             "the deployments before it.", service=service, before=opened,
                             limit=5)
        before = [d for d in deps if d["started_at"] < opened]
        deployment = before[0]["id"] if before else "none"
        r = self.result("get_service", service=service)
        svc = _json(r.text) if r else None
        if svc is None:
            return self.need("service", f"The last deployment before it: {deployment}. Now "
                             f"the team that owns {service}.", service=service)
        r = self.result("get_oncall", team=svc["team"])
        on = _json(r.text) if r else None
        if on is None:
            return self.need("oncall", f"{service} belongs to {svc['team']}. Who was on call "
                             f"at {opened}?", team=svc["team"], at=opened)
        if CHANGE_RE.search(self.view.last_instruction()):
            return self.change(incident, deployment)
        return [_text(f"Found it.\nAnswer: service: {service}; deployment: {deployment}; "
                      f"oncall: {on['oncall']}")]

    def change(self, incident: str, deployment: str) -> list[dict]:
        r = self.result("rollback_deployment", deployment_id=deployment)
        rb = _json(r.text) if r else None
        if rb is None:
            return self.need("rollback", f"Rolling back {deployment}.",
                             deployment_id=deployment,
                             reason=f"suspected cause of {incident}")
        r = self.result("add_incident_note", incident_id=incident)
        note = _json(r.text) if r else None
        if note is None:
            return self.need("note", f"Rolled back ({rb['rollback_id']}). Now the note.",
                             incident_id=incident,
                             text=f"Rolled back {deployment} to {rb['restored_version']} "
                                  f"({rb['rollback_id']}).")
        return [_text(f"Done.\nAnswer: rollback: {rb['rollback_id']}; note: {note['note_id']}")]

    def _script_output(self) -> str | None:
        r = self.result("code_execution")
        return r.text if r else None

    def invoices(self, customer: str, month: str) -> list[dict]:
        if self.programmatic("list_invoices", "get_invoice"):
            out = self._script_output()
            if out is None:
                code = invoices_script(customer, month, _pick([0, 1, 2]))
                return [_text("The line items only matter as a sum: one script fetches every "
                              "invoice and adds them up."),
                        {"type": "server_tool_use", "id": "", "name": "code_execution",
                         "input": {"code": code}}]
            m = re.search(r"total: \$([\d.]+)", out)
            return [_text(f"The script says: {out.strip()}\nAnswer: total: "
                          f"${float(m.group(1)):,.2f}" if m else
                          f"The script failed: {out.strip()[-300:]}\nAnswer: unknown")]
        r = self.result("list_invoices", customer=customer, month=month)
        listed = _json(r.text) if r else None
        if listed is None:
            return self.need("invoices", f"Listing {customer}'s invoices for {month}.",
                             customer=customer, month=month)
        noted = dict(re.findall(r"Noted (INV-\S+) total \$([\d.]+)", "\n".join(
            self.view.own_texts)))
        for r in self.view.newest:
            inv = _json(r.text) if r.name == "get_invoice" else None
            if inv:
                noted[inv["id"]] = f"{inv['total']:.2f}"
        said = "\n".join(f"Noted {i} total ${t}" for i, t in noted.items()
                         if f"Noted {i} total" not in "\n".join(self.view.own_texts))
        todo = [i["id"] for i in listed if i["id"] not in noted]
        if todo:
            step = self.need("invoice", (said + "\n" if said else "") + f"Next: {todo[0]}.",
                             invoice_id=todo[0])
            return step
        total = sum(float(t) for t in noted.values())
        return [_text(f"{said}\nAdded up {len(noted)} invoices.\nAnswer: total: ${total:,.2f}")]

    def reports(self) -> list[dict]:
        if self.programmatic("list_handoff_reports", "get_handoff_report"):
            out = self._script_output()
            if out is None:
                code = reports_script(_pick([0, 1]))
                return [_text("Each report must be read as written, so the script prints "
                              "them all."),
                        {"type": "server_tool_use", "id": "", "name": "code_execution",
                         "input": {"code": code}}]
            found = [line.split()[0] for line in out.splitlines()
                     if line.startswith("HR-") and ONGOING_RE.search(line)]
            return [_text(f"Read {out.count(chr(10))} reports.\nAnswer: reports: "
                          + (", ".join(found) or "none"))]
        r = self.result("list_handoff_reports")
        listed = _json(r.text) if r else None
        if listed is None:
            return self.need("reports", "Listing the handoff reports.")
        own = "\n".join(self.view.own_texts)
        verdicts = dict(re.findall(r"Noted (HR-\d+): impact (ongoing|over)", own))
        said = []
        for r in self.view.newest:
            rep = _json(r.text) if r.name == "get_handoff_report" else None
            if rep and rep["id"] not in verdicts:
                verdicts[rep["id"]] = "ongoing" if ONGOING_RE.search(rep["text"]) else "over"
                said.append(f"Noted {rep['id']}: impact {verdicts[rep['id']]}")
        todo = [x["id"] for x in listed if x["id"] not in verdicts]
        head = "\n".join(said) + "\n" if said else ""
        if todo:
            return self.need("report", f"{head}Next: {todo[0]}.", report_id=todo[0])
        found = [k for k, v in verdicts.items() if v == "ongoing"]
        return [_text(f"{head}Read {len(verdicts)} reports.\nAnswer: reports: "
                      + (", ".join(found) or "none"))]
