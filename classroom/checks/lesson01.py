"""Checks for lesson 01's exercises (append-only growth).

- ex1.agent_loop: the loop by hand; every request re-sends the whole history, and it
  stops after max_steps requests.
- ex1.estimate_tokens: characters / 4, rounded up, over characters (not bytes).
- ex1.session_cost: every request is billed for everything it sends.
- ex1.first_overflow: the first request that leaves no room for a full reply (max_tokens
  included); with max_tokens=0, the first the API refuses.

The agent_loop checks run the learner's loop against the offline course model (always
offline, whatever the environment says) and compare it with `agentlib.loop.run_agent`;
the requests are counted by the model itself (when grading, the grader's model answers
them). A number may be any integer or real type (numpy's int64, a Decimal).
"""

from __future__ import annotations

import decimal
import json
import math
import numbers
import tempfile
from functools import lru_cache

from classroom.grading import drawn, own_work, portable, register, seed

# ---------------------------------------------------------------- the learner's own work

# The library code these exercises ask the learner to write: the class grader's sandbox
# does not have it (classroom/grader/withhold.py: stubs, or served to the notebook's own
# cells only), and a check passed with it gets a note in the learner's kernel.
own_work("ex1.agent_loop", "agentlib.loop:run_agent")
own_work("ex1.estimate_tokens", "agentlib.tokens:estimate_text", "agentlib.tokens:estimate",
         "agentlib.tokens:estimate_bytes")  # (bytes / 4: the same on ASCII; found by its answers)
own_work("ex1.session_cost", "agentlib.cost", "agentlib.meter:price")

# ---------------------------------------------------------------- ex1.agent_loop

AUDIT_SEED = seed(1)  # the small audit's seed: the course's own, or one drawn when grading
LOOP_SYSTEM = "You are a careful auditor. Note what each file says before the next call."
LOOP_MAX_TOKENS = 1024
LOOP_HINT = ("each turn: create(...) with the whole `messages` list, append the reply as "
             "an assistant message, stop unless stop_reason == 'tool_use', else append "
             "workload.toolbox.run_all(reply); see lesson 01, 'The loop by hand'")


@lru_cache(maxsize=1)
def _reference_run():
    """agentlib's run of the small audit (deterministic, so computed once)."""
    from agentlib import loop
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex1-") as root:
        return loop.run_agent(connect(offline=True), workloads.audit(3, seed=AUDIT_SEED, root=root),
                              system=LOOP_SYSTEM, max_tokens=LOOP_MAX_TOKENS, max_steps=30)


def _loop_runs(ns: dict, max_steps: int = 30) -> tuple[tuple, object]:
    """(the learner's (history, input_tokens), agentlib's Run) on the same small audit."""
    reference = _reference_run()
    got, _ = _learner_loop(ns, max_steps)
    assert isinstance(got, tuple | list) and len(got) == 2, \
        f"agent_loop should return (history, input_tokens), got {type(got).__name__}"
    history, input_tokens = got
    assert isinstance(history, list) and isinstance(input_tokens, list), \
        (f"history and input_tokens should be lists, got {type(history).__name__} and "
         f"{type(input_tokens).__name__}")
    return (history, input_tokens), reference


def _learner_loop(ns: dict, max_steps: int):
    """(what the learner's loop returned, how many requests the model received)."""
    import anthropic

    from agentlib.client import model_name
    from coursekit import connect, workloads

    with tempfile.TemporaryDirectory(prefix="agentlib-ex1-") as root:
        work = portable(workloads.audit, 3, seed=AUDIT_SEED, root=root)
        client = connect(offline=True)
        try:
            got = ns["agent_loop"](client, work, model=model_name(client),
                                   system=LOOP_SYSTEM, max_tokens=LOOP_MAX_TOKENS,
                                   max_steps=max_steps)
        except anthropic.APIStatusError as e:
            body = e.body if isinstance(e.body, dict) else {}
            message = (body.get("error") or {}).get("message", str(e))
            raise AssertionError(f"the API rejected a request with {e.status_code}: "
                                 f"{message}") from None
    return got, client.course_model.calls


