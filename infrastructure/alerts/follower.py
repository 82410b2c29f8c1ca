"""Follows the ledger and hands the alerts its events call for to the sender.

It reads recorded events after the position it keeps, so an alert is never sent for something
that was not recorded (a save that failed sends nothing). It starts at the ledger's head when
built: what was recorded before this process started is not its business (docs/decisions/0022).
``catch_up()`` reads everything recorded so far, at once; the thread calls it every ``poll_s``,
and ``close()`` calls it a last time before the sender drains."""

from __future__ import annotations

import logging
import threading
from typing import Any

from ..periodic import Periodic
from .alerts import alert_for, verify_failed_alert
from .policy import AlertsPolicy
from .sender import WebhookSender

log = logging.getLogger("mai_safety.alerts")
_PAGE = 200


class AlertFollower(Periodic):
    what = "reading the ledger for alerts"

    def __init__(self, recorder: Any, mapper: Any, policy: AlertsPolicy, sender: WebhookSender) -> None:
        super().__init__("mai-safety-alert-follower", policy.poll_s)
        self._recorder = recorder
        self._mapper = mapper
        self._policy = policy
        self.sender = sender
        self._lock = threading.Lock()
        self.position = recorder.max_notification_id() or 0

    def start(self) -> AlertFollower:
        super().start()
        return self

    def tick(self) -> None:
        self.catch_up()

    def catch_up(self) -> int:
        """Offer the alerts of every event recorded after the kept position; how many."""
        offered = 0
        with self._lock:
            while True:
                page = self._recorder.select_notifications(start=self.position + 1, limit=_PAGE)
                for notification in page:
                    offered += self._consider(notification)
                    self.position = notification.id
                if len(page) < _PAGE:
                    return offered

    def verify_failed(self, head_position: int, checked: int, problems: list[str], actor: str, at: str) -> None:
        self.sender.offer(verify_failed_alert(head_position, checked, problems, actor, at))

    def close(self, wait_s: float = 10.0) -> None:
        self.stop(wait_s)
        try:
            self.catch_up()
        except Exception as exc:  # noqa: BLE001 - the ledger may be gone at shutdown; the sender still drains
            log.error("alerts: the last read of the ledger failed: %s", exc)
        self.sender.close(wait_s)

    def _consider(self, notification: Any) -> int:
        try:
            event = self._mapper.to_domain_event(notification)
        except Exception as exc:  # noqa: BLE001 - one unreadable event must not stop the others' alerts
            log.error("alerts: event at position %s cannot be read (%s): no alert for it", notification.id, exc)
            return 0
        alert = alert_for(event, notification.id, self._policy)
        return 1 if alert is not None and self.sender.offer(alert) else 0
