"""What comes out of a run's streams and reports, read under caps: the code's stdout and stderr,
the lines of the keeper's watch under gVisor, pip's install report, and the egress proxy's log.

Everything here was written by the code or by a process it could reach: each reader keeps at most
a cap, parses strictly, and drops what does not parse.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from typing import Any

from docker.utils.socket import STDERR, frames_iter

from mai_safety.application.ports import OutputListener
from mai_safety.domain.network import NetworkRequest

from .errors import BestEffort
from .files import ContainerRoot

DEPS_TARGET = "/workspace/.deps"
SUMMARY_MOUNT = "/run/mai-safety"
PIP_OUTPUT = 1024 * 1024
PIP_REPORT_CAP = 4 * 1024 * 1024
EGRESS_MARK = "MAI-EGRESS "


class OutputCapture:
    """Keeps stdout and stderr up to a shared byte cap and counts the rest.

    ``stop`` is set when the stream ends or the cap is first passed; past the cap the stream is
    drained and dropped until the container is gone (the engine cannot act on a kill while its
    writes to us block).
    """

    def __init__(self, cap: int, listener: OutputListener | None = None) -> None:
        self.cap = cap
        self.listener = listener  # hears what is kept, as it comes (the service's live output)
        self.total = 0
        self.overflowed = False
        self.stop = threading.Event()
        self._kept = {"stdout": bytearray(), "stderr": bytearray()}

    def consume(self, attached: Any) -> None:
        # ValueError: the supervisor closed it. The stream ends when the container dies; the
        # outcome comes from its state.
        with BestEffort(OSError, ValueError):
            try:
                for stream_id, chunk in frames_iter(attached, tty=False):
                    if chunk:
                        self._take("stderr" if stream_id == STDERR else "stdout", chunk)
            finally:
                self.stop.set()
                close_attached(attached)

    def _take(self, name: str, chunk: bytes) -> None:
        room = self.cap - self.total
        self.total += len(chunk)
        if room > 0:
            self._kept[name] += chunk[:room]
            if self.listener is not None:
                try:
                    self.listener(name, chunk[:room])
                except Exception:  # noqa: BLE001 - a listener never stops the capture
                    pass
        if self.total > self.cap and not self.overflowed:
            self.overflowed = True
            self.stop.set()

    def text(self, name: str) -> str:
        return self._kept[name].decode("utf-8", errors="replace")


class WatchLines:
    """The latest line of the keeper's watch (payload/watch.py): the code's tasks and the writable
    mounts' use. Lines are parsed strictly (five integers); anything else is ignored."""

    def __init__(self) -> None:
        self.tasks = 0
        self.disk_used = 0
        self.disk_full = False
        self.lines = 0

    def consume(self, attached: Any) -> None:
        pending = b""
        with BestEffort(OSError, ValueError):  # the stream ends with the container
            try:
                for stream_id, chunk in frames_iter(attached, tty=False):
                    if stream_id == STDERR or not chunk:
                        continue
                    pending += chunk
                    *lines, pending = pending.split(b"\n")
                    if len(pending) > 4096:
                        pending = b""
                    for line in lines:
                        self._take(line)
            finally:
                close_attached(attached)

    def _take(self, line: bytes) -> None:
        try:
            tasks, *disk = (int(value) for value in line.split())
        except ValueError:
            return
        if len(disk) != 4:
            return
        mounts = list(zip(disk[0::2], disk[1::2]))
        self.disk_used = sum(used for used, _ in mounts)
        self.disk_full = any(size > 0 and size - used < 64 * 1024 for used, size in mounts)
        self.tasks = tasks
        self.lines += 1


def close_attached(attached: Any) -> None:
    """Close the hijacked connection for good: the HTTP layer keeps extra references to its socket,
    so closing the file object alone would leave the descriptor open."""
    raw = getattr(attached, "_sock", None)
    try:
        attached.close()
    except OSError:
        pass
    if isinstance(raw, socket.socket) and raw.fileno() >= 0:
        try:
            raw.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        os.close(raw.detach())


# --- pip, for --network deps --------------------------------------------------------------------


def pip_command(network: NetworkRequest, proxy_url: str) -> list[str]:
    """pip inside the sandbox, through the proxy, wheels only (no build scripts run at install)."""
    command = [
        "python3", "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--no-cache-dir",
        "--progress-bar", "off", "--only-binary=:all:", "--target", DEPS_TARGET,
        "--report", f"{SUMMARY_MOUNT}/pip-report.json", "--proxy", proxy_url,
    ]
    if network.index_urls:
        command += ["--index-url", network.index_urls[0]]
        for extra in network.index_urls[1:]:
            command += ["--extra-index-url", extra]
    for url in network.index_urls:
        if url.startswith("http://"):
            # The user's own configuration names a plain-HTTP index; pip wants that said twice.
            command += ["--trusted-host", url.split("/")[2]]
    return command + list(network.requirements)


def dependencies_record(
    root: ContainerRoot | None, network: NetworkRequest, exit_code: int | None, capture: OutputCapture
) -> dict[str, Any]:
    """What pip installed, from its own report: names, versions and the archives' hashes."""
    installed: list[dict[str, Any]] = []
    try:
        if root is None:
            raise OSError("the container's root is not held")
        report = json.loads(root.read_file(SUMMARY_MOUNT, "pip-report.json", PIP_REPORT_CAP))
        for item in report.get("install", []):
            metadata = item.get("metadata", {})
            archive = item.get("download_info", {})
            hashes = archive.get("archive_info", {}).get("hashes", {})
            installed.append(
                {
                    "name": metadata.get("name"),
                    "version": metadata.get("version"),
                    "sha256": hashes.get("sha256"),
                    "url": archive.get("url"),
                }
            )
    except (OSError, ValueError):
        pass
    return {
        "requested": list(network.requirements),
        "index_urls": list(network.index_urls),
        "installed": installed,
        "exit_code": exit_code,
        "pip_output": (capture.text("stdout") + capture.text("stderr"))[-2000:],
    }


# --- the egress proxy's log ---------------------------------------------------------------------


def egress_requests(log: str) -> list[dict[str, Any]]:
    """Every request the proxy printed (payload/egress_addon.py), one JSON object per marked line."""
    seen: list[dict[str, Any]] = []
    for line in log.splitlines():
        if line.startswith(EGRESS_MARK):
            try:
                seen.append(json.loads(line[len(EGRESS_MARK):]))
            except ValueError:
                continue
    return seen
