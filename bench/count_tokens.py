"""Benchmark: counting a long agent history twice with `agentlib.tokens.count`.

The first pass tokenizes every string; the second finds them all in `count_text`'s cache,
which is what lets an agent loop re-count its growing history before every request.

    .venv/bin/python bench/count_tokens.py

Exits 1 when the cached pass is not at least 10x faster than the first.
"""

from __future__ import annotations

import gc
import random
import sys
import time

from agentlib import tokens
from agentlib.messages import assistant, is_valid, text, tool_result, tool_use, user

N_MESSAGES = 2_000
MIN_SPEEDUP = 10.0
SEED = 20_251_101

WORDS = ("the agent reads each configuration file in order and notes the timeout value "
         "before it moves on service retries backoff cache window budget token result "
         "request response history summary cleared placeholder compaction memory tool "
         "listing offset page log error warning confirmed hypothesis root cause").split()


def prose(rng: random.Random, lo: int, hi: int) -> str:
    """Words up to a length drawn between lo and hi characters."""
    target = rng.randint(lo, hi)
    out: list[str] = []
    size = 0
    while size < target:
        w = rng.choice(WORDS)
        out.append(w)
        size += len(w) + 1
    return " ".join(out).capitalize() + "."


def config_file(rng: random.Random, n: int, lo: int, hi: int) -> str:
    """A config-like tool result: key = value lines, with numbers, up to lo..hi characters."""
    target = rng.randint(lo, hi)
    lines = [f"# service-{n:04d}.conf"]
    size = len(lines[0])
    while size < target:
        key = rng.choice(["timeout", "retries", "port", "max_conn", "log_level", "cache_ttl"])
        line = f"{key}_{rng.randint(0, 99)} = {rng.randint(0, 100_000)}  # {rng.choice(WORDS)}"
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def build_history(n_messages: int = N_MESSAGES, seed: int = SEED) -> list[dict]:
    """A deterministic, valid history: a task, then mostly assistant text + tool_use /
    user tool_result pairs, with some plain answers and user follow-ups."""
    rng = random.Random(seed)
    history = [user("List the services whose timeout is above 30. " + prose(rng, 200, 600))]
    call = 0
    while len(history) < n_messages:
        last = history[-1]
        if last["role"] == "user":
            if rng.random() < 0.1:
                history.append(assistant(prose(rng, 400, 2000)))  # a plain answer
                continue
            call += 1
            history.append(assistant(
                prose(rng, 200, 600),
                tool_use(f"toolu_{call:06d}", "read_file",
                         {"path": f"configs/service-{call:04d}.conf",
                          "offset": rng.randint(0, 400)})))
        elif last["content"][-1]["type"] == "tool_use":
            uid = last["content"][-1]["id"]
            if rng.random() < 0.05:
                history.append(user(tool_result(uid, f"Error: {prose(rng, 200, 300)}",
                                                is_error=True)))
            else:
                body = config_file(rng, call, 300, 2000)
                content = body if rng.random() < 0.7 else [text(body)]
                history.append(user(tool_result(uid, content)))
        else:
            history.append(user(prose(rng, 200, 800)))  # the user follows up
    return history[:n_messages]


def main() -> int:
    history = build_history()
    # a history the API would accept (a final unanswered tool_use is the call in flight)
    in_flight = history[-1]["content"][-1]["type"] == "tool_use"
    assert is_valid(history[:-1] if in_flight else history)
    chars = sum(len(s) for m in history for b in m["content"] for s in tokens._block_strings(b))
    kinds: dict[str, int] = {}
    for m in history:
        for b in m["content"]:
            kinds[b["type"]] = kinds.get(b["type"], 0) + 1
    tokens.encoding()  # load the encoding outside the timed region
    tokens.count_text.cache_clear()

    gc.collect()
    gc.disable()  # keep collector pauses out of both timings
    try:
        t0 = time.perf_counter()
        first = tokens.count(history)
        t1 = time.perf_counter()
        second = tokens.count(history)
        t2 = time.perf_counter()
    finally:
        gc.enable()

    cold, warm = t1 - t0, t2 - t1
    ratio = cold / warm if warm > 0 else float("inf")
    ok = first == second and ratio >= MIN_SPEEDUP

    print(f"history: {len(history)} messages, {sum(kinds.values())} blocks "
          f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}), {chars:,} characters")
    print(f"tokens: {first:,} (second pass {second:,}; chars/token {chars / first:.2f})")
    print(f"first pass (cold cache):  {cold * 1000:9.1f} ms   {first / cold:,.0f} tokens/s")
    print(f"second pass (warm cache): {warm * 1000:9.1f} ms")
    print(f"cache info: {tokens.count_text.cache_info()}")
    print()
    print(f"==> SPEEDUP second/first: {ratio:,.1f}x  (required >= {MIN_SPEEDUP:.0f}x)  "
          f"{'OK' if ok else 'FAIL'}")
    print("    (absolute times are informational; the ratio is the check)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
