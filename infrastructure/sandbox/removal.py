"""Removing a run's container after its end has been recorded, off the caller's path.

The removal of a container (the engine's work: about 40–60 ms under runc on these hosts) is the
last step of a run, after its ending event is saved. A process that lives on (the service) hands it
to one thread of its own, so that the answer does not wait for it; a one-shot process (the CLI)
removes at once. Until it is gone, the container still counts against the host's room (admission
lists it) and still carries its labels, so a process that dies with removals pending leaves them to
the next start's reaper like any other leftover. ``close`` waits for what is queued.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

#: How long ``close`` waits for the removals still queued.
DRAIN_S = 60.0


class Removals:
    """Runs each removal given to it on one thread, in order; or at once when ``background`` is off."""

    def __init__(self, background: bool, name: str = "mai-safety-removals") -> None:
        """``name``: its thread's (the pool renames taken containers on one of these too)."""
        self.background = background
        self.name = name
        self._queue: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def remove(self, work: Callable[[], None]) -> None:
        if not self.background:
            work()
            return
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self.name, daemon=True)
                self._thread.start()
            self._queue.put(work)

    def _work(self) -> None:
        while True:
            work = self._queue.get()
            try:
                if work is None:
                    return
                work()
            except Exception:  # noqa: BLE001 - a removal that failed is the reaper's at the next start
                pass
            finally:
                self._queue.task_done()

    def close(self, timeout_s: float = DRAIN_S) -> None:
        """Wait for every removal queued so far (at most ``timeout_s``), then stop the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is None:
            return
        self._queue.put(None)
        thread.join(timeout_s)
