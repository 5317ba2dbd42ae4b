"""Checks for lesson 1b's exercises (the prompt cache).

- ex1b.place_breakpoints: a request with breakpoints at the end of the system prompt and on
  the newest message's last block, older message breakpoints removed, the input unchanged.
  A cached loop driven by the check feeds each returned request back with the next step
  appended, against the course model on claude-sonnet-5-5's rules (a 512-token minimum, so
  every step is cached); its usage must equal agentlib's run_agent(cache=True), request by
  request, and stay within the API's 4 breakpoints.
- ex1b.bill_from_usage: dollars from the API's usage objects, where `input_tokens` is only
  the uncached part, writes are split by TTL in `cache_creation`, and `cached=False` bills
  the same prompt with no cache.
- ex1b.first_divergence: the `cache_miss_reason.type` cache diagnostics would report for
  two requests (or None): the stand-in's own diagnostics are the reference.

In the class grader each check adds cases drawn from the grader's secret (`drawn`, `seed`
in classroom/grading.py) to the public ones: requests, usages, prices and the audit's
seed, so that no table computed in advance from the shipped cases answers them.
"""

from __future__ import annotations

import copy
import json
import math
import random
import tempfile
from functools import lru_cache

from classroom.grading import drawn, own_work, portable, register, seed

own_work("ex1b.place_breakpoints", "agentlib.loop:cache_breakpoint", "agentlib.loop:run_agent")
own_work("ex1b.bill_from_usage", "agentlib.cost", "agentlib.meter:price")
own_work("ex1b.first_divergence", "standin.diagnostics")

MARK = {"type": "ephemeral"}
SONNET = "claude-sonnet-5-5"  # a 512-token minimum: every request of the small audit caches
STEPS = 6  # requests in the loop check: more than 4, so stale breakpoints would pass the limit
AUDIT_SEED = seed(1)  # the small audit's seed: the course's own, or one drawn when grading
WORDS = ["audit", "configs", "timeout", "retry", "pool", "cache", "billing", "auth", "queue",
         "오류", "설정", "✅"]


def _words(r: random.Random, n: int) -> str:
    return " ".join(r.choice(WORDS) for _ in range(n))

# ---------------------------------------------------------------- ex1b.place_breakpoints

BP_HINT = ("copy the request; make `system` a list of text blocks and put cache_control "
           "{'type': 'ephemeral'} on its last one; remove cache_control from every message "
           "block, then put it on the last block of the newest message; see lesson 1b, "
           "'Automatic caching, in the loop'")


