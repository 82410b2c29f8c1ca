"""Admission: never overcommit the host.

A run is admitted under one lock shared by every process on this host (a file lock), against the
room the host has left once every managed container is counted (``RoomCount``); its limits are
capped to that room, or it waits in a bounded queue (``host.queue``) for up to ``queue_wait_s``,
then is refused with HostBusy. The container is created under the lock, so that the next
admission counts it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import docker.errors
import docker.utils
import psutil

from mai_safety.domain.limits import HostBusy, HostPolicy, HostRoom

from .cgroups import CgroupReader
from .containers import LABEL_MANAGED, LABEL_SUPERVISOR
from .engine_reads import get_json
from .errors import DOCKER_ERRORS, engine_answers

Admitted = TypeVar("Admitted")
#: How long a run waiting for room sleeps between two tries.
RETRY_S = 0.25


class Admission:
    """The host's queue and its admission lock."""

    def __init__(self, host_policy: HostPolicy, lock_path: Path) -> None:
        self.host_policy = host_policy
        self.lock_path = lock_path
        self._waiting = 0
        self._waiting_lock = threading.Lock()

    def admit(self, attempt: Callable[[float], Admitted]) -> Admitted:
        """Call ``attempt(arrived)`` under the admission lock until it returns, waiting between
        tries while it raises HostBusy, for at most the queue's wait; then the refusal stands.
        ``arrived``: when the run came (time.monotonic()), so that it can say how long it waited."""
        with self._queue_place():
            arrived = time.monotonic()
            deadline = arrived + self.host_policy.queue_wait_s
            while True:
                with self.lock():
                    try:
                        return attempt(arrived)
                    except HostBusy:
                        if time.monotonic() >= deadline:
                            raise
                time.sleep(RETRY_S)

    @contextmanager
    def _queue_place(self) -> Iterator[None]:
        with self._waiting_lock:
            if self._waiting >= self.host_policy.queue + self.host_policy.max_concurrent:
                raise HostBusy(
                    f"{self._waiting} executions already wait for room here (host.queue = {self.host_policy.queue}): "
                    "try again later"
                )
            self._waiting += 1
        try:
            yield
        finally:
            with self._waiting_lock:
                self._waiting -= 1

    @contextmanager
    def lock(self) -> Iterator[None]:
        """One admission at a time across every process on this host."""
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        # Owner-only, as everything kept in the data folder (infrastructure/private_files.py).
        descriptor = os.open(self.lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        with os.fdopen(descriptor, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


class RoomCount:
    """The host's room, and what each managed container holds of it (by id). A waiting pool
    container counts as a running one; so does one made and not yet started (the pool starts
    its containers outside the admission lock).

    One sparse list of the managed containers per admission (no inspect of each, which cost most of
    a pooled run's admission: decision 0046). What an inspect tells and does not change while a
    container runs (its main process, hence its cgroup, and the engine's memory limit) is kept here
    per container and state; its use and its limit now are read from its cgroup on every count, as
    before. A container this process has not seen yet (another supervisor's) is inspected once."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, int, CgroupReader | None]] = {}
        self._lock = threading.Lock()

    def __call__(self, client: Any) -> tuple[HostRoom, dict[str, int]]:
        with engine_answers():
            filters = {"label": f"{LABEL_MANAGED}=1", "status": ["created", "running"]}
            listed = get_json(
                client, "/containers/json", {"all": "1", "filters": docker.utils.convert_filters(filters)},
                otherwise=lambda: client.api.containers(all=True, filters=filters),
            )
            with self._lock:
                known = {item["Id"]: self._entry(client, item["Id"], str(item.get("State", ""))) for item in listed}
                self._known = {key: value for key, value in known.items() if value is not None}
        held: dict[str, int] = {}
        for container_id, entry in known.items():
            if entry is None:
                continue  # removed between the list and its inspect: it holds nothing now
            limit, used = _held(entry[1], entry[2])
            held[container_id] = max(limit - used, 0)
        room = HostRoom(
            available_memory_bytes=psutil.virtual_memory().available,
            reserved_memory_bytes=sum(held.values()),
            cpu_count=psutil.cpu_count() or 1,
            running=len(held),
        )
        return room, held

    def follow(self, events: Any, worker: Any, client: Callable[[], Any], mine: str) -> None:
        """Inspect each managed container of another supervisor (``mine``: this process's label)
        the engine announces started, a pool refilled after its run say, on ``worker``'s thread
        (removal.Removals): the next admission finds it known instead of inspecting it on a run's
        path (engine_events.py). One not learned in time is inspected by the admission as before."""

        def started(container_id: str, attributes: dict[str, str]) -> None:
            if (
                attributes.get(LABEL_MANAGED) == "1" and attributes.get(LABEL_SUPERVISOR) != mine
                and container_id and container_id not in self._known
            ):
                worker.remove(lambda: self._learn_by_inspect(client, container_id))

        events.on("start", started)

    def _learn_by_inspect(self, client: Callable[[], Any], container_id: str) -> None:
        with contextlib.suppress(*DOCKER_ERRORS, OSError):
            self.learn(client().api.inspect_container(container_id))

    def known(self) -> set[str]:
        """The ids of the containers whose inspect is kept."""
        with self._lock:
            return set(self._known)

    def learn(self, attrs: dict[str, Any]) -> None:
        """What this process's own inspect of a container it just started says, so that the next
        count need not ask the engine again (the pool's filler reads it to find the keeper's cgroup)."""
        with contextlib.suppress(KeyError, TypeError, ValueError, OSError):
            entry = _entry_of(attrs)
            with self._lock:
                self._known[str(attrs["Id"])] = (str(attrs["State"]["Status"]), *entry)

    def _entry(self, client: Any, container_id: str, state: str) -> tuple[str, int, CgroupReader | None] | None:
        entry = self._known.get(container_id)
        if entry is not None and entry[0] == state:
            return entry
        try:
            attrs = client.api.inspect_container(container_id)
        except docker.errors.NotFound:
            return None
        return (state, *_entry_of(attrs))


def _entry_of(attrs: dict[str, Any]) -> tuple[int, CgroupReader | None]:
    """The engine's memory limit of an inspected container, and the reader of its cgroup (its main
    process's) if it has one."""
    limit = int(attrs.get("HostConfig", {}).get("Memory") or 0)
    reader: CgroupReader | None = None
    with contextlib.suppress(OSError, ValueError, KeyError):
        pid = int(attrs["State"]["Pid"])
        reader = CgroupReader(pid) if pid > 0 else None
    return limit, reader


def _held(engine_limit: int, reader: CgroupReader | None) -> tuple[int, int]:
    """A container's memory limit and use. The limit is the cgroup's own where it can be read: a
    pool container taken under runsc was given its run's limit there, not through the engine."""
    if reader is None:
        return engine_limit, 0
    try:
        limit, used = reader.memory()
    except (OSError, ValueError):
        return engine_limit, 0
    return limit or engine_limit, used


def without(room: HostRoom, held: int) -> HostRoom:
    """The room with one managed container (and what it holds) taken out of the count."""
    return replace(
        room, reserved_memory_bytes=max(room.reserved_memory_bytes - held, 0), running=max(room.running - 1, 0)
    )
