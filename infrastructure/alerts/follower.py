"""Follows the ledger and hands the alerts its events call for to the sender.

It reads recorded events after the position it keeps, so an alert is never sent for something
that was not recorded (a save that failed sends nothing). It starts at the ledger's head when
built: what was recorded before this process started is not its business (docs/decisions/0022).
``catch_up()`` reads everything recorded so far, at once; the thread calls it every ``poll_s``,
and ``close()`` calls it a last time before the sender drains.

Given ``in_force``, it follows the policy version the ledger holds, as the service does for its
other files, and in the ledger's own order: it starts with the version in force at its start, and
when it reads a policy set's ``Applied`` event it loads that version's alerts.yaml (from the event's
own text) and replaces its sender (the old one delivers what it holds, then stops), so every event
after the new version is alerted by it. A version with no webhook, or one that does not load here,
turns alerts off (logged) until the next (docs/decisions/0032)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from mai_safety.domain.policy_set import PolicySet

from ..periodic import Periodic
from .alerts import alert_for, verify_failed_alert
from .policy import AlertsPolicy
from .sender import WebhookSender

log = logging.getLogger("mai_safety.alerts")
_PAGE = 200
#: How often a follower with alerts off looks for a version that turns them on.
OFF_POLL_S = 1.0


class AlertsInForce:
    """The alerts policy of a policy version (docs/decisions/0032): ``load(version, files)`` reads
    that version's alerts.yaml from the folder its recorded files are written to (the shipped
    folder for version 0)."""

    def __init__(self, load: Callable[[int, dict[str, str]], AlertsPolicy | None]) -> None:
        self.load = load


class AlertFollower(Periodic):
    what = "reading the ledger for alerts"

    def __init__(
        self,
        recorder: Any,
        mapper: Any,
        policy: AlertsPolicy | None,
        sender: WebhookSender | None,
        in_force: AlertsInForce | None = None,
    ) -> None:
        super().__init__("mai-safety-alert-follower", policy.poll_s if policy is not None else OFF_POLL_S)
        self._recorder = recorder
        self._mapper = mapper
        self._policy = policy
        self.sender = sender
        self._in_force = in_force
        self._lock = threading.Lock()
        self.position = recorder.max_notification_id() or 0

    def start(self) -> AlertFollower:
        super().start()
        return self

    def tick(self) -> None:
        self.catch_up()

    def _switch(self, version: int, files: dict[str, str]) -> None:
        """From here on, alert by ``version``'s alerts.yaml; the old sender delivers what it holds."""
        assert self._in_force is not None
        try:
            policy = self._in_force.load(version, files)
        except Exception as exc:  # noqa: BLE001 - a version that does not load here turns alerts off, said once
            log.error("alerts: policy version %s does not load here (%s): alerts are off until one does", version, exc)
            policy = None
        old = self.sender
        self._policy = policy
        self.sender = WebhookSender(policy.webhook) if policy is not None else None
        self.every_s = policy.poll_s if policy is not None else OFF_POLL_S
        log.info("alerts: policy version %s in force: %s", version, policy.webhook.url if policy else "no webhook")
        if old is not None:
            old.close(2.0)

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
        if self.sender is not None:
            self.sender.offer(verify_failed_alert(head_position, checked, problems, actor, at))

    def close(self, wait_s: float = 10.0) -> None:
        self.stop(wait_s)
        try:
            self.catch_up()
        except Exception as exc:  # noqa: BLE001 - the ledger may be gone at shutdown; the sender still drains
            log.error("alerts: the last read of the ledger failed: %s", exc)
        if self.sender is not None:
            self.sender.close(wait_s)

    def _consider(self, notification: Any) -> int:
        try:
            event = self._mapper.to_domain_event(notification)
        except Exception as exc:  # noqa: BLE001 - one unreadable event must not stop the others' alerts
            log.error("alerts: event at position %s cannot be read (%s): no alert for it", notification.id, exc)
            return 0
        if isinstance(event, PolicySet.Applied) and self._in_force is not None:
            self._switch(event.policy_version, {name: record["text"] for name, record in event.files.items()})
            return 0
        policy, sender = self._policy, self.sender
        if policy is None or sender is None:
            return 0  # alerts are off in the version in force
        alert = alert_for(event, notification.id, policy)
        return 1 if alert is not None and sender.offer(alert) else 0
