"""The runner's record of what the code attempted, streamed to the supervisor as it happens.

The runner (payload/runner.py) lives in the code's own process: whatever it knows, the code can
reach, so its record is **self-reported** and is stored saying so. What streaming adds is that the
record cannot be taken back: each line leaves the sandbox the moment it is written, before the
action it describes runs (PEP 578 hooks fire first), so a detached grandchild rewriting a summary
file, a crash of the runner or ``os._exit`` can stop the record but cannot erase what it already
said. A record that ends without the runner's closing line is stored as incomplete.

The channel is a Unix socket the supervisor makes in the run's own host folder (mounted read-only
at /sandbox). It accepts exactly one connection, the runner's, made before the code starts, and
stops listening at once. Reads are capped in bytes and per line; anything malformed is counted.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path
from typing import Any

SOCKET_NAME = "record.sock"
MAX_BYTES = 256 * 1024
MAX_LINE = 4096
FIRST = 5


class RecordFeed:
    def __init__(self, folder: Path) -> None:
        self.path = folder / SOCKET_NAME
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(self.path))
        self.path.chmod(0o666)  # the runner is uid 1000 inside; the folder above is read-only to it
        self._listener.listen(1)
        self._listener.settimeout(0.2)
        self._stop = threading.Event()
        self._events: dict[str, dict[str, Any]] = {}
        self._connected = False
        self._ended: dict[str, Any] | None = None
        self._malformed = 0
        self._received = 0
        self._overflow = False
        self._thread = threading.Thread(target=self._serve, name="mai-safety-record", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        connection = None
        while not self._stop.is_set() and connection is None:
            try:
                connection, _ = self._listener.accept()
            except (socket.timeout, BlockingIOError):
                continue
            except OSError:
                return
        self._listener.close()  # one connection, the runner's: nobody connects after it
        if connection is None:
            return
        self._connected = True
        connection.settimeout(0.1)
        pending = b""
        with connection:
            while not self._stop.is_set():
                try:
                    chunk = connection.recv(65536)
                except socket.timeout:
                    continue
                except OSError:
                    break
                if not chunk:
                    break
                self._received += len(chunk)
                if self._received > MAX_BYTES:
                    self._overflow = True
                    continue  # keep draining, so the writer never blocks on us; keep nothing more
                pending += chunk
                *lines, pending = pending.split(b"\n")
                if len(pending) > MAX_LINE:
                    self._malformed += 1
                    pending = b""
                for line in lines:
                    self._take(line)

    def _take(self, line: bytes) -> None:
        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise ValueError
        except ValueError:
            self._malformed += 1
            return
        if "end" in item:
            self._ended = {"status": item.get("status")}
            return
        category = item.get("category")
        if not isinstance(category, str) or len(category) > 40:
            self._malformed += 1
            return
        entry = self._events.setdefault(category, {"count": 0, "first": []})
        count = item.get("count")
        if isinstance(count, int) and count > entry["count"]:
            entry["count"] = count  # counts only grow: a later, smaller claim changes nothing
        detail = item.get("detail")
        if isinstance(detail, dict) and len(entry["first"]) < FIRST:
            entry["first"].append(detail)
            entry["count"] = max(entry["count"], len(entry["first"]))

    def close(self, grace_s: float = 0.05) -> dict[str, Any]:
        """Stop reading (after a moment for the last lines) and say what was recorded."""
        self._thread.join(grace_s)
        self._stop.set()
        self._thread.join(1.0)
        try:
            self._listener.close()
        except OSError:
            pass
        try:
            os.unlink(self.path)
        except OSError:
            pass
        record: dict[str, Any] = {"self_reported": True, "events": self._events}
        if not self._connected:
            record["complete"] = False
            record["problem"] = "the runner never reported (it was prevented from starting its record)"
        elif self._ended is None:
            record["complete"] = False
            record["problem"] = (
                "the record stops before the runner's closing line: the code ended the runner "
                "(os._exit, a signal, a crash) or cut its record; what came before stands"
            )
        else:
            record["complete"] = True
        if self._malformed:
            record["malformed_lines"] = self._malformed
        if self._overflow:
            record["truncated_at_bytes"] = MAX_BYTES
        return record