def _sample() -> dict:
    return {"model": SONNET, "max_tokens": 256, "system": "You audit configs.",
            "tools": [{"name": "read_file", "description": "Read a file.",
                       "input_schema": {"type": "object", "properties": {
                           "path": {"type": "string"}}}}],
            "messages": [{"role": "user", "content": "Audit the configs."},
                         {"role": "assistant", "content": [
                             {"type": "text", "text": "Reading."},
                             {"type": "tool_use", "id": "toolu_1", "name": "read_file",
                              "input": {"path": "a.conf"}}]},
                         {"role": "user", "content": [
                             {"type": "tool_result", "tool_use_id": "toolu_1",
                              "content": "timeout_s = 45", "cache_control": MARK}]},
                         {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
                         {"role": "user", "content": [{"type": "text", "text": "And b.conf?"},
                                                      {"type": "text", "text": "Be brief."}]}]}


def _marks(request: dict) -> list[str]:
    """Where a request carries cache_control: 'system.i', 'tools.i', 'messages.i.j'."""
    found = []
    system = request.get("system")
    for i, b in enumerate(system if isinstance(system, list) else []):
        if isinstance(b, dict) and "cache_control" in b:
            found.append(f"system.{i}")
    for i, t in enumerate(request.get("tools") or []):
        if isinstance(t, dict) and "cache_control" in t:
            found.append(f"tools.{i}")
    for i, m in enumerate(request.get("messages") or []):
        content = m.get("content") if isinstance(m, dict) else None
        for j, b in enumerate(content if isinstance(content, list) else []):
            if isinstance(b, dict) and "cache_control" in b:
                found.append(f"messages.{i}.{j}")
    return found


def _placed(ns: dict, request: dict) -> dict:
    got = ns["place_breakpoints"](copy.deepcopy(request))
    assert isinstance(got, dict) and isinstance(got.get("messages"), list), \
        f"place_breakpoints should return the request (a dict with its messages), got {type(got).__name__}"
    return json.loads(json.dumps(got, default=lambda o: o.to_dict()))


def _drawn_sample(r: random.Random) -> dict:
    """_sample() with its texts, its newest message's blocks and its old marks drawn."""
    request = _sample()
    request["system"] = _words(r, r.randrange(3, 30))
    for message in request["messages"][:-1]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            block.pop("cache_control", None)
            if r.random() < 0.4:
                block["cache_control"] = dict(MARK)
    request["messages"][-1]["content"] = [{"type": "text", "text": _words(r, r.randrange(1, 9))}
                                          for _ in range(r.randrange(1, 5))]
    return request


@register("ex1b.place_breakpoints", "marks the end of the system prompt and the newest block, "
          "nothing else", hint=BP_HINT, needs=("place_breakpoints",))
def _bp_where(ns: dict) -> None:
    for request in [_sample(), *(_drawn_sample(r) for r in drawn(11, 3))]:
        _bp_where_on(ns, request)


def _bp_where_on(ns: dict, request: dict) -> None:
    got = _placed(ns, request)
    system = got.get("system")
    assert isinstance(system, list) and system and isinstance(system[-1], dict) and \
        system[-1].get("text") == request["system"], \
        ("the system prompt should become a list of text blocks with the same text "
         f"(a string cannot carry cache_control), got {system!r}")
    last = len(request["messages"]) - 1
    newest = len(request["messages"][last]["content"]) - 1
    want = [f"system.{len(system) - 1}", f"messages.{last}.{newest}"]
    assert _marks(got) == want, (f"the breakpoints should be at {', '.join(want)} (the end of "
                                 f"the system prompt, the newest message's last block), got "
                                 f"{', '.join(_marks(got)) or 'none'}")
    assert system[-1]["cache_control"] == MARK and \
        got["messages"][last]["content"][newest]["cache_control"] == MARK, \
        "each breakpoint should be cache_control {'type': 'ephemeral'}"
    text = got["messages"][last]["content"]
    assert [b.get("text") for b in text] == [b["text"] for b in request["messages"][last][
        "content"]], "the newest message's blocks should stay as they were, only marked"


@register("ex1b.place_breakpoints", "does not change its input", hint=BP_HINT,
          needs=("place_breakpoints",))
def _bp_pure(ns: dict) -> None:
    for request in [_sample(), *(_drawn_sample(r) for r in drawn(12, 2))]:
        before = copy.deepcopy(request)
        ns["place_breakpoints"](request)
        assert request == before, ("place_breakpoints changed the request it was given: build "
                                   "new lists and dicts (the caller's history must stay as it "
                                   "was)")


@lru_cache(maxsize=1)
def _reference() -> list[tuple[int, int]]:
    """(cache_write, cache_read) per request of agentlib's cached run of the small audit."""
    from agentlib import loop
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex1b-") as root:
        run = loop.run_agent(connect(offline=True, model=SONNET),
                             workloads.audit(3, seed=AUDIT_SEED, root=root), model=SONNET,
                             max_tokens=512, max_steps=STEPS, cache=True)
    return [(s.cache_write, s.cache_read) for s in run.steps]


def _learner_loop(ns: dict) -> list[tuple[int, int]]:
    """The same run, each request marked by the learner and fed back with the next step."""
    import anthropic

    from agentlib import models
    from agentlib.loop import DEFAULT_SYSTEM
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex1b-") as root:
        work = portable(workloads.audit, 3, seed=AUDIT_SEED, root=root)
        client = connect(offline=True, model=SONNET)
        request = {"model": SONNET, "max_tokens": 512, "system": DEFAULT_SYSTEM,
                   "tools": work.tools, "thinking": models.quiet_thinking(SONNET),
                   "messages": [{"role": "user", "content": [{"type": "text",
                                                              "text": work.task}]}]}
        usage = []
        for i in range(STEPS):
            request = _placed(ns, request)
            try:
                r = client.messages.create(**request)
            except anthropic.APIStatusError as e:
                body = e.body if isinstance(e.body, dict) else {}
                message = (body.get("error") or {}).get("message", str(e))
                raise AssertionError(f"request {i}: the API answered {e.status_code}: "
                                     f"{message}") from None
            usage.append((r.usage.cache_creation_input_tokens, r.usage.cache_read_input_tokens))
            reply = {"role": "assistant", "content": [b.to_dict() for b in r.content]}
            if r.stop_reason != "tool_use":
                break
            request = {**request, "messages": [*request["messages"], reply,
                                               work.toolbox.run_all(reply)]}
    return usage


@register("ex1b.place_breakpoints", "in a loop, every request reads the whole previous "
          "prompt, within 4 breakpoints", hint=BP_HINT, needs=("place_breakpoints",))
def _bp_loop(ns: dict) -> None:
    want, got = _reference(), _learner_loop(ns)
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        assert g == w, (f"request {i} wrote {g[0]:,} and read {g[1]:,} tokens; with the system "
                        f"prompt and the newest block marked it writes {w[0]:,} and reads "
                        f"{w[1]:,}")
    assert len(got) == len(want), \
        f"the loop stopped after {len(got)} requests; the reference made {len(want)}"


# ---------------------------------------------------------------- ex1b.bill_from_usage

PRICES = {"input": 3.0, "output": 15.0, "cache_write_5m": 3.75, "cache_write_1h": 6.0,
          "cache_read": 0.30}
BILL_HINT = ("input_tokens is only the uncached part: bill it at the input price; "
             "cache_creation.ephemeral_5m_input_tokens at cache_write_5m, "
             "ephemeral_1h_input_tokens at cache_write_1h, cache_read_input_tokens at "
             "cache_read, output_tokens at the output price, all per million; with "
             "cached=False, input + written + read at the input price")


def usage(inp=0, out=0, read=0, five=0, hour=0) -> dict:
    """A usage object as the API returns it (`response.usage.to_dict()`)."""
    return {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": read,
            "cache_creation_input_tokens": five + hour,
            "cache_creation": {"ephemeral_5m_input_tokens": five,
                               "ephemeral_1h_input_tokens": hour}}


def reference_bill(usages, prices: dict, cached: bool = True) -> float:
    total = 0.0
    for u in usages:
        written, read = u["cache_creation_input_tokens"], u["cache_read_input_tokens"]
        hour = (u.get("cache_creation") or {}).get("ephemeral_1h_input_tokens", 0)
        if cached:
            total += (u["input_tokens"] * prices["input"] + read * prices["cache_read"]
                      + (written - hour) * prices["cache_write_5m"]
                      + hour * prices["cache_write_1h"])
        else:
            total += (u["input_tokens"] + written + read) * prices["input"]
        total += u["output_tokens"] * prices["output"]
    return total / 1e6


def _bill(ns: dict, usages, prices=None, cached=True) -> float:
    got = ns["bill_from_usage"](copy.deepcopy(usages), dict(prices or PRICES), cached=cached)
    assert isinstance(got, int | float) and not isinstance(got, bool), \
        f"bill_from_usage should return a number of dollars, got {type(got).__name__} {got!r}"
    return got


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@register("ex1b.bill_from_usage", "input_tokens is only the uncached part: reads and writes "
          "are billed once, at their own prices", hint=BILL_HINT, needs=("bill_from_usage",))
def _bill_parts(ns: dict) -> None:
    usages = [usage(inp=4, out=50, read=9_000, five=1_000)]
    got, want = _bill(ns, usages), reference_bill(usages, PRICES)
    as_total = (9_000 * 0.30 + 1_000 * 3.75 + 50 * 15 - 9_000 * 3.0 - 1_000 * 3.0 + 4 * 3.0) / 1e6
    message = (f"a request with 4 uncached, 1,000 written and 9,000 read tokens and 50 output "
               f"tokens costs ${want:.6f} at $3 input, $3.75 writes, $0.30 reads, $15 output per "
               f"million; got {got!r}")
    if _close(got, as_total):
        message += " (that takes input_tokens for the whole prompt and subtracts the cache)"
    assert _close(got, want), message
    assert _bill(ns, []) == 0, "a run with no requests costs nothing"
    for r in drawn(21, 3):
        usages, prices = _drawn_usages(r), _drawn_prices(r)
        got, want = _bill(ns, usages, prices), reference_bill(usages, prices)
        assert _close(got, want), f"{_usages_text(usages)} cost ${want:.6f} at {prices}; got {got!r}"


def _drawn_usages(r: random.Random) -> list[dict]:
    return [usage(inp=r.randrange(1, 4_000), out=r.randrange(1, 900),
                  read=r.choice([0, r.randrange(1, 60_000)]), five=r.choice([0, r.randrange(1, 9_000)]),
                  hour=r.choice([0, 0, r.randrange(1, 9_000)])) for _ in range(r.randrange(1, 6))]


def _drawn_prices(r: random.Random) -> dict:
    base = r.choice([0.8, 1.0, 3.0, 5.0, 15.0])
    return {"input": base, "output": base * 5, "cache_write_5m": base * 1.25,
            "cache_write_1h": base * 2, "cache_read": base / 10}


def _usages_text(usages: list[dict]) -> str:
    """Drawn usages in words: their sums, each kind of token once."""
    hour = sum(u["cache_creation"]["ephemeral_1h_input_tokens"] for u in usages)
    return (f"{len(usages)} request(s) with {sum(u['input_tokens'] for u in usages):,} "
            f"uncached, {sum(u['cache_creation_input_tokens'] for u in usages) - hour:,} "
            f"written for 5 minutes, {hour:,} written for an hour, "
            f"{sum(u['cache_read_input_tokens'] for u in usages):,} read and "
            f"{sum(u['output_tokens'] for u in usages):,} output tokens")


@register("ex1b.bill_from_usage", "1-hour writes at the 1-hour price, 5-minute writes at the "
          "5-minute price", hint=BILL_HINT, needs=("bill_from_usage",))
def _bill_ttl(ns: dict) -> None:
    usages = [usage(inp=4, out=10, five=2_000, hour=3_000), usage(inp=4, out=10, read=5_000,
                                                                  hour=500)]
    got, want = _bill(ns, usages), reference_bill(usages, PRICES)
    assert _close(got, want), ("two requests writing 2,000 tokens for 5 minutes and 3,500 for "
                               f"an hour (usage.cache_creation) cost ${want:.6f}; got {got!r}")
    for r in drawn(22, 2):
        usages, prices = _drawn_usages(r), _drawn_prices(r)
        got, want = _bill(ns, usages, prices), reference_bill(usages, prices)
        assert _close(got, want), f"{_usages_text(usages)} cost ${want:.6f} at {prices}; got {got!r}"


@register("ex1b.bill_from_usage", "cached=False: the same prompt, every token at the input "
          "price", hint=BILL_HINT, needs=("bill_from_usage",))
def _bill_uncached(ns: dict) -> None:
    usages = [usage(inp=4, out=20, read=8_000, five=700), usage(inp=10, out=30, hour=900)]
    got, want = _bill(ns, usages, cached=False), reference_bill(usages, PRICES, cached=False)
    assert _close(got, want), (f"without a cache the same two requests cost ${want:.6f} "
                               f"(input + written + read at the input price); got {got!r}")
    for r in drawn(23, 2):
        usages, prices = _drawn_usages(r), _drawn_prices(r)
        got = _bill(ns, usages, prices, cached=False)
        want = reference_bill(usages, prices, cached=False)
        assert _close(got, want), (f"without a cache, {_usages_text(usages)} cost ${want:.6f} at "
                                   f"{prices}; got {got!r}")


@lru_cache(maxsize=1)
def _real_run():
    """A cached run of the small audit with 1-hour and 5-minute writes: its usages, as the API
    returns them, and agentlib's bills (cached, uncached)."""
    from agentlib import cost, models
    from agentlib.loop import run_agent
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex1b-") as root:
        run = run_agent(connect(offline=True, model=SONNET),
                        workloads.audit(3, seed=AUDIT_SEED, root=root), model=SONNET, max_tokens=512,
                        extra={"cache_control": {**MARK, "ttl": "1h"}}, max_steps=STEPS)
    usages = [usage(inp=s.input_tokens - s.cache_read - s.cache_write, out=s.output_tokens,
                    read=s.cache_read, five=s.cache_write - s.cache_write_1h,
                    hour=s.cache_write_1h) for s in run.steps]
    p = models.prices(SONNET)
    prices = {"input": p.input, "output": p.output, "cache_write_5m": p.cache_write_5m,
              "cache_write_1h": p.cache_write_1h, "cache_read": p.cache_read}
    return usages, prices, cost.bill(run).total, cost.bill(run, cached=False).total


@register("ex1b.bill_from_usage", "agrees with agentlib.cost.bill on a real cached run",
          hint=BILL_HINT, needs=("bill_from_usage",))
def _bill_real(ns: dict) -> None:
    usages, prices, cached, uncached = _real_run()
    got = _bill(ns, usages, prices)
    assert _close(got, cached), (f"the lesson's audit with 1-hour caching on {SONNET} costs "
                                 f"${cached:.6f} by agentlib.cost.bill; got {got!r}")
    got = _bill(ns, usages, prices, cached=False)
    assert _close(got, uncached), (f"uncached, the same requests cost ${uncached:.6f}; "
                                   f"got {got!r}")


# ---------------------------------------------------------------- ex1b.first_divergence

DIV_HINT = ("compare in the prompt's order and return the first difference: model, then "
            "tools, then system, then the other settings (thinking, tool_choice: "
            "'unavailable'), then messages (the previous ones must be a prefix of the "
            "current ones); ignore cache_control; see lesson 1b, 'What silently breaks the "
            "prefix'")
GREP = {"name": "grep", "description": "Search every file for a pattern.",
        "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}}}}
TOOLS = [{"name": "list_files", "description": "List the files.",
          "input_schema": {"type": "object", "properties": {}}},
         {"name": "read_file", "description": "Read a file.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]


def _base(r: random.Random | None = None) -> dict:
    """A request after two steps of an audit, and its history (its texts drawn from `r`)."""
    task, system = ("Audit the configs.", "You audit configs. " * 80) if r is None else (
        _words(r, r.randrange(2, 12)), _words(r, r.randrange(200, 400)))
    result = "timeout_s = 45" if r is None else f"{r.choice(WORDS)} = {r.randrange(1, 999)}"
    messages = [
        {"role": "user", "content": [{"type": "text", "text": task}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                           "name": "list_files", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "a.conf\nb.conf"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Reading a.conf."},
                                          {"type": "tool_use", "id": "toolu_2",
                                           "name": "read_file", "input": {"path": "a.conf"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2",
                                      "content": result,
                                      "cache_control": MARK}]}]
    return {"model": "course-model-1", "max_tokens": 256, "thinking": {"type": "disabled"},
            "system": [{"type": "text", "text": system, "cache_control": MARK}],
            "tools": TOOLS, "messages": messages}


def _moved(request: dict) -> dict:
    """The next step: two messages appended, the breakpoint moved to the newest block."""
    messages = copy.deepcopy(request["messages"])
    del messages[-1]["content"][-1]["cache_control"]
    messages += [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_3", "name": "read_file", "input": {"path": "b.conf"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3",
                                      "content": "timeout_s = 10", "cache_control": MARK}]}]
    return {**request, "messages": messages}


def _edit(request: dict, **change) -> dict:
    return {**copy.deepcopy(request), **change}


def _cases(draw: int | None = None) -> dict[str, tuple[dict, dict]]:
    """The cases by label: the public ones, or (`draw`) the `draw`-th drawn set."""
    base = _base(None if draw is None else drawn(31, draw + 1)[draw])
    old = copy.deepcopy(base["messages"])
    old[2]["content"][0]["content"] = "(cleared)"
    stamped = [{**base["system"][0], "text": base["system"][0]["text"] + "Now: 09:05."}]
    return {
        "two messages appended, the breakpoint moved": (base, _moved(base)),
        "the same request": (base, copy.deepcopy(base)),
        "another model": (base, _edit(base, model="claude-opus-4-8")),
        "a timestamp in the system prompt": (base, _edit(base, system=stamped)),
        "a tool added": (base, _edit(base, tools=[*TOOLS, GREP])),
        "the tools reordered": (base, _edit(base, tools=TOOLS[::-1])),
        "a tool added and the system prompt changed": (base, _edit(base, tools=[*TOOLS, GREP],
                                                                   system=stamped)),
        "thinking turned on": (base, _edit(base, thinking={"type": "adaptive"})),
        "tool_choice set": (base, _edit(base, tool_choice={"type": "auto"})),
        "an old tool result cleared": (base, _edit(base, messages=old)),
        "the newest exchange removed": (base, _edit(base, messages=base["messages"][:3])),
    }


def _sets() -> list[int | None]:
    """The case sets a check tries: the public one, and those drawn when grading."""
    return [None, *range(len(drawn(31, 2)))]


def _divergence(ns: dict, label: str, draw: int | None = None) -> str | None:
    previous, current = _cases(draw)[label]
    got = ns["first_divergence"](copy.deepcopy(previous), copy.deepcopy(current))
    assert got is None or isinstance(got, str), \
        (f"first_divergence should return a cache_miss_reason type (a string) or None, got "
         f"{type(got).__name__} {got!r}")
    return got


def _expect(ns: dict, label: str, want: str | None) -> None:
    for draw in _sets():
        _expect_in(ns, label, want, draw)


def _expect_in(ns: dict, label: str, want: str | None, draw: int | None) -> None:
    got = _divergence(ns, label, draw)
    assert got == want, f"{label}: the API reports {want!r}, got {got!r}"


@register("ex1b.first_divergence", "None when the request only appends (a moved breakpoint "
          "is no change)", hint=DIV_HINT, needs=("first_divergence",))
def _div_none(ns: dict) -> None:
    _expect(ns, "the same request", None)
    _expect(ns, "two messages appended, the breakpoint moved", None)


@register("ex1b.first_divergence", "names the earliest of model, tools, system",
          hint=DIV_HINT, needs=("first_divergence",))
def _div_parts(ns: dict) -> None:
    for label, want in (("another model", "model_changed"),
                        ("a timestamp in the system prompt", "system_changed"),
                        ("a tool added", "tools_changed"),
                        ("the tools reordered", "tools_changed"),
                        ("a tool added and the system prompt changed", "tools_changed")):
        _expect(ns, label, want)


@register("ex1b.first_divergence", "an edited or removed old message is messages_changed; "
          "a changed setting is unavailable", hint=DIV_HINT, needs=("first_divergence",))
def _div_messages(ns: dict) -> None:
    for label, want in (("an old tool result cleared", "messages_changed"),
                        ("the newest exchange removed", "messages_changed"),
                        ("thinking turned on", "unavailable"),
                        ("tool_choice set", "unavailable")):
        _expect(ns, label, want)


@lru_cache(maxsize=4)
def _api_answers(draw: int | None = None) -> dict[str, str | None]:
    """What the stand-in's cache diagnostics say for each case (of a drawn set)."""
    from coursekit import connect

    out = {}
    for label, (previous, current) in _cases(draw).items():
        client = connect(offline=True)
        first = client.messages.create(**previous, diagnostics={"previous_message_id": None})
        second = client.messages.create(**current, diagnostics={"previous_message_id": first.id})
        reason = second.diagnostics.cache_miss_reason if second.diagnostics else None
        out[label] = reason.type if reason else None
    return out


@register("ex1b.first_divergence", "agrees with the API's cache diagnostics on every case",
          hint=DIV_HINT, needs=("first_divergence",))
def _div_api(ns: dict) -> None:
    for draw in _sets():
        for label, want in _api_answers(draw).items():
            _expect_in(ns, label, want, draw)
