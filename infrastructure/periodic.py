"""A thread that does one piece of background work every few seconds (the service's sweeper, the
views' follower, the alerts' follower): stopped with its owner, and a failed round logged and
tried again."""

from __future__ import annotations

import logging
import threading

log = logging.getLogger("mai_safety.periodic")


class Periodic:
    """Calls ``tick()`` every ``every_s`` seconds in a daemon thread named ``name``."""

    what = "the work"

    def __init__(self, name: str, every_s: float) -> None:
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, wait_s: float = 30.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=wait_s)

    def tick(self) -> None:
        raise NotImplementedError

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.tick()
            except Exception as exc:  # noqa: BLE001 - the next round tries again
                log.warning("%s failed (%s: %s); trying again in %g s", self.what, type(exc).__name__, exc, self.every_s)
