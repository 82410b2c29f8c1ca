"""The service's follower of the ledger: a thread that catches the read models up every
``every_s`` seconds (polling from the tracking position: docs/decisions/0021), so that their lag
(``GET /v1/status``) stays a poll's worth of events."""

from __future__ import annotations

from mai_safety.application.read_models import ReadModels

from ..periodic import Periodic


class ViewFollower(Periodic):
    what = "catching the views up"

    def __init__(self, models: ReadModels, every_s: float = 0.5) -> None:
        super().__init__("mai-safety-views", every_s)
        self.models = models

    def tick(self) -> None:
        self.models.catch_up()
