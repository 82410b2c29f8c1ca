"""The output of the runs this process supervises, as it comes, for whoever watches them (the
service's event streams). Nothing here is recorded: the ledger gets the output once, with the run's
end, as before.

The sandbox's capture thread calls ``LiveOutput.open(...)``'s writer with each chunk it keeps: the
writer appends under a short lock and never waits, so a watcher can never slow a run down, let
alone its supervision. Memory is bounded twice over: a run keeps only its newest
``backlog_bytes`` (for a watcher that comes late), and a watcher holds at most ``watcher_bytes``
it has not taken yet; past that, what comes is dropped and counted, and the watcher is told how
many bytes it missed before it is given what follows (the full output is on the ending event).
"""

from __future__ import annotations

import codecs
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: Called with ("stdout" | "stderr", bytes) from the capture thread.
OutputWriter = Callable[[str, bytes], None]


@dataclass
class Taken:
    """What a watcher took: ``missed`` bytes were dropped before ``chunks`` ([(stream, text)])."""

    chunks: list[tuple[str, str]] = field(default_factory=list)
    missed: int = 0


class OutputWatcher:
    """One reader's view of one execution's live output (``LiveOutput.watch``)."""

    def __init__(self, hub: LiveOutput, execution_id: str, limit: int) -> None:
        self._hub = hub
        self.execution_id = execution_id
        self._limit = limit
        self._items: deque[tuple[str, str, int]] = deque()
        self._bytes = 0
        self._missed = 0

    def _offer(self, stream: str, text: str, size: int) -> None:  # under the hub's lock
        if self._bytes + size > self._limit:
            self._missed += size
            return
        self._items.append((stream, text, size))
        self._bytes += size

    def take(self, max_bytes: int = 64 * 1024) -> Taken:
        """What has come since the last take (at most about ``max_bytes``), consecutive chunks of
        one stream joined; never waits for more."""
        with self._hub._lock:
            taken = Taken(missed=self._missed)
            self._missed = 0
            size = 0
            while self._items and (size == 0 or size + self._items[0][2] <= max_bytes):
                stream, text, length = self._items.popleft()
                self._bytes -= length
                size += length
                if taken.chunks and taken.chunks[-1][0] == stream:
                    taken.chunks[-1] = (stream, taken.chunks[-1][1] + text)
                else:
                    taken.chunks.append((stream, text))
            return taken

    @property
    def held_bytes(self) -> int:
        return self._bytes

    def close(self) -> None:
        self._hub._forget(self)


class _Run:
    def __init__(self, backlog_bytes: int) -> None:
        self.decoders = {name: codecs.getincrementaldecoder("utf-8")(errors="replace") for name in ("stdout", "stderr")}
        self.backlog: deque[tuple[str, str, int]] = deque()
        self.backlog_bytes = 0
        self.limit = backlog_bytes
        self.total = 0

    def keep(self, stream: str, text: str, size: int) -> None:
        self.total += size
        self.backlog.append((stream, text, size))
        self.backlog_bytes += size
        while self.backlog_bytes > self.limit and self.backlog:
            self.backlog_bytes -= self.backlog.popleft()[2]


class LiveOutput:
    def __init__(self, *, backlog_bytes: int = 64 * 1024, watcher_bytes: int = 256 * 1024) -> None:
        self._lock = threading.Lock()
        self._runs: dict[str, _Run] = {}
        self._watchers: dict[str, set[OutputWatcher]] = {}
        self.backlog_bytes = backlog_bytes
        self.watcher_bytes = watcher_bytes

    def open(self, execution_id: str) -> OutputWriter:
        """A run of ``execution_id`` starts in this process: the writer its capture calls."""
        with self._lock:
            run = self._runs[execution_id] = _Run(self.backlog_bytes)

        def write(stream: str, chunk: bytes) -> None:
            if not chunk or stream not in run.decoders:
                return
            text = run.decoders[stream].decode(chunk)
            if text:
                self._publish(execution_id, run, stream, text, len(chunk))

        return write

    def close(self, execution_id: str) -> None:
        """The run ended: what a decoder still holds (a cut character) goes out, then the run is forgotten."""
        with self._lock:
            run = self._runs.pop(execution_id, None)
        if run is None:
            return
        for stream, decoder in run.decoders.items():
            tail = decoder.decode(b"", final=True)
            if tail:
                self._publish(execution_id, None, stream, tail, len(tail.encode("utf-8", "replace")))

    def _publish(self, execution_id: str, run: _Run | None, stream: str, text: str, size: int) -> None:
        with self._lock:
            if run is not None:
                run.keep(stream, text, size)
            for watcher in self._watchers.get(execution_id, ()):
                watcher._offer(stream, text, size)

    def watch(self, execution_id: str) -> OutputWatcher:
        """A watcher of that execution's output from now on, given first what its run (if it runs
        here now) still keeps, and told how much came before that."""
        watcher = OutputWatcher(self, execution_id, self.watcher_bytes)
        with self._lock:
            run = self._runs.get(execution_id)
            if run is not None:
                watcher._missed = run.total - run.backlog_bytes
                for stream, text, size in run.backlog:
                    watcher._offer(stream, text, size)
            self._watchers.setdefault(execution_id, set()).add(watcher)
        return watcher

    def _forget(self, watcher: OutputWatcher) -> None:
        with self._lock:
            watchers = self._watchers.get(watcher.execution_id)
            if watchers is not None:
                watchers.discard(watcher)
                if not watchers:
                    del self._watchers[watcher.execution_id]

    def held_bytes(self) -> int:
        """What every run and watcher holds now (for the service's own accounting and tests)."""
        with self._lock:
            return sum(run.backlog_bytes for run in self._runs.values()) + sum(
                watcher.held_bytes for watchers in self._watchers.values() for watcher in watchers
            )

    def describe(self) -> dict[str, Any]:
        with self._lock:
            runs, watchers = len(self._runs), sum(len(found) for found in self._watchers.values())
        return {"runs": runs, "watchers": watchers, "held_bytes": self.held_bytes()}
