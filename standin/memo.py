"""Work remembered by the exact value it was done on.

A request carries the whole history, and most of it is what the previous request
carried: serializing every message again on every request makes a run's work grow with
the square of its length. `ByValue(fn)` remembers `fn(x)` by a hash of `x`'s exact value:
its `marshal` form, which keeps types and order (`1`, `1.0` and `true` differ, and so do
two orders of the same keys), so a value remembered is one `fn` would give again.
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable


class ByValue:
    """`fn(x)` (bytes), remembered by the exact value of `x`; past `limit` bytes, all is
    forgotten and remembering starts again (a run's history comes back whole, so what is
    remembered is what the next request asks for). Each step is one dict operation, safe
    for clients in threads."""

    def __init__(self, fn: Callable[[object], bytes], limit: int = 64 * 2**20):
        self.fn, self.limit, self.size = fn, limit, 0
        self.table: dict[bytes, bytes] = {}

    def __call__(self, x) -> bytes:
        try:
            key = hashlib.sha256(marshal.dumps(x)).digest()
        except ValueError:  # not plain data, or nested too deep to marshal
            return self.fn(x)
        out = self.table.get(key)
        if out is None:
            out = self.fn(x)
            if self.size + len(out) > self.limit:
                self.table, self.size = {}, 0
            self.table[key] = out
            self.size += len(out)
        return out
