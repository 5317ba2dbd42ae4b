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
import threading
from collections import OrderedDict
from collections.abc import Callable


class ByValue:
    """`fn(x)` (bytes), remembered by the exact value of `x`: the least recently used go
    first past `limit` bytes. One lock, for clients in threads."""

    def __init__(self, fn: Callable[[object], bytes], limit: int = 64 * 2**20):
        self.fn, self.limit, self.size = fn, limit, 0
        self.table: OrderedDict[bytes, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, x) -> bytes:
        try:
            key = hashlib.sha256(marshal.dumps(x)).digest()
        except ValueError:  # not plain data, or nested too deep to marshal
            return self.fn(x)
        with self.lock:
            out = self.table.get(key)
            if out is not None:
                self.table.move_to_end(key)
                return out
        out = self.fn(x)
        with self.lock:
            if key not in self.table:
                self.table[key] = out
                self.size += len(out)
            while self.size > self.limit and self.table:
                self.size -= len(self.table.popitem(last=False)[1])
        return out
