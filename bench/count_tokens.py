"""Benchmark: counting a long agent history twice with `agentlib.tokens.count`.

The first pass tokenizes every string; the second finds them all in `count_text`'s cache,
which is what lets an agent loop re-count its growing history before every request.

    .venv/bin/python bench/count_tokens.py

Exits 1 when the cached pass is not at least 10x faster than the first.
"""

from __future__ import annotations

import gc
import sys
import time

from agentlib import tokens
from agentlib.messages import is_valid
from coursekit.histories import agent_history

N_MESSAGES = 2_000
MIN_SPEEDUP = 10.0

def main() -> int:
    history = agent_history("count-tokens", N_MESSAGES // 2, lines=(0, 60), variety=True)
    assert is_valid(history) and len(history) >= N_MESSAGES - 10
    parts = [b for m in history for b in (m["content"] if isinstance(m["content"], list)
                                          else [{"type": "text", "text": m["content"]}])]
    chars = sum(len(s) for b in parts for s in tokens._block_strings(b))
    kinds: dict[str, int] = {}
    for b in parts:
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
