"""Witnesses: every signed checkpoint is also written somewhere the ledger's storage is not.

Someone who can write the ledger can cut off its tail together with the checkpoints that sign it,
or put back an older copy of the whole file: what remains is consistent in itself. A checkpoint
kept elsewhere shows it. So each checkpoint, once committed, goes to the witnesses named in
``policies/ledger.yaml`` (docs/decisions/0011):

* ``file``: a JSON-lines file in a folder of its own (by default
  ``$XDG_STATE_HOME/mai-safety/witness/checkpoints.jsonl``, not the ledger's folder), opened with
  O_APPEND, mode 0600 in a 0700 folder. It can be read back: ``audit verify`` checks the ledger
  against the newest checkpoint it holds.
* ``http``: a POST of the same JSON object to a URL (standard library, with a timeout); a 2xx
  answer means witnessed. Write-only from here.
* ``syslog``: one line per checkpoint to the local syslog (write-only; the daemon forwards it).

Writing never blocks nor fails the run that sealed: one background thread per process writes the
newest checkpoint to each witness (a newer one makes older ones redundant: each checkpoint names
the one before, signature included). A witness that fails is tried again with the next
checkpoint and when the process closes; the failure is printed once on stderr and kept in a small
status file beside the default witness, which ``audit verify`` reports.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
import syslog
import threading
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mai_safety.ledger.application.ports import WitnessedCheckpoint, Witnesses
from mai_safety.ledger.domain.checkpoint import Checkpoint
from mai_safety.infrastructure.private_files import make_folders

ENTRY_FORMAT = "mai-safety/witnessed-checkpoint/v1"
#: How many entries (from the end) are read to find a ledger's newest witnessed checkpoint: writers
#: of several processes may append a little out of order.
_NEWEST_AMONG = 64
_CHUNK = 1 << 16


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class Witness(ABC):
    name: str
    readable = False

    @abstractmethod
    def write(self, entry: dict[str, Any]) -> None:
        """Raise OSError (or ValueError) when the entry was not witnessed."""

    def newest_entries(self) -> Iterator[dict[str, Any]]:
        """Entries from the newest back (readable witnesses only)."""
        return iter(())


def _private_folder(folder: Path) -> None:
    make_folders(folder)  # each missing folder 0700, whatever the umask


class FileWitness(Witness):
    readable = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = f"file {path}"

    def write(self, entry: dict[str, Any]) -> None:
        line = (json.dumps(entry, separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8")
        _private_folder(self.path.parent)
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            written = os.write(descriptor, line)  # one write: appended whole, never interleaved
            if written != len(line):
                raise OSError(f"only {written} of {len(line)} bytes were appended")
        finally:
            os.close(descriptor)

    def newest_entries(self) -> Iterator[dict[str, Any]]:
        try:
            handle = self.path.open("rb")
        except FileNotFoundError:
            return
        with handle:
            for line in _lines_backwards(handle):
                try:
                    entry = json.loads(line)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    yield {"unreadable": line[:80].decode("utf-8", "replace")}
                    continue
                yield entry if isinstance(entry, dict) else {"unreadable": str(entry)[:80]}


def _lines_backwards(handle: Any) -> Iterator[bytes]:
    """The file's non-empty lines, last first, read in chunks from the end."""
    handle.seek(0, os.SEEK_END)
    position = handle.tell()
    rest = b""
    while position > 0:
        size = min(_CHUNK, position)
        position -= size
        handle.seek(position)
        rest = handle.read(size) + rest
        lines = rest.split(b"\n")
        rest = lines[0]
        for line in reversed(lines[1:]):
            if line.strip():
                yield line
    if rest.strip():
        yield rest


