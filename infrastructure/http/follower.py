"""The service's follower of the ledger: a thread that catches the read models up every
``every_s`` seconds (polling from the tracking position: docs/decisions/0021), so that their lag
(``GET /v1/status``) stays a poll's worth of events. A failure is logged and tried again."""

from __future__ import annotations

import logging
import threading

from mai_safety.application.read_models import ReadModels

log = logging.getLogger("mai_safety.http")


class ViewFollower:
    def __init__(self, models: ReadModels, every_s: float = 0.5) -> None:
        self.models = models
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="mai-safety-views", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.models.catch_up()
            except Exception as exc:  # noqa: BLE001 - the follower tries again next round
                log.warning("the views could not catch up (%s: %s); trying again in %g s", type(exc).__name__, exc, self.every_s)