def _plain(message) -> dict:
    """A message as plain dicts, also when its content holds the SDK's block objects."""
    return json.loads(json.dumps(message, default=lambda o: o.to_dict()))


@register("ex1.agent_loop", "returns (history, input_tokens), one count per request",
          hint=LOOP_HINT, needs=("agent_loop",))
def _loop_shape(ns: dict) -> None:
    (history, input_tokens), _ = _loop_runs(ns)
    assert input_tokens, "input_tokens is empty: record response.usage.input_tokens each turn"
    bad = [t for t in input_tokens if not _is_int(t)]
    assert not bad, f"input_tokens should hold ints (usage.input_tokens), got {bad[0]!r}"
    assert history and history[0].get("role") == "user", \
        "the history should start with the user's task"


@register("ex1.agent_loop", "re-sends the whole history on every request",
          hint="the model is stateless: pass messages=history (all of it), not the last "
               "message", needs=("agent_loop",))
def _loop_resends(ns: dict) -> None:
    (_, input_tokens), reference = _loop_runs(ns)
    expected = [s.input_tokens for s in reference.steps]
    for i, (got, want) in enumerate(zip(input_tokens, expected, strict=False)):
        assert got == want, (f"request {i} sent {got} input tokens, the reference loop sent "
                             f"{want}: is every earlier message still in the list you send?")
    assert len(input_tokens) >= len(expected), \
        (f"your loop made {len(input_tokens)} requests and stopped; the task needs "
         f"{len(expected)} (stop only when stop_reason is not 'tool_use')")


@register("ex1.agent_loop", "keeps every reply and tool result in the history",
          hint="append the assistant reply, then the user message of tool_result blocks",
          needs=("agent_loop",))
def _loop_history(ns: dict) -> None:
    (history, _), reference = _loop_runs(ns)
    roles = [m.get("role") for m in history]
    want = [m["role"] for m in reference.history]
    if roles != want:
        i = next((i for i, (g, w) in enumerate(zip(roles, want, strict=False)) if g != w),
                 min(len(roles), len(want)))
        got_role = roles[i] if i < len(roles) else None
        want_role = want[i] if i < len(want) else None
        raise AssertionError(
            f"history roles differ from the reference at message {i}: got {got_role!r}, "
            f"expected {want_role!r} ({len(roles)} messages, the reference has {len(want)}); "
            "the order is user (task), then assistant / user (tool results) pairs, ending "
            "with the assistant's answer")


@register("ex1.agent_loop", "stops when the model stops asking for tools, with the answer",
          hint="break when response.stop_reason != 'tool_use'; the last message is the "
               "answer; and never send more than max_steps requests", needs=("agent_loop",))
def _loop_stops(ns: dict) -> None:
    from agentlib.messages import message_text

    (history, input_tokens), reference = _loop_runs(ns)
    assert len(input_tokens) == reference.calls, \
        (f"your loop made {len(input_tokens)} requests; the model answered after "
         f"{reference.calls}")
    last = _plain(history[-1]) if history else {}
    assert last.get("role") == "assistant", "the history should end with the model's answer"
    assert message_text(last) == reference.answer, \
        "the last message should be the model's final answer, unchanged"
    for max_steps in (1, 2):  # and it stops at max_steps, whatever the model asks
        assert reference.calls > max_steps, "the audit is too short (a bug in the check)"
        got, requests = _learner_loop(ns, max_steps)
        assert requests <= max_steps, (
            f"with max_steps={max_steps} your loop sent {requests} requests; the task needs "
            f"{reference.calls}, so the loop must stop after {max_steps}")
        assert isinstance(got, tuple | list) and len(got) == 2 and \
            isinstance(got[1], list) and len(got[1]) == requests, (
                f"with max_steps={max_steps} the model received {requests} request(s); "
                "input_tokens should hold one count per request")


# ---------------------------------------------------------------- ex1.estimate_tokens

EST_HINT = "math.ceil(len(text) / 4): len() of the str counts characters"


