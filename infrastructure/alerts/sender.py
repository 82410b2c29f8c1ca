"""Delivers alerts to the webhook from a thread of its own, so that no execution ever waits on it.

``offer`` never blocks: the queue is bounded, and an alert that finds it full is dropped and
logged. Each alert is tried up to ``attempts`` times; a refused connection, a timeout, a 5xx or a
429 is retried after a back-off that doubles (``backoff_s``, capped at ``max_backoff_s``); any
other answer below 200 or from 300 up is final. Giving up is logged, never raised. httpx's errors
are read here and nowhere else. Before each attempt the URL's host is resolved and every address
checked (destination.py); the request goes to the checked address (the name kept in ``Host`` and
in TLS's server name), and a refused one is final."""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from .destination import RefusedDestination, resolve_checked
from .policy import WebhookPolicy
from .signing import signed_headers

log = logging.getLogger("mai_safety.alerts")
_STOP = object()


class WebhookSender:
    def __init__(self, policy: WebhookPolicy, *, clock: Callable[[], float] = time.time) -> None:
        self._policy = policy
        self._clock = clock
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=policy.queue)
        self._stopping = threading.Event()
        import httpx  # here, not at the top: a CLI command that sends no alert does not pay its import (~0.1 s)

        self._client = httpx.Client(timeout=policy.timeout_s, follow_redirects=False)
        self.attempted = 0  # HTTP requests tried, for status and tests
        self.delivered = 0
        self.given_up = 0
        self.dropped = 0
        self._thread = threading.Thread(target=self._work, name="mai-safety-alerts", daemon=True)
        self._thread.start()

    def offer(self, alert: dict[str, Any]) -> bool:
        """Queue ``alert`` for delivery; False (and logged) when the queue is full."""
        try:
            self._queue.put_nowait(alert)
            return True
        except queue.Full:
            self.dropped += 1
            log.warning("alert %s dropped: %d alerts already wait for the webhook", alert.get("id"), self._policy.queue)
            return False

    def close(self, wait_s: float = 10.0) -> None:
        """Deliver what is queued for at most ``wait_s``, then stop: what is left is logged."""
        deadline = time.monotonic() + wait_s
        try:
            self._queue.put(_STOP, timeout=wait_s)
        except queue.Full:
            pass
        self._thread.join(max(deadline - time.monotonic(), 0.0))
        self._stopping.set()  # cuts a back-off short: what is still queued is given up
        if self._thread.is_alive():
            log.warning("alerts still undelivered at shutdown (the webhook at %s is slow or down)", self._policy.url)
            return  # the thread may be inside a request: it dies with the process (a daemon)
        self._client.close()

    def _work(self) -> None:
        while True:
            try:
                alert = self._queue.get(timeout=0.5)
            except queue.Empty:
                if self._stopping.is_set():  # closing found the queue full: no _STOP came
                    return
                continue
            if alert is _STOP:
                return
            if self._stopping.is_set():
                self.given_up += 1
                log.error("alert %s given up: shutting down", alert.get("id"))
                continue
            self._deliver(alert)

    def _deliver(self, alert: dict[str, Any]) -> None:
        body = json.dumps(alert, sort_keys=True, separators=(",", ":")).encode()
        wait = self._policy.backoff_s
        for attempt in range(1, self._policy.attempts + 1):
            failure = self._attempt(body)
            if failure is None:
                self.delivered += 1
                return
            if failure.startswith("final:") or attempt == self._policy.attempts:
                break
            log.info("alert %s: attempt %d failed (%s); retrying in %.1f s", alert.get("id"), attempt, failure, wait)
            if self._stopping.wait(wait):
                break
            wait = min(wait * 2, self._policy.max_backoff_s)
        self.given_up += 1
        log.error("alert %s given up after %d attempt(s): %s", alert.get("id"), attempt, failure)

    def _attempt(self, body: bytes) -> str | None:
        """None when delivered; else why not ("final: ..." when retrying cannot help)."""
        self.attempted += 1
        timestamp = str(int(self._clock()))  # signed afresh on each attempt: a retry is not stale
        try:
            address = resolve_checked(self._policy.url, allow_loopback=self._policy.allow_loopback)
        except RefusedDestination as exc:
            return f"final: {exc}: alerts may not go there"
        import httpx  # imported by __init__ already

        url = httpx.URL(self._policy.url)
        headers = {**signed_headers(self._policy.secret, timestamp, body), "Host": url.netloc.decode("ascii")}
        extensions = {"sni_hostname": url.host} if url.scheme == "https" else {}
        try:
            response = self._client.post(url.copy_with(host=address), content=body, headers=headers, extensions=extensions)
        except httpx.HTTPError as exc:
            return f"{type(exc).__name__}: {exc}"
        if 200 <= response.status_code < 300:
            return None
        if response.status_code >= 500 or response.status_code == 429:
            return f"HTTP {response.status_code}"
        return f"final: HTTP {response.status_code}"
