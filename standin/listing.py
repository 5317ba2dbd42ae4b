"""The Models API: `GET /v1/models` and `GET /v1/models/{model_id}`, from the catalog.

Each model as SDK 2.14's `types/model_info.py` shapes it (`type: "model"`, `id`,
`display_name`, `created_at`, `lifecycle`, `line`, `max_input_tokens`, `max_tokens`,
`deprecated_at`, `retires_at`, `capabilities`), a page as `pagination.py::SyncPage` reads
it (`data`, `has_more`, `first_id`, `last_id`; cursors `after_id`, `before_id`; `limit`
1 to 1000, default 20). The list holds the active and deprecated models unless `lifecycle`
asks for others. Sources: docs/api-facts.md, 19.10.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from apiwire import models
from standin.errors import APIError

EPOCH = "1970-01-01T00:00:00Z"  # "May be set to an epoch value if the release date is unknown"
LIFECYCLE = {"current": "active", "legacy": "active", "course": "active",
             "deprecated": "deprecated", "retired": "retired"}
LINES = ("haiku", "sonnet", "opus", "fable", "mythos")  # SDK `types/model_line.py`
# an alias (`claude-haiku-4-5`) -> its dated id (`claude-haiku-4-5-20251001`), listed once
DATED = {m[:-9]: m for m in models.CATALOG if re.search(r"-\d{8}$", m)}


def display_name(model_id: str) -> str:
    """`claude-sonnet-5-5` -> `Claude Sonnet 5.5`; the course's model says what it is."""
    if model_id == models.OFFLINE_MODEL:
        return "Course Model 1 (the offline stand-in, not Claude)"
    words = model_id.removeprefix("claude-").split("-")
    names = [w.capitalize() for w in words if not w.isdigit()]
    version = [w for w in words if w.isdigit() and len(w) < 8]  # not a dated id's date
    return " ".join(["Claude", *names, ".".join(version)]).strip()


def info(row: models.Model, window: int | None = None) -> dict:
    """One model as the Models API describes it; `window` is the server's override."""
    line = row.id.removeprefix("claude-").split("-")[0]
    return {"type": "model", "id": row.id, "display_name": display_name(row.id),
            "created_at": EPOCH, "lifecycle": LIFECYCLE[row.status],
            "line": line if line in LINES else None,
            "max_input_tokens": (window or row.window) if row.window else None,
            "max_tokens": row.max_output or None, "deprecated_at": None,
            "retires_at": row.retires, "capabilities": None}


def answer(path: str, query: str, window: int | None = None) -> dict:
    """The body of a `GET` on `/v1/models` or `/v1/models/{model_id}`."""
    if path != "/v1/models":
        model_id = path.removeprefix("/v1/models/")
        row = models.CATALOG.get(model_id)
        if row is None or not model_id:
            raise APIError(404, f"model: {model_id}")
        return info(models.CATALOG[DATED.get(model_id, model_id)], window)
    params = parse_qs(query, keep_blank_values=True)
    wanted = {v.strip() for key in ("lifecycle", "lifecycle[]")
              for value in params.get(key, []) for v in value.split(",") if v.strip()}
    bad = wanted - {"active", "deprecated", "retired"}
    if bad:
        raise APIError(400, f"lifecycle: Input should be 'active', 'deprecated' or 'retired', "
                       f"got {sorted(bad)[0]!r}")
    wanted = wanted or {"active", "deprecated"}
    rows = [r for r in models.CATALOG.values()
            if r.id not in DATED and LIFECYCLE[r.status] in wanted]
    raw = (params.get("limit") or ["20"])[-1]
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise APIError(400, f"limit: Input should be an integer from 1 to 1000, got {raw!r}")
    limit, ids = int(raw), [r.id for r in rows]
    after, before = (params.get("after_id") or [None])[-1], (params.get("before_id") or [None])[-1]
    for name, cursor in (("after_id", after), ("before_id", before)):
        if cursor is not None and cursor not in ids:
            raise APIError(400, f"{name}: no model {cursor!r} in this list")
    if before is not None:
        end = ids.index(before)
        page, has_more = rows[max(0, end - limit):end], end - limit > 0
    else:
        start = ids.index(after) + 1 if after is not None else 0
        page, has_more = rows[start:start + limit], start + limit < len(rows)
    data = [info(r, window) for r in page]
    return {"data": data, "has_more": has_more, "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None}
