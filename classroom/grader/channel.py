"""One JSON object per line over a pair of pipes, with deadlines and a size limit.

The grader reads what the sandbox sends with a deadline (a hung notebook must not hang
the grader) and refuses a line longer than `MAX_LINE` (a notebook must not fill its
memory). The sandbox side reads without a deadline: it waits for the grader's next call.
"""

from __future__ import annotations

import json
import os
import select
import time

MAX_LINE = 64 * 1024 * 1024


class ChannelClosed(Exception):
    """The other side closed its end (or died)."""


class ChannelTimeout(Exception):
    """Nothing complete arrived before the deadline."""


class ChannelBroken(Exception):
    """The other side sent something that is not a message (too long, not JSON)."""


class Channel:
    """Reads and writes messages; state: the bytes read but not yet returned."""

    def __init__(self, read_fd: int, write_fd: int, max_line: int = MAX_LINE) -> None:
        self.read_fd, self.write_fd, self.max_line = read_fd, write_fd, max_line
        self._buffer = bytearray()

    def send(self, message: dict) -> None:
        """Write one message (raises ChannelClosed if the reader is gone)."""
        data = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.write_fd, view):]
        except (BrokenPipeError, OSError) as exc:
            raise ChannelClosed(str(exc)) from None

    def receive(self, deadline: float | None = None) -> dict:
        """The next message; `deadline` is a time.monotonic() value, None waits forever."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                try:
                    message = json.loads(line)
                except ValueError:
                    raise ChannelBroken(f"not a message: {line[:80]!r}") from None
                if not isinstance(message, dict):
                    raise ChannelBroken("a message must be a JSON object")
                return message
            if len(self._buffer) > self.max_line:
                raise ChannelBroken(f"a message longer than {self.max_line:,} bytes")
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChannelTimeout()
                ready, _, _ = select.select([self.read_fd], [], [], left)
                if not ready:
                    raise ChannelTimeout()
            try:
                chunk = os.read(self.read_fd, 1 << 20)
            except OSError as exc:
                raise ChannelClosed(str(exc)) from None
            if not chunk:
                raise ChannelClosed("end of stream")
            self._buffer += chunk
