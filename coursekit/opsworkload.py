"""The ops platform: a large tool catalog over a deterministic dataset (lesson 9).

About 60 tools, generated from the tables below (one row per tool; the descriptions and
parameter texts are composed from the domain's and the parameters' own rows), each 200 to
800 tokens, as real platform tools are. Their implementations are plain Python over a
dataset generated from the seed: incidents, deployments, services, teams and their
on-call rotation, invoices, handoff reports, tickets, alerts and the rest.

`coursekit.workloads.ops(...)` is the entry; its variants:

- `incident`: which service an incident hit, the deploy before it and who is on call
  (4 of the tools);
- `change`: the same, then a scripted later user turn asks to roll the deploy back and
  note it on the incident (2 more tools, needed only from that turn on);
- `invoices`: the total of one customer's invoices for a month, from many `get_invoice`
  calls whose line items do not matter once added up (programmatic tool calling's case);
- `reports`: which handoff reports say customer impact is still ongoing; every report's
  text must be read (the case where a script does not help).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from agentlib.task import Score, Workload
from agentlib.tools import Toolbox

# ---------------------------------------------------------------- the dataset

SERVICES = ["checkout-api", "payments-worker", "search-indexer", "auth-gateway",
            "inventory-sync", "email-relay", "media-transcoder", "ledger-writer",
            "catalog-api", "shipping-quotes", "profile-service", "rates-cache"]
TEAMS = ["storefront", "payments", "discovery", "identity", "fulfilment", "platform"]
PEOPLE = ["Ada Lindqvist", "Bruno Okafor", "Chen Wei", "Dara Moreau", "Eitan Levi",
          "Farah Haddad", "Goran Petrovic", "Hina Sato", "Ines Duarte", "Jonas Berg",
          "Kemal Aydin", "Lena Novak", "Mateo Rossi", "Nia Mensah", "Omar Shah",
          "Priya Raman", "Quinn Adler", "Rosa Vidal"]
CUSTOMERS = ["ACME-7", "GLOBEX-2", "INITECH-4", "UMBRELLA-9", "HOOLI-3"]
ITEMS = [("compute hours (m6.large)", 0.096), ("object storage GB-month", 0.023),
         ("egress GB", 0.09), ("managed database hours", 0.41), ("support plan (business)", 100.0),
         ("load balancer hours", 0.0225), ("log ingestion GB", 0.5), ("CDN requests (10k)", 0.0075),
         ("build minutes", 0.008), ("queue messages (million)", 0.4), ("snapshot GB-month", 0.05),
         ("dedicated IP", 3.6)]
IMPACT_ONGOING = ["customer impact is still ongoing", "customers are still affected",
                  "impact on customers continues", "some customers still see errors",
                  "not yet resolved for customers"]
IMPACT_NONE = ["no customer impact", "customer impact fully resolved",
               "customers were never affected", "impact ended before handoff",
               "resolved, no customers affected now"]
MONTH = "2026-03"


class OpsData:
    """The platform's state, generated from the seed; tools read it and change it."""

    def __init__(self, seed: int, n_invoices: int, n_reports: int):
        rng = random.Random(f"ops-{seed}")
        self.services = {}
        for i, name in enumerate(SERVICES):
            self.services[name] = {"name": name, "team": TEAMS[i % len(TEAMS)],
                                   "tier": rng.choice(["tier-1", "tier-2", "tier-3"]),
                                   "repo": f"git@code.internal:{TEAMS[i % len(TEAMS)]}/{name}",
                                   "dependencies": rng.sample([s for s in SERVICES if s != name], 3)}
        people = PEOPLE[:]
        rng.shuffle(people)
        self.rotations = {team: people[3 * i:3 * i + 3] for i, team in enumerate(TEAMS)}
        self.deployments: list[dict] = []
        for name in SERVICES:
            day = rng.randint(1, 4)
            for k in range(6):
                day += rng.randint(1, 4)
                self.deployments.append({
                    "id": f"dep-{rng.randint(10000, 99999)}", "service": name,
                    "version": f"v{2 + k // 3}.{k % 3 + rng.randint(0, 4)}.{rng.randint(0, 9)}",
                    "started_at": f"{MONTH}-{min(day, 28):02d}T{rng.randint(6, 20):02d}:"
                                  f"{rng.randint(0, 59):02d}:00Z",
                    "author": rng.choice(PEOPLE), "status": "succeeded"})
        self.deployments.sort(key=lambda d: d["started_at"])
        self.incidents = {}
        for k, name in enumerate(rng.sample(SERVICES, 8)):
            deps = [d for d in self.deployments if d["service"] == name]
            after = deps[rng.randint(2, len(deps) - 1)]
            opened = after["started_at"][:11] + f"{min(int(after['started_at'][11:13]) + 2, 23):02d}" \
                + after["started_at"][13:]
            iid = f"INC-{4300 + 7 * k + rng.randint(0, 6)}"
            self.incidents[iid] = {"id": iid, "service": name, "opened_at": opened,
                                   "severity": rng.choice(["SEV-1", "SEV-2", "SEV-3"]),
                                   "status": "open", "title": f"Elevated error rate on {name}",
                                   "notes": []}
        self.invoices = {}
        for customer in CUSTOMERS:
            count = n_invoices if customer == CUSTOMERS[0] else rng.randint(3, 8)
            for k in range(count):
                lines = []
                for item, price in rng.sample(ITEMS, rng.randint(6, 10)):
                    qty = rng.randint(1, 40) if price >= 1 else rng.randint(200, 90000)
                    lines.append({"description": item, "quantity": qty, "unit_price": price,
                                  "amount": round(qty * price, 2)})
                iid = f"INV-{customer[:3]}-{rng.randint(100000, 999999)}"
                self.invoices[iid] = {"id": iid, "customer": customer,
                                      "month": MONTH, "issued_at": f"{MONTH}-{k % 28 + 1:02d}",
                                      "currency": "USD", "lines": lines,
                                      "total": round(sum(x["amount"] for x in lines), 2)}
        self.reports = {}
        for k in range(n_reports):
            ongoing = rng.random() < 0.35 or k == 1
            rid = f"HR-{MONTH[5:]}{k + 1:02d}"
            phrase = rng.choice(IMPACT_ONGOING if ongoing else IMPACT_NONE)
            service = rng.choice(SERVICES)
            filler = " ".join(rng.choice([
                f"Paged twice overnight for {service}.", "Dashboards were green by 04:00.",
                "Runbook step 3 is out of date.", f"Error budget for {service} at 62%.",
                "Handing over two open tickets.", "Flaky alert on disk latency silenced.",
                "Capacity review moved to Thursday.", "No deploys during the window."])
                for _ in range(rng.randint(5, 9)))
            self.reports[rid] = {"id": rid, "week": f"{MONTH}-W{k % 4 + 10}",
                                 "author": rng.choice(PEOPLE), "service": service,
                                 "text": f"{filler} Status at handoff: {phrase}. "
                                         f"{rng.choice(['Next on-call please watch the queue.', 'Nothing else to report.'])}",
                                 "ongoing": ongoing}
        self.tickets = {f"TCK-{8000 + k}": {"id": f"TCK-{8000 + k}", "service": rng.choice(SERVICES),
                                            "status": rng.choice(["open", "pending", "closed"]),
                                            "subject": rng.choice(["Slow checkout", "Refund stuck",
                                                                   "Login loop", "Missing email"]),
                                            "comments": []} for k in range(15)}
        self.alerts = {f"ALR-{500 + k}": {"id": f"ALR-{500 + k}", "service": rng.choice(SERVICES),
                                          "state": rng.choice(["firing", "resolved"]),
                                          "rule": rng.choice(["p99 latency > 800ms", "5xx rate > 2%",
                                                              "queue depth > 10k"])}
                       for k in range(12)}
        self.actions: list[dict] = []  # every change a tool made, in order

    def oncall(self, team: str, at: str) -> str:
        day = int(at[8:10]) if re.match(r"\d{4}-\d\d-\d\d", at or "") else 1
        rotation = self.rotations[team]
        return rotation[(day - 1) // 7 % len(rotation)]


# ---------------------------------------------------------------- the catalog's tables

DOMAINS = {  # domain -> what the platform's part does (opens every tool's description)
    "incidents": "The incident tracker records every production incident: its affected service, "
                 "severity (SEV-1 is customer-facing and urgent, SEV-3 is minor), the time it was "
                 "opened, its status (open, mitigated, resolved) and the timeline of notes written "
                 "by responders.",
    "deployments": "The deployment service ships new versions of every service through a "
                   "progressive rollout (canary, then 25%, 50%, 100%) and keeps the full history "
                   "of deploys per service with their version, author, start time and outcome.",
    "services": "The service catalog lists every production service with its owning team, its "
                "tier (tier-1 services page immediately), its source repository and the services "
                "it depends on.",
    "oncall": "The on-call scheduler holds each team's weekly rotation, the overrides people "
              "swap in, and the paging integration that reaches whoever is on call now.",
    "alerts": "The alerting system evaluates rules over metrics every minute and keeps each "
              "alert's state (firing, resolved, silenced) with the rule that fired it.",
    "metrics": "The metrics store keeps time series for every service (latency percentiles, "
               "request and error rates, saturation) at one-minute resolution for 30 days.",
    "logs": "The log platform indexes structured logs from every service and keeps them for a "
            "retention period set per service.",
    "billing": "The billing system issues the monthly invoices of each customer account; an "
               "invoice holds line items (description, quantity, unit price, amount) in USD.",
    "tickets": "The support desk holds customer tickets, each linked to the service it concerns, "
               "with its status and the comments exchanged.",
    "reports": "The handoff log keeps the free-text report each on-call engineer writes at the "
               "end of a shift, read by the next person on call.",
    "dns": "The DNS manager controls the records of every public and internal zone.",
    "certificates": "The certificate manager issues and renews TLS certificates for every "
                    "domain the platform serves.",
    "flags": "The feature flag service turns features on or off per environment without a "
             "deploy.",
    "databases": "The database platform runs the managed database clusters and their "
                 "snapshots.",
    "storage": "The object storage service holds buckets of files with per-bucket usage.",
    "queues": "The message queue service carries work between services.",
    "users": "The identity directory holds the platform's user accounts.",
}

PARAMS = {  # name -> (JSON schema, description)
    "incident_id": ({"type": "string"}, "The incident's identifier, as shown in the tracker "
                    "and in pages, for example `INC-4312`. Identifiers are case-sensitive and "
                    "always start with `INC-`."),
    "service": ({"type": "string"}, "The service's name in the catalog, in lowercase with "
                "hyphens, for example `checkout-api`. Use list_services to see every name; "
                "a name that is not in the catalog is an error, never an empty result."),
    "team": ({"type": "string", "enum": TEAMS}, "The owning team's name as it appears in the "
             "service catalog (the `team` field of get_service)."),
    "at": ({"type": "string"}, "A point in time as an ISO 8601 timestamp in UTC, for example "
           "`2026-03-14T09:30:00Z`. Defaults to now when omitted."),
    "before": ({"type": "string"}, "Only return items that started strictly before this ISO "
               "8601 UTC timestamp. Combine with `limit` to get the most recent items before an "
               "event, such as the deploys that preceded an incident."),
    "limit": ({"type": "integer"}, "The largest number of items to return, from 1 to 100 "
              "(default 20). Items are returned newest first."),
    "deployment_id": ({"type": "string"}, "The deployment's identifier, for example "
                      "`dep-48213`, as returned by list_deployments."),
    "reason": ({"type": "string"}, "Why the change is made, in one sentence. It is recorded "
               "in the audit log and shown to the owning team."),
    "text": ({"type": "string"}, "The text to record, in plain language; Markdown is kept as "
             "written. Mention identifiers (deploys, tickets) so they are linked."),
    "author": ({"type": "string"}, "Who writes the entry, shown beside it. Defaults to the "
               "agent's service account."),
    "customer": ({"type": "string"}, "The customer account's identifier, for example "
                 "`ACME-7`, as shown on its invoices."),
    "month": ({"type": "string"}, "The billing month as `YYYY-MM`, for example `2026-03`."),
    "invoice_id": ({"type": "string"}, "The invoice's identifier, for example "
                   "`INV-ACM-123456`, as returned by list_invoices."),
    "status": ({"type": "string", "enum": ["open", "mitigated", "resolved", "pending",
                                           "closed", "firing", "silenced"]},
               "The status to filter on or to set, depending on the tool."),
    "severity": ({"type": "string", "enum": ["SEV-1", "SEV-2", "SEV-3"]},
                 "The severity: SEV-1 is customer-facing and urgent, SEV-3 minor."),
    "ticket_id": ({"type": "string"}, "The ticket's identifier, for example `TCK-8004`."),
    "alert_id": ({"type": "string"}, "The alert's identifier, for example `ALR-503`."),
    "report_id": ({"type": "string"}, "The handoff report's identifier, for example "
                  "`HR-0301`, as returned by list_handoff_reports."),
    "week": ({"type": "string"}, "The ISO week as `YYYY-MM-Www` as the handoff log labels it; "
             "omit it to list every report."),
    "metric": ({"type": "string", "enum": ["latency_p50", "latency_p99", "request_rate",
                                           "error_rate", "cpu", "memory"]},
               "Which time series to read."),
    "window": ({"type": "string"}, "How far back to look, as a duration such as `15m`, `6h` or "
               "`7d` (at most 30 days)."),
    "query": ({"type": "string"}, "A search expression: words match anywhere, `field:value` "
              "matches one field, and `AND`, `OR`, `NOT` combine terms."),
    "name": ({"type": "string"}, "The name of the object to act on, exactly as the matching "
             "list tool shows it (names are case-sensitive and unique within their domain)."),
    "value": ({"type": "string"}, "The new value to set."),
    "person": ({"type": "string"}, "A person's full name as it appears in the directory, for "
               "example `Ada Lindqvist`."),
    "duration": ({"type": "string"}, "How long the change lasts, as a duration such as `2h`."),
    "environment": ({"type": "string", "enum": ["production", "staging", "development"]},
                    "The environment to act on (default production)."),
}

# (name, domain, what it does, [required params], [optional params], what it returns, kind)
# kind names the implementation: "get", "list", "do" (a recorded change), or a task's own.
TOOLS = [
    ("list_incidents", "incidents", "List incidents, newest first, optionally only those of one "
     "service or with one status.", [], ["service", "status", "limit"],
     "a JSON list of incidents with id, service, severity, status and opened_at", "list"),
    ("get_incident", "incidents", "Get one incident's full record: its affected service, "
     "severity, status, the time it was opened and its title.", ["incident_id"], [],
     "a JSON object with the incident's fields", "incident"),
    ("create_incident", "incidents", "Open a new incident for a service.", ["service", "severity",
     "text"], [], "the new incident's id", "do"),
    ("update_incident_status", "incidents", "Set an incident's status (open, mitigated, "
     "resolved).", ["incident_id", "status"], ["reason"], "the incident's new status", "do"),
    ("add_incident_note", "incidents", "Add a note to an incident's timeline, for example what "
     "was done to mitigate it; the note is visible to every responder.", ["incident_id", "text"],
     ["author"], "a JSON object with the new note's id", "note"),
    ("list_incident_notes", "incidents", "List the notes of an incident's timeline, oldest "
     "first.", ["incident_id"], [], "a JSON list of notes", "notes"),
    ("assign_incident", "incidents", "Make a person the incident commander.", ["incident_id",
     "person"], [], "the incident's new commander", "do"),
    ("escalate_incident", "incidents", "Raise an incident's severity and page the next "
     "escalation level.", ["incident_id", "severity"], ["reason"], "the new severity", "do"),
    ("list_deployments", "deployments", "List a service's deployments, newest first; with "
     "`before`, only those that started before a time, which finds the deploy that preceded "
     "an incident.", ["service"], ["before", "limit"], "a JSON list of deployments with id, "
     "version, author, started_at and status", "deployments"),
    ("get_deployment", "deployments", "Get one deployment's record.", ["deployment_id"], [],
     "a JSON object with the deployment's fields", "deployment"),
    ("create_deployment", "deployments", "Start deploying a version of a service.", ["service",
     "value"], ["environment"], "the new deployment's id", "do"),
    ("rollback_deployment", "deployments", "Roll a deployment back: the service returns to the "
     "version it ran before that deployment, through the same progressive rollout.",
     ["deployment_id", "reason"], [], "a JSON object with the rollback's id and the version "
     "restored", "rollback"),
    ("pause_rollout", "deployments", "Pause a rollout in progress at its current stage.",
     ["deployment_id"], ["reason"], "the rollout's state", "do"),
    ("resume_rollout", "deployments", "Resume a paused rollout.", ["deployment_id"], [],
     "the rollout's state", "do"),
    ("get_deployment_diff", "deployments", "Get the list of commits a deployment shipped.",
     ["deployment_id"], ["limit"], "a JSON list of commits", "do"),
    ("list_services", "services", "List every service in the catalog.", [], ["team"],
     "a JSON list of services with name, team and tier", "services"),
    ("get_service", "services", "Get one service's catalog entry: its owning team, tier, "
     "repository and dependencies.", ["service"], [], "a JSON object with the service's fields",
     "service"),
    ("update_service_owner", "services", "Move a service to another owning team.", ["service",
     "team"], ["reason"], "the service's new team", "do"),
    ("get_service_dependencies", "services", "List the services a service calls.", ["service"],
     [], "a JSON list of service names", "do"),
    ("get_service_health", "services", "Get a service's current health summary.", ["service"],
     [], "a JSON object with status and open alerts", "do"),
    ("get_oncall", "oncall", "Get who is on call for a team at a point in time, from the "
     "team's weekly rotation and its overrides.", ["team"], ["at"], "a JSON object with the "
     "person on call and their shift", "oncall"),
    ("list_oncall_schedules", "oncall", "List the teams' rotations for a week.", [], ["team"],
     "a JSON list of rotations", "do"),
    ("override_oncall", "oncall", "Put a person on call for a team for a while.", ["team",
     "person", "duration"], [], "the override's id", "do"),
    ("page_oncall", "oncall", "Page whoever is on call for a team now.", ["team", "text"], [],
     "the page's id", "do"),
    ("list_alerts", "alerts", "List alerts, optionally of one service or state.", [],
     ["service", "status", "limit"], "a JSON list of alerts", "list"),
    ("get_alert", "alerts", "Get one alert with the rule that fired it.", ["alert_id"], [],
     "a JSON object", "do"),
    ("acknowledge_alert", "alerts", "Acknowledge a firing alert so it stops re-paging.",
     ["alert_id"], ["author"], "the alert's state", "do"),
    ("silence_alert", "alerts", "Silence an alert for a duration.", ["alert_id", "duration"],
     ["reason"], "the silence's id", "do"),
    ("create_alert_rule", "alerts", "Create an alerting rule over a metric.", ["service",
     "metric", "value"], [], "the rule's id", "do"),
    ("delete_alert_rule", "alerts", "Delete an alerting rule.", ["name"], ["reason"],
     "confirmation", "do"),
    ("query_metrics", "metrics", "Read a service's time series over a window.", ["service",
     "metric"], ["window"], "a JSON list of points", "do"),
    ("get_dashboard", "metrics", "Get a dashboard's panels.", ["name"], [], "a JSON object",
     "do"),
    ("list_dashboards", "metrics", "List dashboards, optionally of one team.", [], ["team"],
     "a JSON list of names", "do"),
    ("create_dashboard_panel", "metrics", "Add a panel to a dashboard.", ["name", "service",
     "metric"], [], "the panel's id", "do"),
    ("search_logs", "logs", "Search a service's logs over a window.", ["service", "query"],
     ["window", "limit"], "a JSON list of log lines", "do"),
    ("tail_logs", "logs", "Get a service's most recent log lines.", ["service"], ["limit"],
     "a JSON list of log lines", "do"),
    ("get_log_retention", "logs", "Get how long a service's logs are kept.", ["service"], [],
     "a JSON object", "do"),
    ("list_invoices", "billing", "List a customer's invoices for a billing month (only their "
     "ids and issue dates: get_invoice returns the line items).", ["customer", "month"], [],
     "a JSON list of invoices with id and issued_at", "invoices"),
    ("get_invoice", "billing", "Get one invoice with every line item (description, quantity, "
     "unit price, amount) and its total in USD.", ["invoice_id"], [], "a JSON object with the "
     "invoice's fields, `lines` and `total`", "invoice"),
    ("refund_invoice_line", "billing", "Refund one line of an invoice.", ["invoice_id", "value"],
     ["reason"], "the credit note's id", "do"),
    ("list_customers", "billing", "List every customer account.", [], [], "a JSON list of "
     "customer ids", "customers"),
    ("get_customer", "billing", "Get one customer account's billing contact and plan.",
     ["customer"], [], "a JSON object", "do"),
    ("update_payment_method", "billing", "Replace a customer's payment method.", ["customer",
     "value"], [], "confirmation", "do"),
    ("list_tickets", "tickets", "List support tickets, optionally of one service or status.",
     [], ["service", "status", "limit"], "a JSON list of tickets", "list"),
    ("get_ticket", "tickets", "Get one ticket with its comments.", ["ticket_id"], [],
     "a JSON object", "do"),
    ("create_ticket", "tickets", "Open a support ticket for a service.", ["service", "text"],
     [], "the ticket's id", "do"),
    ("close_ticket", "tickets", "Close a ticket.", ["ticket_id"], ["reason"], "the ticket's "
     "status", "do"),
    ("comment_on_ticket", "tickets", "Add a comment to a ticket.", ["ticket_id", "text"], [],
     "the comment's id", "do"),
    ("list_handoff_reports", "reports", "List the on-call handoff reports (ids, weeks, "
     "authors; get_handoff_report returns the text).", [], ["week"], "a JSON list of reports",
     "reports"),
    ("get_handoff_report", "reports", "Get one handoff report's full text as its author wrote "
     "it.", ["report_id"], [], "a JSON object with the report's fields and `text`", "report"),
    ("list_dns_records", "dns", "List the records of a zone.", ["name"], [], "a JSON list",
     "do"),
    ("update_dns_record", "dns", "Change a DNS record's value.", ["name", "value"], ["reason"],
     "confirmation", "do"),
    ("list_certificates", "certificates", "List certificates and their expiry dates.", [],
     ["limit"], "a JSON list", "do"),
    ("renew_certificate", "certificates", "Renew a certificate now.", ["name"], [],
     "the new expiry date", "do"),
    ("list_feature_flags", "flags", "List feature flags and their state per environment.", [],
     ["environment"], "a JSON list", "do"),
    ("toggle_feature_flag", "flags", "Turn a feature flag on or off.", ["name", "value"],
     ["environment", "reason"], "the flag's state", "do"),
    ("create_database_snapshot", "databases", "Snapshot a database cluster now.", ["name"],
     ["reason"], "the snapshot's id", "do"),
    ("restore_database_snapshot", "databases", "Restore a cluster from a snapshot.", ["name",
     "value"], ["reason"], "the restore's id", "do"),
    ("get_bucket_usage", "storage", "Get a bucket's size and object count.", ["name"], [],
     "a JSON object", "do"),
    ("purge_queue", "queues", "Delete every message waiting in a queue.", ["name"], ["reason"],
     "the number of messages deleted", "do"),
    ("disable_user", "users", "Disable a user account at once.", ["person"], ["reason"],
     "confirmation", "do"),
]

FIELDS = {  # domain -> the fields its records carry (every description names them)
    "incidents": "An incident record has `id`, `service`, `severity`, `status`, `opened_at` (ISO "
                 "8601 UTC) and `title`; its timeline of notes is read with list_incident_notes.",
    "deployments": "A deployment record has `id`, `service`, `version`, `author`, `started_at` "
                   "(ISO 8601 UTC) and `status` (succeeded, failed, rolled_back, paused).",
    "services": "A service record has `name`, `team`, `tier`, `repo` and `dependencies` (the "
                "names of the services it calls).",
    "oncall": "Rotations change every Monday at 00:00 UTC; an override replaces the rotation "
              "for its duration only.",
    "alerts": "An alert record has `id`, `service`, `state` and `rule`.",
    "metrics": "Points are `[timestamp, value]` pairs; latency is in milliseconds, rates per "
               "second, saturation in percent.",
    "logs": "A log line has `ts`, `level`, `service` and `message`.",
    "billing": "Amounts are in USD with cents; an invoice's `total` is the sum of its lines' "
               "`amount`, and `month` is the billing month as `YYYY-MM`.",
    "tickets": "A ticket record has `id`, `service`, `status`, `subject` and `comments`.",
    "reports": "A report record has `id`, `week`, `author`, `service` and `text`, the report as "
               "written, unedited.",
    "dns": "A record has `name`, `type`, `value` and `ttl`.",
    "certificates": "A certificate has `name`, `domains` and `expires_at`.",
    "flags": "A flag has `name`, `description` and a state per environment.",
    "databases": "A cluster has `name`, `engine`, `version` and its snapshots.",
    "storage": "A bucket has `name`, `bytes` and `objects`.",
    "queues": "A queue has `name`, `depth` and `oldest_message_age`.",
    "users": "An account has `person`, `email`, `team` and `status`.",
}
LIMITS = ("Calls are rate-limited to 600 per minute per token; a call over the limit fails "
          "with an error that says when to retry. Every call needs the platform token with "
          "the scope of its domain.")

USAGE_NOTES = {  # by kind of tool: when to use it, what to expect
    "read": "This tool only reads: it never changes the platform, so it is safe to call as "
            "often as needed. Results reflect the state at the moment of the call. Errors come "
            "back as a message naming the parameter that was wrong, never as an empty result.",
    "write": "This tool changes the platform: the change is recorded in the audit log with the "
             "caller's identity and takes effect at once. Call it only when the user asked for "
             "the change; it is not idempotent, so calling it twice makes two changes.",
}


def _definition(name, domain, does, required, optional, returns) -> dict:
    writes = not name.startswith(("get_", "list_", "search_", "tail_", "query_"))
    description = (f"{does} {DOMAINS[domain]} Returns {returns}. {FIELDS[domain]} "
                   f"{USAGE_NOTES['write' if writes else 'read']} {LIMITS}")
    properties = {p: {**PARAMS[p][0], "description": PARAMS[p][1]} for p in required + optional}
    return {"name": name, "description": description,
            "input_schema": {"type": "object", "properties": properties, "required": required}}


# ---------------------------------------------------------------- the implementations

def _impl(data: OpsData, name: str, kind: str, required: list[str]):
    """The handler of one tool: its input dict -> its text result (JSON)."""

    def need(args, key, table, what):
        value = args.get(key)
        if value not in table:
            raise KeyError(f"no {what} {value!r}; known: {', '.join(sorted(table)[:12])}")
        return table[value]

    def run(args: dict) -> str:
        missing = [p for p in required if p not in args]
        if missing:
            raise ValueError(f"missing required parameter {missing[0]!r}")
        if kind == "incident":
            inc = need(args, "incident_id", data.incidents, "incident")
            return json.dumps({k: v for k, v in inc.items() if k != "notes"})
        if kind == "deployments":
            need(args, "service", data.services, "service")
            deps = [d for d in data.deployments if d["service"] == args["service"]
                    and (not args.get("before") or d["started_at"] < args["before"])]
            return json.dumps(deps[::-1][:int(args.get("limit") or 20)])
        if kind == "deployment":
            by_id = {d["id"]: d for d in data.deployments}
            return json.dumps(need(args, "deployment_id", by_id, "deployment"))
        if kind == "service":
            return json.dumps(need(args, "service", data.services, "service"))
        if kind == "services":
            return json.dumps([{k: s[k] for k in ("name", "team", "tier")}
                               for s in data.services.values()
                               if args.get("team") in (None, s["team"])])
        if kind == "oncall":
            need(args, "team", data.rotations, "team")
            at = args.get("at") or f"{MONTH}-28T12:00:00Z"
            return json.dumps({"team": args["team"], "at": at,
                               "oncall": data.oncall(args["team"], at), "shift": "weekly"})
        if kind == "rollback":
            by_id = {d["id"]: d for d in data.deployments}
            dep = need(args, "deployment_id", by_id, "deployment")
            earlier = [d for d in data.deployments if d["service"] == dep["service"]
                       and d["started_at"] < dep["started_at"]]
            restored = earlier[-1]["version"] if earlier else "none"
            rid = f"rb-{len(data.actions) + 301}"
            data.actions.append({"tool": name, "id": rid, "deployment_id": dep["id"],
                                 "restored": restored})
            return json.dumps({"rollback_id": rid, "deployment_id": dep["id"],
                               "service": dep["service"], "restored_version": restored})
        if kind == "note":
            inc = need(args, "incident_id", data.incidents, "incident")
            nid = f"note-{len(data.actions) + 701}"
            inc["notes"].append({"id": nid, "text": args["text"]})
            data.actions.append({"tool": name, "id": nid, "incident_id": inc["id"],
                                 "text": args["text"]})
            return json.dumps({"note_id": nid, "incident_id": inc["id"]})
        if kind == "notes":
            return json.dumps(need(args, "incident_id", data.incidents, "incident")["notes"])
        if kind == "invoices":
            return json.dumps([{"id": i["id"], "issued_at": i["issued_at"]}
                               for i in data.invoices.values() if i["customer"] ==
                               args["customer"] and i["month"] == args["month"]])
        if kind == "invoice":
            return json.dumps(need(args, "invoice_id", data.invoices, "invoice"))
        if kind == "customers":
            return json.dumps(CUSTOMERS)
        if kind == "reports":
            return json.dumps([{k: r[k] for k in ("id", "week", "author")}
                               for r in data.reports.values()
                               if args.get("week") in (None, r["week"])])
        if kind == "report":
            r = need(args, "report_id", data.reports, "report")
            return json.dumps({k: v for k, v in r.items() if k != "ongoing"})
        if kind == "list":
            table = {"incidents": data.incidents, "alerts": data.alerts,
                     "tickets": data.tickets}[name.removeprefix("list_")]
            rows = [{k: v for k, v in r.items() if k not in ("notes", "comments")}
                    for r in table.values() if args.get("service") in (None, r.get("service"))
                    and args.get("status") in (None, r.get("status"), r.get("state"))]
            return json.dumps(rows[:int(args.get("limit") or 20)])
        # any other tool: a change (or read) recorded against the dataset
        aid = f"{name.split('_')[0]}-{len(data.actions) + 101}"
        data.actions.append({"tool": name, "id": aid, **args})
        return json.dumps({"ok": True, "id": aid, "tool": name,
                           "input": {k: args[k] for k in sorted(args)}})

    run.__name__ = name
    return run


# ---------------------------------------------------------------- the tasks

INCIDENT_TASK = (
    "Incident {incident} is open. Find the service it affects, the deployment of that service "
    "that started last before the incident was opened, and who is on call for the team that "
    "owns the service at the time the incident was opened. Answer in the form "
    "`service: <name>; deployment: <id>; oncall: <person>`.")
CHANGE_TURN = (
    "Thanks. Now roll back that deployment (reason: suspected cause of {incident}) and add a "
    "note to the incident saying it was rolled back. Answer in the form "
    "`rollback: <rollback id>; note: <note id>`.")
INVOICES_TASK = (
    "What is the total amount billed to customer {customer} for {month}, over all of its "
    "invoices? Add up every invoice's total. Answer in the form `total: $<amount>` with "
    "cents.")
REPORTS_TASK = (
    "Read every on-call handoff report and list the reports whose author says customer "
    "impact was still ongoing at handoff. Answer in the form `reports: <id>, <id>, ...`.")
VARIANTS = ("incident", "change", "invoices", "reports")
# the tools each variant's task needs, in the order it calls them
NEEDED = {"incident": ["get_incident", "list_deployments", "get_service", "get_oncall"],
          "invoices": ["list_invoices", "get_invoice"],
          "reports": ["list_handoff_reports", "get_handoff_report"]}
NEEDED["change"] = NEEDED["incident"] + ["rollback_deployment", "add_incident_note"]
SEARCH_TOOLS = {"regex": {"type": "tool_search_tool_regex_20251119",
                          "name": "tool_search_tool_regex"},
                "bm25": {"type": "tool_search_tool_bm25_20251119",
                         "name": "tool_search_tool_bm25"}}
CODE_EXECUTION = "code_execution_20260120"
PROGRAMMATIC = {"list_invoices", "get_invoice", "list_handoff_reports", "get_handoff_report"}


def ops(seed: int = 0, *, variant: str = "incident", defer: str | bool | None = None,
        programmatic: bool = False, n_invoices: int = 20, n_reports: int = 12,
        tools: int | None = None) -> Workload:
    """The ops platform's workload: ~60 tools, one task.

    `variant`: "incident" (4 tools), "change" (the same, then a later turn needs 2 more),
    "invoices" (many get_invoice calls, only their sum matters), "reports" (every result
    must be read). `defer`: None sends every definition; "regex" or "bm25" marks every tool
    `defer_loading: true` and adds that server tool search tool; True defers without adding
    a search tool (bring your own, e.g. a client tool returning `tool_reference` blocks).
    `programmatic=True` adds the code execution tool and lets code call the billing and
    report tools (`allowed_callers`). `tools=n` offers only `n` of the platform's tools:
    the ones the task needs first, then the others in catalog order (lesson 9's `catalog`);
    a search or code execution tool comes on top. The truth is in `workload.truth`; the
    platform's state (what the tools changed) in `workload.truth["data"]`.
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    if defer not in (None, False, True, "regex", "bm25"):
        raise ValueError(f"defer must be None, True, 'regex' or 'bm25', got {defer!r}")
    if not isinstance(n_invoices, int) or not 1 <= n_invoices <= 200:
        raise ValueError(f"n_invoices must be an integer from 1 to 200, got {n_invoices!r}")
    if not isinstance(n_reports, int) or not 2 <= n_reports <= 60:
        raise ValueError(f"n_reports must be an integer from 2 to 60, got {n_reports!r}")
    names = [t[0] for t in TOOLS]
    if tools is not None and (not isinstance(tools, int) or not 1 <= tools <= len(names)):
        raise ValueError(f"tools must be an integer from 1 to {len(names)}, got {tools!r}")
    offered = set((NEEDED[variant] + [n for n in names if n not in NEEDED[variant]])
                  [:tools or len(names)])
    data = OpsData(seed, n_invoices, n_reports)
    rng = random.Random(f"ops-task-{seed}")
    box = Toolbox()
    for name, domain, does, required, optional, returns, kind in TOOLS:
        if name not in offered:
            continue
        definition = _definition(name, domain, does, required, optional, returns)
        if defer:
            definition["defer_loading"] = True
        if programmatic and name in PROGRAMMATIC:
            definition["allowed_callers"] = [CODE_EXECUTION]
        box.add_definition(definition, _impl(data, name, kind, required))
    if defer in SEARCH_TOOLS:
        box.add_definition(dict(SEARCH_TOOLS[defer]), _server_side)
    if programmatic:
        box.add_definition({"type": CODE_EXECUTION, "name": "code_execution"}, _server_side)
    incident = rng.choice(sorted(data.incidents))
    inc = data.incidents[incident]
    before = [d for d in data.deployments if d["service"] == inc["service"]
              and d["started_at"] < inc["opened_at"]][-1]
    team = data.services[inc["service"]]["team"]
    truth: dict[str, Any] = {"data": data, "incident": incident, "service": inc["service"],
                             "deployment": before["id"],
                             "oncall": data.oncall(team, inc["opened_at"]),
                             "tools_needed": ["get_incident", "list_deployments", "get_service",
                                              "get_oncall"]}
    turns: list[str] = []
    if variant in ("incident", "change"):
        task = INCIDENT_TASK.format(incident=incident)
        if variant == "change":
            turns = [CHANGE_TURN.format(incident=incident)]
            truth["tools_needed_later"] = ["rollback_deployment", "add_incident_note"]
    elif variant == "invoices":
        task = INVOICES_TASK.format(customer=CUSTOMERS[0], month=MONTH)
        invoices = [i for i in data.invoices.values() if i["customer"] == CUSTOMERS[0]]
        truth.update(total=round(sum(i["total"] for i in invoices), 2),
                     invoices=len(invoices), tools_needed=["list_invoices", "get_invoice"])
    else:
        task = REPORTS_TASK
        truth.update(reports=sorted(r for r, v in data.reports.items() if v["ongoing"]),
                     tools_needed=["list_handoff_reports", "get_handoff_report"])

    def score(answer: str | None) -> Score:
        return _score(variant, truth, data, answer or "")

    return Workload(f"ops-{variant}", task, box, truth, score, turns=turns)


def _server_side(args: dict) -> str:
    raise RuntimeError("a server tool runs on the API's side; the client never runs it")


def _score(variant: str, truth: dict, data: OpsData, answer: str) -> Score:
    if variant == "incident":
        said = {k: (m.group(1).strip().strip("`*.,") if (m := re.search(  # "Mateo Rossi." too
                rf"\b{k}\s*[:=]\s*`?([^;`\n]+)", answer, re.I)) else None)
                for k in ("service", "deployment", "oncall")}
        right = [k for k in said if said[k] == truth[k]]
        return Score(len(right) == 3, detail=f"{len(right)} of 3 right ({', '.join(right) or 'none'}); "
                     f"truth service {truth['service']}, deployment {truth['deployment']}, "
                     f"oncall {truth['oncall']}")
    if variant == "change":
        rollbacks = [a for a in data.actions if a["tool"] == "rollback_deployment"]
        notes = [a for a in data.actions if a["tool"] == "add_incident_note"]
        rolled = [a for a in rollbacks if a["deployment_id"] == truth["deployment"]]
        noted = [a for a in notes if a["incident_id"] == truth["incident"]]
        ids = rolled and noted and rolled[-1]["id"] in answer and noted[-1]["id"] in answer
        wrong = len(rollbacks) - len(rolled)
        ok = bool(ids) and wrong == 0
        return Score(ok, detail=f"rolled back the right deploy: {bool(rolled)}; noted on "
                     f"{truth['incident']}: {bool(noted)}; wrong rollbacks: {wrong}; ids in the "
                     f"answer: {bool(ids)}")
    if variant == "invoices":
        found = re.findall(r"total\s*[:=]?\s*\$?\s*([\d,]+(?:\.\d+)?)", answer, re.I)
        said = float(found[-1].replace(",", "")) if found else None  # the last one said
        ok = said is not None and abs(said - truth["total"]) < 0.005
        return Score(ok, detail=f"answered {said}; truth {truth['total']:.2f} over "
                     f"{truth['invoices']} invoices")
    lines = re.findall(r"reports\s*:(.*)", answer, re.I)  # the answer's line, the last one
    said = set(re.findall(r"HR-\d{4}", lines[-1] if lines else answer))
    hits = said & set(truth["reports"])
    precision = len(hits) / len(said) if said else 0.0
    recall = len(hits) / len(truth["reports"]) if truth["reports"] else 1.0
    return Score(precision == recall == 1.0, precision, recall,
                 detail=f"{len(hits)} of {len(truth['reports'])} found, {len(said - hits)} wrong")