class HttpWitness(Witness):
    def __init__(self, url: str, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
        self.name = f"http {url}"

    def write(self, entry: dict[str, Any]) -> None:
        body = json.dumps(entry, separators=(",", ":"), sort_keys=True).encode("utf-8")
        request = urllib.request.Request(  # noqa: S310 - the URL's scheme is http(s), checked by the policy
            self.url, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310
                if not 200 <= answer.status < 300:
                    raise OSError(f"answered {answer.status}")
        except urllib.error.HTTPError as exc:
            raise OSError(f"answered {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise OSError(str(exc.reason)) from None


class SyslogWitness(Witness):
    FACILITIES = {
        "user": syslog.LOG_USER,
        "daemon": syslog.LOG_DAEMON,
        "auth": syslog.LOG_AUTH,
        "authpriv": getattr(syslog, "LOG_AUTHPRIV", syslog.LOG_AUTH),
        **{f"local{number}": getattr(syslog, f"LOG_LOCAL{number}") for number in range(8)},
    }

    def __init__(self, facility: str, ident: str) -> None:
        self.facility = self.FACILITIES[facility]
        self.ident = ident
        self.name = f"syslog {facility}"

    def write(self, entry: dict[str, Any]) -> None:
        syslog.openlog(self.ident, syslog.LOG_PID, self.facility)
        syslog.syslog(syslog.LOG_NOTICE, "checkpoint " + json.dumps(entry, separators=(",", ":"), sort_keys=True))


class WitnessStatus:
    """Which witnesses failed, per ledger: a small JSON file that writers update when a witness
    starts or stops failing, and ``audit verify`` reads. Advisory: the last writer wins."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()

    def _read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def record(self, ledger_id: str, witness: str, error: str | None, sequence: int) -> None:
        if self.path is None:
            return
        key = f"{ledger_id} {witness}"
        with self._lock:
            data = self._read()
            if error is None:
                if data.pop(key, None) is None:
                    return
            else:
                data[key] = {"error": error, "since": data.get(key, {}).get("since", _now()), "checkpoint": sequence}
            temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}")
            try:
                _private_folder(self.path.parent)
                descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
                with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                    json.dump(data, handle, indent=1, sort_keys=True)
                temporary.replace(self.path)
            except OSError:
                temporary.unlink(missing_ok=True)

    def failures(self, ledger_id: str) -> dict[str, dict[str, Any]]:
        prefix = f"{ledger_id} "
        return {key[len(prefix):]: value for key, value in self._read().items() if key.startswith(prefix) and isinstance(value, dict)}


class WitnessSet(Witnesses):
    """The witnesses of one process's ledger, written from a background thread."""

    def __init__(self, witnesses: Sequence[Witness], status: WitnessStatus | None = None, close_timeout: float = 5.0) -> None:
        self._witnesses = list(witnesses)
        self.names = tuple(witness.name for witness in self._witnesses)
        self._status = status or WitnessStatus(None)
        self._close_timeout = close_timeout
        self._ledger_id: Callable[[], str | None] = lambda: None
        self._known_id: str | None = None
        self._location = "ledger"
        self._cond = threading.Condition()
        self._pending: Checkpoint | None = None
        self._newest: Checkpoint | None = None
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._done: dict[str, int] = {}
        self._failed: dict[str, str] = {}
        self._warned: set[str] = set()
        self._read_errors: list[str] = []

    @property
    def witnesses(self) -> list[Witness]:
        return list(self._witnesses)

    def attach(self, ledger_id: Callable[[], str | None], location: str) -> None:
        self._ledger_id = ledger_id
        self._location = location

    def readable(self) -> bool:
        return any(witness.readable for witness in self._witnesses)

    # --- writing -------------------------------------------------------------------------------

    def publish(self, checkpoint: Checkpoint) -> None:
        if not self._witnesses:
            return
        with self._cond:
            if self._newest is None or checkpoint.sequence > self._newest.sequence:
                self._newest = checkpoint
            if self._pending is None or checkpoint.sequence > self._pending.sequence:
                self._pending = checkpoint
            if self._thread is None and not self._stopping:
                self._thread = threading.Thread(target=self._run, name="mai-safety-witness", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._stopping:
                    self._cond.wait()
                if self._pending is None:
                    return
                checkpoint, self._pending = self._pending, None
                self._busy = True
            try:
                self._write_all(checkpoint)
            except Exception as exc:  # noqa: BLE001 - the thread must live on; the run goes on regardless
                self._warn("witnesses", f"{type(exc).__name__}: {exc}")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _identity(self) -> str | None:
        if self._known_id is None:
            self._known_id = self._ledger_id()
        return self._known_id

    def _write_all(self, checkpoint: Checkpoint) -> None:
        ledger_id = self._identity()
        if ledger_id is None:
            return
        entry = {
            "format": ENTRY_FORMAT,
            "ledger": ledger_id,
            "where": self._location,
            "witnessed_at": _now(),
            "checkpoint": checkpoint.to_dict(),
        }
        for witness in self._witnesses:
            if self._done.get(witness.name, 0) >= checkpoint.sequence:
                continue
            try:
                witness.write(entry)
            except (OSError, ValueError) as exc:
                error = str(exc) or type(exc).__name__
                self._failed[witness.name] = error
                self._status.record(ledger_id, witness.name, error, checkpoint.sequence)
                self._warn(witness.name, error)
                continue
            self._done[witness.name] = checkpoint.sequence
            if self._failed.pop(witness.name, None) is not None:
                self._status.record(ledger_id, witness.name, None, checkpoint.sequence)

    def _warn(self, name: str, error: str) -> None:
        if name in self._warned:
            return
        self._warned.add(name)
        print(
            f"mai-safety: the ledger witness {name} could not be written ({error}): it is tried again with the next "
            "checkpoint; `mai-safety audit verify` reports it until then",
            file=sys.stderr,
        )

    def flush(self, timeout: float | None = None) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def close(self) -> None:
        with self._cond:
            newest = self._newest
            # A witness that failed gets one more try before the process stops.
            if newest is not None and any(self._done.get(w.name, 0) < newest.sequence for w in self._witnesses):
                if self._pending is None and self._thread is not None:
                    self._pending = newest
                    self._cond.notify_all()
        self.flush(self._close_timeout)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(0.5)

    # --- reading -------------------------------------------------------------------------------

    def recorded(self, ledger_id: str) -> list[WitnessedCheckpoint]:
        """The newest checkpoints each readable witness holds for this ledger (up to a few dozen
        of the last entries for it, since writers may append a little out of order)."""
        found: list[WitnessedCheckpoint] = []
        self._read_errors = []
        for witness in self._witnesses:
            if not witness.readable:
                continue
            matched = 0
            try:
                for entry in witness.newest_entries():
                    if "unreadable" in entry:
                        self._read_errors.append(f"{witness.name}: a line is not a witnessed checkpoint: {entry['unreadable']!r}")
                        continue
                    if entry.get("ledger") != ledger_id:
                        continue
                    try:
                        checkpoint = Checkpoint.from_dict(entry["checkpoint"])
                    except (KeyError, TypeError, ValueError) as exc:
                        self._read_errors.append(f"{witness.name}: an entry for this ledger is malformed ({exc})")
                        continue
                    found.append(WitnessedCheckpoint(witness.name, checkpoint))
                    matched += 1
                    if matched >= _NEWEST_AMONG:
                        break
            except OSError as exc:
                self._read_errors.append(f"{witness.name}: cannot be read ({exc.strerror or exc})")
        return found

    def other_ledgers_at(self, location: str, ledger_id: str) -> list[str]:
        """Ledger ids a readable witness recorded at this location other than ``ledger_id``."""
        others: set[str] = set()
        for witness in self._witnesses:
            if not witness.readable:
                continue
            with contextlib.suppress(OSError):
                for number, entry in enumerate(witness.newest_entries()):
                    if number >= 4 * _NEWEST_AMONG:
                        break
                    if entry.get("where") == location and entry.get("ledger") not in (None, ledger_id):
                        others.add(str(entry["ledger"]))
        return sorted(others)

    def failures(self, ledger_id: str) -> list[str]:
        failures = [f"{name}: {error}" for name, error in self._failed.items()]
        for name, status in self._status.failures(ledger_id).items():
            if name not in self._failed:
                failures.append(
                    f"{name}: failing since {status.get('since')} ({status.get('error')}; checkpoint #{status.get('checkpoint')} "
                    "was not witnessed)"
                )
        return [*failures, *self._read_errors]