def _is_int(value) -> bool:
    """An integer of any integer type (int, numpy's int64), but not True or False."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and \
        type(value).__name__ not in ("bool_", "bool")


def _ascii(r, n: int) -> str:
    """`n` characters of config-like text drawn from `r`."""
    return "".join(r.choice("abcdefghijklmnopqrstuvwxyz_ =;0123456789") for _ in range(n))


def _est(ns: dict, text: str):
    got = ns["estimate_tokens"](text)
    assert _is_int(got), \
        f"estimate_tokens({text!r}) should return an int, got {type(got).__name__} {got!r}"
    return got


@register("ex1.estimate_tokens", "rounds up: 5 characters are 2 tokens",
          hint=EST_HINT, needs=("estimate_tokens",))
def _est_rounds_up(ns: dict) -> None:
    extra = [_ascii(r, 4 * r.randrange(0, 30) + r.randrange(1, 4)) for r in drawn(11, 3)]
    for text, want in [("hello", 2), ("a", 1), ("abcdefghi", 3),
                       *((t, -(-len(t) // 4)) for t in extra)]:
        got = _est(ns, text)
        assert got == want, f"estimate_tokens({text!r}) should be {want}, got {got}"


@register("ex1.estimate_tokens", "exact multiples of 4 do not round up; empty is 0",
          hint=EST_HINT, needs=("estimate_tokens",))
def _est_exact(ns: dict) -> None:
    extra = [_ascii(r, 4 * r.randrange(3, 40)) for r in drawn(12, 2)]
    for text, want in [("", 0), ("abcd", 1), ("abcdefgh", 2), *((t, len(t) // 4) for t in extra)]:
        got = _est(ns, text)
        assert got == want, f"estimate_tokens({text!r}) should be {want}, got {got}"


@register("ex1.estimate_tokens", "counts characters, not UTF-8 bytes",
          hint="len(text), not len(text.encode()): '안녕하세요' is 5 characters, 15 bytes",
          needs=("estimate_tokens",))
def _est_chars(ns: dict) -> None:
    extra = ["".join(r.choice("안녕하세요메모🚀✅éß") for _ in range(r.randrange(5, 60)))
             for r in drawn(13, 2)]
    for text, want in [("안녕하세요", 2), ("🚀🚀🚀🚀", 1), *((t, -(-len(t) // 4)) for t in extra)]:
        got = _est(ns, text)
        assert got == want, (f"estimate_tokens({text!r}) should be {want} ({len(text)} "
                             f"characters), got {got}")


@register("ex1.estimate_tokens", "agrees with agentlib.tokens.estimate_text on many lengths",
          hint=EST_HINT, needs=("estimate_tokens",))
def _est_property(ns: dict) -> None:
    from agentlib.tokens import estimate_text

    base = "".join(_ascii(r, 48) for r in drawn(14)) or "timeout_s = 45; " * 3
    for n in range(41):
        text = base[:n]
        got, want = _est(ns, text), estimate_text(text)
        assert got == want, f"for {n} characters the estimate is {want}, got {got}"


# ---------------------------------------------------------------- ex1.session_cost

COST_HINT = ("sum every request's input tokens times input_price, plus output tokens times "
             "output_price, divided by 1,000,000")


def _cost(ns: dict, inputs, outputs, **prices) -> float:
    got = ns["session_cost"](list(inputs), list(outputs), **prices)
    assert isinstance(got, numbers.Real | decimal.Decimal) and not isinstance(got, bool), \
        f"session_cost should return a number of dollars, got {type(got).__name__}"
    return float(got)


def _near(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@register("ex1.session_cost", "bills every request for everything it sent",
          hint="every request is billed for its whole input, not only the newest one",
          needs=("session_cost",))
def _cost_every_request(ns: dict) -> None:
    got = _cost(ns, [1000, 2000, 3000], [0, 0, 0], input_price=3.0, output_price=15.0)
    assert _near(got, 0.018), ("three requests of 1,000, 2,000 and 3,000 input tokens at "
                               f"$3 per million cost $0.018, got {got!r}")
    for r in drawn(21, 2):
        inputs, price = sorted(r.randrange(500, 90_000) for _ in range(r.randrange(2, 9))), \
            r.choice([0.8, 1.0, 3.0, 5.0, 15.0])
        got, want = _cost(ns, inputs, [0] * len(inputs), input_price=price, output_price=15.0), \
            sum(inputs) * price / 1e6
        assert _near(got, want), (f"{len(inputs)} requests of {sum(inputs):,} input tokens "
                                  f"in all at ${price:g} per million cost ${want:.6f}, got {got!r}")


@register("ex1.session_cost", "prices are per million tokens", hint=COST_HINT,
          needs=("session_cost",))
def _cost_per_million(ns: dict) -> None:
    got = _cost(ns, [1_000_000], [0], input_price=3.0, output_price=15.0)
    assert _near(got, 3.0), f"one million input tokens at $3 per million cost $3, got {got!r}"
    for r in drawn(22):
        millions, price = r.randrange(2, 9), r.choice([0.8, 1.0, 5.0, 15.0])
        got = _cost(ns, [1_000_000] * millions, [0] * millions, input_price=price,
                    output_price=15.0)
        assert _near(got, millions * price), (f"{millions} million input tokens at ${price:g} per "
                                              f"million cost ${millions * price:g}, got {got!r}")


@register("ex1.session_cost", "output tokens are billed at the output price", hint=COST_HINT,
          needs=("session_cost",))
def _cost_output(ns: dict) -> None:
    got = _cost(ns, [0, 0], [400_000, 600_000], input_price=3.0, output_price=15.0)
    assert _near(got, 15.0), ("one million output tokens at $15 per million cost $15, "
                              f"got {got!r}")
    for r in drawn(23):
        outputs, price = [r.randrange(100, 5_000) for _ in range(r.randrange(2, 7))], \
            r.choice([4.0, 10.0, 15.0, 25.0])
        got, want = _cost(ns, [0] * len(outputs), outputs, input_price=3.0, output_price=price), \
            sum(outputs) * price / 1e6
        assert _near(got, want), (f"{sum(outputs):,} output tokens at ${price:g} per million "
                                  f"cost ${want:.6f}, got {got!r}")


@register("ex1.session_cost", "uses the prices it is given; an empty session costs 0",
          hint="use the input_price and output_price arguments, not fixed numbers",
          needs=("session_cost",))
def _cost_prices(ns: dict) -> None:
    got = _cost(ns, [2_000_000], [500_000], input_price=1.0, output_price=5.0)
    assert _near(got, 4.5), f"2M input at $1 plus 0.5M output at $5 is $4.50, got {got!r}"
    for r in drawn(24):
        i, o, pi, po = r.randrange(10**5, 10**7), r.randrange(10**4, 10**6), \
            r.choice([0.25, 1.0, 2.5, 3.0]), r.choice([1.25, 5.0, 12.5, 15.0])
        got, want = _cost(ns, [i], [o], input_price=pi, output_price=po), (i * pi + o * po) / 1e6
        assert _near(got, want), (f"{i:,} input at ${pi:g} plus {o:,} output at ${po:g} is "
                                  f"${want:.6f}, got {got!r}")
    got = _cost(ns, [], [], input_price=3.0, output_price=15.0)
    assert _near(got, 0.0), f"no requests cost nothing, got {got!r}"


# ---------------------------------------------------------------- ex1.first_overflow

OVER_HINT = ("return the index of the first step with input + max_tokens > window "
             "(strictly greater), or None")


def _overflowing(r) -> tuple[list[int], int, int]:
    """A growing session drawn from `r` that overflows its window: (inputs, window, the index
    of the first step over it)."""
    inputs, n = [], r.randrange(50, 900)
    for _ in range(r.randrange(3, 12)):
        inputs.append(n)
        n += r.randrange(20, 900)
    want = r.randrange(0, len(inputs))
    window = inputs[want] - 1 if want == 0 else r.randrange(inputs[want - 1], inputs[want])
    return inputs, window, want


def _over(ns: dict, inputs, window, **kw):
    return ns["first_overflow"](list(inputs), window, **kw)


def _same(got, want) -> bool:
    if want is None:
        return got is None
    return _is_int(got) and got == want


@register("ex1.first_overflow", "finds the index of the first step that does not fit",
          hint=OVER_HINT, needs=("first_overflow",))
def _over_first(ns: dict) -> None:
    for inputs, window, want in [([100, 200, 300, 400], 250, 2), ([500, 900, 950], 800, 1),
                                 ([9000, 100], 8000, 0), *(_overflowing(r) for r in drawn(31, 3))]:
        got = _over(ns, inputs, window)
        assert _same(got, want), (f"first_overflow({inputs}, {window}) should be the index "
                                  f"{want}, got {got!r}")


@register("ex1.first_overflow", "a request exactly as long as the window still fits",
          hint="the API refuses only input > window; a full reply needs input + max_tokens "
               "<= window",
          needs=("first_overflow",))
def _over_boundary(ns: dict) -> None:
    got = _over(ns, [100, 250, 300], 250)
    assert _same(got, 2), f"250 tokens fit a 250-token window; the answer is 2, got {got!r}"
    for r in drawn(32):
        inputs, window, want = _overflowing(r)
        inputs[want - 1 if want else 0] = window if want else inputs[0]
        got = _over(ns, inputs, window)
        assert _same(got, want), (f"first_overflow({inputs}, {window}) should be {want} (a step "
                                  f"exactly as long as the window fits), got {got!r}")


@register("ex1.first_overflow", "reserves room for max_tokens",
          hint="a full reply needs input + max_tokens <= window (past it the reply is cut)",
          needs=("first_overflow",))
def _over_max_tokens(ns: dict) -> None:
    got = _over(ns, [100, 200, 300], 250, max_tokens=60)
    assert _same(got, 1), ("200 input + 60 max_tokens = 260 > 250, so step 1 fails, "
                           f"got {got!r}")
    for r in drawn(33, 2):
        inputs, window, _ = _overflowing(r)
        reserve = r.randrange(1, window // 3)
        want = next((i for i, n in enumerate(inputs) if n + reserve > window), None)
        got = _over(ns, inputs, window, max_tokens=reserve)
        assert _same(got, want), (f"first_overflow({inputs}, {window}, max_tokens={reserve}) "
                                  f"should be {want!r}, got {got!r}")


@register("ex1.first_overflow", "returns None when every step fits (not -1, not False)",
          hint="return None after the loop", needs=("first_overflow",))
def _over_none(ns: dict) -> None:
    extra = [sorted(r.randrange(1, 10) for _ in range(r.randrange(1, 8))) for r in drawn(34, 2)]
    for inputs in ([1, 2, 3], [], *extra):
        got = _over(ns, inputs, 10)
        assert got is None, f"first_overflow({inputs}, 10) should be None, got {got!r}"


@lru_cache(maxsize=1)
def _lesson_runs() -> tuple[list[int], int]:
    """The lesson's audit(12): per-step input tokens with room to spare, and the step the
    API refused in an 8,000-token window (computed once)."""
    from agentlib import loop
    from coursekit import connect, workloads

    # The lesson's seed first (refused); under the grader's secret a drawn audit's files can
    # be small enough to fit the window, and then the next drawn one is tried.
    for k in range(20):
        with tempfile.TemporaryDirectory(prefix="agentlib-ex1-") as root:
            run = loop.run_agent(connect(offline=True, context_window=8000),
                                 workloads.audit(12, seed(k), root=root), max_tokens=128)
        if run.steps[-1].error:
            break
    assert run.steps[-1].error, "no audit(12) drawn was refused in 8,000 tokens (a bug in the check)"
    with tempfile.TemporaryDirectory(prefix="agentlib-ex1-") as root:
        full = loop.run_agent(connect(offline=True),
                              workloads.audit(12, seed(k), root=root))
    return [s.input_tokens for s in full.steps], run.steps[-1].index


@register("ex1.first_overflow", "predicts where the lesson's audit(12) run fails",
          hint=OVER_HINT, needs=("first_overflow",))
def _over_lesson(ns: dict) -> None:
    per_step, refused = _lesson_runs()
    got = _over(ns, per_step, 8000)
    assert _same(got, refused), (f"in an 8,000-token window the API refused step {refused} "
                                 f"(prompt is too long), got {got!r}")
    short = next(i for i, n in enumerate(per_step) if n + 2048 > 8000)
    got = _over(ns, per_step, 8000, max_tokens=2048)
    assert _same(got, short), (f"with max_tokens=2048, step {short} is the first that leaves "
                               f"less than 2,048 tokens for the reply, got {got!r}")
