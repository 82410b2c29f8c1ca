"""The engine's event stream, read by one daemon thread per sandbox and handed to who needs it.

Two things on a run's path were asked of the engine by a request of their own, though the engine
announces them anyway (issue #29, each ~2 ms on these hosts):

* how a command started by ``exec`` ended (``exec_die``, with ``execID`` and ``exitCode``, Docker
  20.10 and later): ``ExecEnds`` keeps the statuses, read instead of an ``exec_inspect``;
* that a managed container started (``start``, with the container's labels), another supervisor's
  included: the room count inspects it then, off the run's path, instead of in the next admission
  (admission.py ``RoomCount.learn``).

What the stream says is the engine's own word, as its answers to a request are: observed from
outside the code, never what the code wrote. Whoever reads it must not depend on it: a stream that
is not connected, or an event that did not come, leaves them to ask the engine as before. The
stream reconnects by itself, backing off while the engine does not answer; ``connected_since`` says
from when nothing it carries can have been missed.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

#: The longest pause between two attempts to connect the stream.
BACKOFF_MAX_S = 30.0
#: How many announced ends ExecEnds keeps (those of other containers on the engine included).
EXITS = 4096
#: How long after a command's output ended its announced end is waited for, before asking.
WAIT_S = 0.05

Handler = Callable[[str, dict[str, str]], None]


class EngineEvents:
    """The stream of the events ``handlers`` name (action: handler(actor id, attributes)), read
    in the background once ``start()`` is called. ``client``: makes a Docker client of the stream's
    own (it holds one connection for as long as the stream lives)."""

    def __init__(self, client: Callable[[], Any]) -> None:
        self._client = client
        self._handlers: dict[str, list[Handler]] = {}
        self.changed = threading.Condition()
        self._connected_since: float | None = None  # time.monotonic(); None while not connected
        self._stream: Any = None
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    def on(self, action: str, handler: Handler) -> None:
        """Call ``handler`` for each container event of this action (before ``start``)."""
        self._handlers.setdefault(action, []).append(handler)

    def start(self) -> None:
        """Connect the stream, in the background, if it is not yet (idempotent)."""
        with self.changed:
            if self._thread is None and not self._closing.is_set() and self._handlers:
                self._thread = threading.Thread(target=self._listen, name="mai-safety-engine-events", daemon=True)
                self._thread.start()

    def connected_since(self) -> float | None:
        """Since when (time.monotonic()) the stream has been connected without a break; None now."""
        with self.changed:
            return self._connected_since

    def close(self) -> None:
        self._closing.set()
        stream = self._stream
        if stream is not None:
            try:
                stream.close()
            except Exception:  # noqa: BLE001 - closing a stream that broke already
                pass

    def _listen(self) -> None:
        failures = 0
        while not self._closing.is_set():
            client = None
            try:
                client = self._client()
                self._stream = client.api.events(decode=True, filters={"type": "container", "event": sorted(self._handlers)})
                with self.changed:
                    self._connected_since = time.monotonic()  # subscribed: from now on nothing is missed
                failures = 0
                for event in self._stream:
                    self._dispatch(event)
            except Exception:  # noqa: BLE001 - whatever breaks the stream (the engine's, urllib3's, a bad line): readers ask instead
                failures += 1
            finally:
                with self.changed:
                    self._connected_since = None
                    self.changed.notify_all()
                self._stream = None
                if client is not None:
                    try:
                        client.close()
                    except Exception:  # noqa: BLE001 - a client whose engine is gone
                        pass
            self._closing.wait(min(0.1 * 2.0 ** min(failures, 9), BACKOFF_MAX_S) if failures else 0.1)

    def _dispatch(self, event: Any) -> None:
        if not isinstance(event, dict):
            return
        actor = event.get("Actor") or {}
        attributes = actor.get("Attributes") or {}
        for handler in self._handlers.get(str(event.get("Action") or event.get("status") or ""), ()):
            handler(str(actor.get("ID") or ""), attributes)


class ExecEnds:
    """The exit statuses the engine announced (``exec_die``), kept by exec id."""

    def __init__(self, events: EngineEvents) -> None:
        self._events = events
        self._exits: OrderedDict[str, int] = OrderedDict()
        events.on("exec_die", self._keep)

    def exit_code(self, exec_id: str, since: float) -> int | None:
        """The announced exit status of ``exec_id``, a command started (or given its run) at
        ``since`` (time.monotonic()); None if the stream cannot tell: then ask the engine."""
        deadline = time.monotonic() + WAIT_S
        changed = self._events.changed
        with changed:
            while True:
                connected = self._events.connected_since()
                if connected is None or connected > since:
                    return None  # not connected all along: its end may have gone unseen
                code = self._exits.pop(exec_id, None)
                if code is not None:
                    return code
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                changed.wait(left)

    def _keep(self, _container_id: str, attributes: dict[str, str]) -> None:
        exec_id, code = attributes.get("execID"), attributes.get("exitCode")
        if not isinstance(exec_id, str) or not isinstance(code, str) or not code.lstrip("-").isdigit():
            return
        changed = self._events.changed
        with changed:
            self._exits[exec_id] = int(code)
            while len(self._exits) > EXITS:
                self._exits.popitem(last=False)
            changed.notify_all()
