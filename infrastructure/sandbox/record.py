"""The runner's record of what the code attempted, streamed to the supervisor as it happens.

The runner (payload/runner.py) lives in the code's own process: whatever it knows, the code can
reach, so its record is **self-reported** and is stored saying so. What streaming adds is that the
record cannot be taken back: each line leaves the sandbox the moment it is written, before the
action it describes runs (PEP 578 hooks fire first), so a detached grandchild rewriting a summary
file, a crash of the runner or ``os._exit`` can stop the record but cannot erase what it already
said. The record is stored as complete only when the runner's seal arrives (decision 0033): a
SHA-256 keyed by a per-run key (sent to the runner as the first line on the channel, before the
code starts) over every line that came before it and the exit status; and only when no ``reach``
line (the code taking a frame, the collector, a tracer, native code or its own memory) came, and
nothing came after the seal. Anything else is stored ``complete: false`` with the reason.

The channel is a Unix socket the supervisor makes in the run's own host folder (mounted read-only
at /sandbox). It accepts exactly one connection, the runner's, made before the code starts, and
stops listening at once. Reads are capped in bytes and per line; anything malformed is counted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
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
        self._malformed = 0
        self._received = 0
        self._overflow = False
        self._key = secrets.token_hex(32).encode()
        self._sent = hashlib.sha256()  # every line before the seal, as the runner hashes what it sends
        self._seal: str | None = None  # None: no seal; "good"; or what was wrong with it
        self._after_seal = 0
        self._reached: list[Any] = []
        self._reach_count = 0
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
        try:
            connection.sendall(self._key + b"\n")  # the run's key, before the code starts: the runner keeps it from the code
        except OSError:
            pass
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
        if self._seal is not None:
            self._after_seal += 1  # a process of the code that outlived the program, or a forger
        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise ValueError
        except ValueError:
            self._sent.update(line + b"\n")
            self._malformed += 1
            return
        if "seal" in item and self._seal is None:
            self._check_seal(item)
            return
        self._sent.update(line + b"\n")
        if "reach" in item:
            self._reach_count += 1
            if len(self._reached) < FIRST:
                self._reached.append(item["reach"])
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

    def _check_seal(self, item: dict[str, Any]) -> None:
        status = item.get("status")
        if not isinstance(status, int) or isinstance(status, bool) or not isinstance(item["seal"], str):
            self._seal = "the runner's seal is malformed"
            return
        expected = hashlib.sha256(self._key + self._sent.digest() + str(status).encode()).hexdigest()
        if hmac.compare_digest(expected, item["seal"]):
            self._seal = "good"
        else:
            self._seal = "the runner's seal does not match the lines that arrived: lines were added to or cut from the record"

    def renewed(self) -> RecordFeed:
        """A fresh socket in the same folder, this one closed: for a runner started after one that
        connected ahead (a pool's primed runner, gone before its run) took this socket's one connection."""
        self.close(grace_s=0)
        return RecordFeed(self.path.parent)

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
        if self._reached:
            record["reached"] = {"count": self._reach_count, "first": self._reached}
        problem = self._problem()
        record["complete"] = problem is None
        if problem is not None:
            record["problem"] = problem
        if self._malformed:
            record["malformed_lines"] = self._malformed
        if self._overflow:
            record["truncated_at_bytes"] = MAX_BYTES
        return record

    def _problem(self) -> str | None:
        """Why the record cannot be called complete, or None: sealed, matching, and nothing reached for the recorder."""
        if not self._connected:
            return "the runner never reported (it was prevented from starting its record)"
        if self._seal is None:
            return (
                "the record stops before the runner's sealed closing line: the code ended the runner "
                "(os._exit, a signal, a crash, an atexit handler) or cut its record; what came before stands"
            )
        if self._seal != "good":
            return self._seal
        if self._reach_count:
            first = self._reached[0] if self._reached else {}
            return (
                "the code reached for what can silence the recorder (frames, the collector, a tracer, native "
                f"code, its own memory; first {first.get('event')!s} at {first.get('by')!s}): what it did after may be missing"
            )
        if self._after_seal:
            return f"{self._after_seal} line(s) arrived after the runner's seal: a process of the code outlived the program"
        if self._overflow:
            return f"the record was cut at {MAX_BYTES} bytes"
        return None
