"""The warm pool (decision 0015): containers made and started before any run asks, hardened the
same way, each given to exactly one run with that run's own limits applied when it is taken,
removed after it like any other, and replaced in the background by one thread.

A pool container's main process is its keeper (payload/keeper.py, uid 1001), connected to a socket
in the container's host folder: it ends the container at the deadline of the run it is given,
when the supervisor goes before it is given one, or by itself long after it could still serve.
"""

from __future__ import annotations

import math
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import PreparedRun
from mai_safety.domain.limits import HostBusy, HostRoom, ResourceLimits, cap_to_host
from mai_safety.domain.network import NetworkMode, NetworkRequest

from .admission import Admission, without
from .cgroups import CgroupReader
from .containers import (
    GVISOR_FILES,
    KEEPER_SOURCE,
    LABEL_MANAGED,
    LABEL_POOL,
    LABEL_SUPERVISOR,
    RUNNER_SOURCE,
    TAKEN_PREFIX,
    RunHandle,
    discard,
    hardened,
    keeper_seconds,
    ledger_labels,
    write_files,
)
from .errors import BestEffort, refused
from .files import ContainerRoot
from .primed import prime, prime_survey, prime_watch
from .record import RecordFeed
from .removal import Removals
from .runtimes import GVISOR_MEMORY, GVISOR_RUNTIME, gvisor_host_tasks

_KEEPER_SOCKET = "keeper.sock"


@dataclass(frozen=True)
class PoolSpec:
    """Containers kept waiting for one trust profile's runs (docs/decisions/0015): ``size`` of them,
    under the profile's ``runtime`` (runc, runsc or auto), created at ``limits`` (the profile's
    minimum: what simple code gets). ``max_timeout_s`` is the profile's longest wall clock."""

    name: str
    runtime: str
    limits: ResourceLimits
    size: int
    max_timeout_s: float
    image: str = ""  # a named image's tag (policy images:, issue #25); "" is the sandbox's default


@dataclass
class Pooled:
    """One waiting, started, never used container."""

    spec: PoolSpec
    slot: str
    handle: RunHandle
    runtime: dict[str, Any]
    created: float  # time.monotonic()


@dataclass(frozen=True)
class PoolHost:
    """What the pool needs of its sandbox: the engine, the image, who supervises, where run folders
    are made, the host's room (a method of the sandbox, so that a test can stipulate it), and the
    runtime a profile gets."""

    client: Callable[[], Any]
    image: str
    supervisor: str
    work_root: Path
    room_details: Callable[[], tuple[HostRoom, dict[str, int]]]
    choose_runtime: Callable[[str, NetworkRequest], dict[str, Any]]
    ledger: Callable[[], str | None] = lambda: None  # the ledger's identity, for the containers' labels
    #: Told what the filler's inspect of a container it started says (the admission's count keeps it).
    seen: Callable[[dict[str, Any]], None] = lambda attrs: None


class WarmPool:
    """Waiting containers per spec, the thread that keeps them, and their hand-over to runs."""

    def __init__(self, specs: tuple[PoolSpec, ...], max_idle_s: float, host: PoolHost, admission: Admission) -> None:
        self.specs = tuple(spec for spec in specs if spec.size > 0)
        self.max_idle_s = max_idle_s
        self._host = host
        self._admission = admission
        self._waiting: dict[str, list[Pooled]] = {spec.name: [] for spec in self.specs}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._binder = Removals(background=True, name="mai-safety-bind")  # renames of taken containers, in order
        self.thread: threading.Thread | None = None
        if self.specs:
            self.thread = threading.Thread(target=self._fill, name="mai-safety-pool", daemon=True)
            self.thread.start()

    def status(self) -> dict[str, Any]:
        """Per profile: how many containers the pool keeps, and how many wait now."""
        with self._lock:
            return {
                spec.name: {"size": spec.size, "waiting": len(self._waiting[spec.name]), "runtime": spec.runtime}
                for spec in self.specs
            }

    def wake(self) -> None:
        """A container left the pool or the host's room changed: the filler looks again."""
        self._wake.set()

    def prepare(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        floor: ResourceLimits,
        network: NetworkRequest,
        chosen: dict[str, Any],
        create: Callable[[ResourceLimits, dict[str, Any]], PreparedRun],
        image: str = "",
    ) -> PreparedRun:
        """Admit a run, on a waiting container where one serves it, else on one made for it
        (``create(fitted limits, host)``, under the admission lock: the next admission counts it)."""

        def attempt(arrived: float) -> PreparedRun:
            pooled, why_not = self._take_waiting(limits, chosen, network, image or self._host.image)
            try:
                fitted, host = self._fit(limits, floor, pooled)
                if pooled is not None and not self._serves(pooled, fitted):
                    why_not = "the pool's containers are made at the profile's minimum, which runsc cannot change"
                    self._put_back(pooled)
                    pooled = None
                    fitted, host = self._fit(limits, floor, None)
            except HostBusy:
                self._put_back(pooled)
                raise
            host = {**host, "waited_s": round(time.monotonic() - arrived, 3)}
            if pooled is not None:
                prepared = self._give(pooled, execution_id, code, fitted, host, chosen)
                if prepared is not None:
                    return prepared
                why_not = "the pooled container could not be given the run's limits"
            return create(fitted, {**host, "pooled": False, "pool_note": why_not})

        return self._admission.admit(attempt)

    def _take_waiting(
        self, limits: ResourceLimits, chosen: dict[str, Any], network: NetworkRequest, image: str
    ) -> tuple[Pooled | None, str]:
        """A waiting container that can serve this run, taken out of the pool, or None and why not."""
        if network.mode is not NetworkMode.NONE:
            return None, "only runs without network are pooled"
        with self._lock:
            for spec in self.specs:
                if spec.limits.tmpfs_bytes != limits.tmpfs_bytes or (spec.image or self._host.image) != image:
                    continue
                waiting = self._waiting[spec.name]
                for index, pooled in enumerate(waiting):
                    if pooled.runtime.get("engine_runtime", pooled.runtime["name"]) == chosen.get("engine_runtime", chosen["name"]):
                        return waiting.pop(index), ""
        self._wake.set()
        return None, "no pool container was waiting for this profile and runtime"

    def _put_back(self, pooled: Pooled | None) -> None:
        if pooled is None:
            return
        with self._lock:
            if not self._closing.is_set():
                self._waiting[pooled.spec.name].insert(0, pooled)
                return
        discard(pooled.handle)

    def _serves(self, pooled: Pooled, fitted: ResourceLimits) -> bool:
        """Whether the pooled container can give exactly the run's limits. Memory, CPUs and the
        host's pids limit change on a running container (below); under gVisor the code's own task
        limit is RLIMIT_NPROC, which the code's command can lower but not raise above the pool's."""
        return not pooled.handle.gvisor or fitted.pids <= pooled.spec.limits.pids

    def _fit(
        self, limits: ResourceLimits, floor: ResourceLimits, pooled: Pooled | None
    ) -> tuple[ResourceLimits, dict[str, Any]]:
        """cap_to_host, with the container taken from the pool counted as the run's own; if the
        host's room would refuse the run or make it smaller, this process's waiting pool containers
        give way first (the pool shrinks; the filler makes new ones only when there is room)."""
        policy = self._admission.host_policy
        room, held = self._host.room_details()
        if pooled is not None:
            room = without(room, held.get(pooled.handle.container.id, 0))
        refusal: HostBusy | None = None
        fitted: ResourceLimits | None = None
        host: dict[str, Any] = {}
        try:
            fitted, host = cap_to_host(limits, floor, room, policy)
            if not host["capped"]:
                return fitted, host
        except HostBusy as exc:
            refusal = exc
        shrunk = 0
        while True:
            with self._lock:
                waiting = [item for items in self._waiting.values() for item in items]
                other = waiting[-1] if waiting else None
                if other is not None:
                    self._waiting[other.spec.name].remove(other)
            if other is None:
                break
            discard(other.handle)
            shrunk += 1
            room = without(room, held.get(other.handle.container.id, 0))
            try:
                fitted, host = cap_to_host(limits, floor, room, policy)
            except HostBusy as exc:
                refusal = exc
                continue
            refusal = None
            if not host["capped"]:
                break
        if fitted is None:
            assert refusal is not None
            raise refusal
        if shrunk:
            host = {**host, "pool_shrunk": shrunk}
        return fitted, host

    def _give(
        self,
        pooled: Pooled,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        host: dict[str, Any],
        runtime: dict[str, Any],
    ) -> PreparedRun | None:
        """Give a waiting container to this run: bind it to the execution (its name), apply the run's
        limits (runc) and read back what the kernel now holds it to, deliver the code, start the
        keeper that ends it at the run's deadline. None when it cannot (it is then discarded)."""
        handle = pooled.handle
        keeper_s = keeper_seconds(limits)
        with BestEffort(OSError, ValueError, KeyError, AssertionError) as attempt:
            applied, how = apply_run_limits(self._host.client(), handle, limits)
            write_files(handle.workdir, {"main.py": code})
            assert handle.feed is not None  # made with the container (_make), before its runner was primed
            # The container's keeper (payload/keeper.py, uid 1001) now ends it at the run's deadline,
            # whether or not a supervisor still watches.
            assert handle.keeper is not None
            handle.keeper.sendall(f"{keeper_s:g}\n".encode())
        if attempt.failed:
            discard(handle)
            self._wake.set()
            return None
        # Its name binds it to the execution for a later recovery (containers.py); the engine's
        # rename (about 12 ms) runs beside the run, and discard waits for it (decision 0046).
        handle.binding = bind_in_background(self._binder, handle.container, f"{TAKEN_PREFIX}{execution_id}-until-{time.time() + keeper_s:.1f}")
        handle.cpu_rlimit = (math.ceil(limits.cpu_seconds) + 1, math.ceil(limits.cpu_seconds) + 2)
        handle.pooled = True
        if handle.gvisor:
            handle.nproc = limits.pids
        # The replacement is made once this run is discarded, not while it runs: on a small host the
        # engine's work of starting a container would slow the run it was meant to spare.
        pool = {
            "profile": pooled.spec.name,
            "waited_in_pool_s": round(time.monotonic() - pooled.created, 3),
            "made_at": pooled.spec.limits.to_dict(),
            # Read back from the container's cgroup after the limits were applied. Under runsc the
            # memory includes gVisor's own kernel and the pids its threads (decision 0013).
            "applied": {**applied, "by": how},
            # How the code's runner started: ahead, waiting in the container (primed.py), or by exec now.
            "runner": "started ahead" if handle.primed is not None else "exec at the take",
        }
        if handle.gvisor:  # and the keeper's watch and the survey after the code (primed.py)
            pool["watch"] = "started ahead" if handle.primed_watch is not None else "exec at the run"
            pool["survey"] = "started ahead" if handle.primed_survey is not None else "exec at the run"
        return PreparedRun(
            container_id=handle.container.id, image=pooled.spec.image or self._host.image, limits=limits,
            host={**host, "pooled": True, "pool": pool}, handle=handle, runtime=runtime,
        )

    # --- the filler ---------------------------------------------------------------------------

    def _make(self, spec: PoolSpec) -> Pooled | None:
        """One pool container, hardened as any sandbox, if the host has room for it (never
        overcommit: it counts as a running execution from its creation on, and always leaves room
        for one more run)."""
        try:
            runtime = self._host.choose_runtime(spec.runtime, NetworkRequest())
        except SandboxUnavailable:
            return None
        gvisor = runtime["name"] == GVISOR_RUNTIME
        slot = str(uuid.uuid4())
        labels = {LABEL_MANAGED: "1", LABEL_SUPERVISOR: self._host.supervisor, LABEL_POOL: slot, **ledger_labels(self._host.ledger())}
        life_s = math.ceil(self.max_idle_s + spec.max_timeout_s + 30)
        policy = self._admission.host_policy
        with self._admission.lock():
            room = self._host.room_details()[0]
            if room.running + 1 >= policy.max_concurrent:
                return None
            try:
                _, host = cap_to_host(spec.limits, spec.limits, room, policy)
            except HostBusy:
                return None
            if host["capped"]:
                return None
            workdir = Path(tempfile.mkdtemp(prefix=f"{slot}-", dir=self._host.work_root))
            handle = RunHandle(workdir=workdir, network=NetworkRequest(), gvisor=gvisor)
            listener: socket.socket | None = None
            try:
                with refused("Docker refused to create a pool container"):
                    write_files(workdir, {"runner.py": RUNNER_SOURCE, "keeper.py": KEEPER_SOURCE, **(GVISOR_FILES if gvisor else {})})
                    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    listener.bind(str(workdir / _KEEPER_SOCKET))
                    (workdir / _KEEPER_SOCKET).chmod(0o666)  # the keeper is uid 1001 inside
                    listener.listen(1)
                    workdir.chmod(0o755)
                    # Created under the lock (counted from now on by every admission), started outside it.
                    handle.container = self._host.client().containers.create(
                        spec.image or self._host.image,
                        command=["python3", "-I", "-S", "/sandbox/keeper.py", str(life_s)],
                        **hardened(
                            spec.limits, gvisor, runtime, labels, {str(workdir): {"bind": "/sandbox", "mode": "ro"}}, {},
                            cpu_rlimit=False,
                        ),
                        network_disabled=True,
                    )
            except SandboxUnavailable:
                if listener is not None:
                    listener.close()
                discard(handle)
                raise
        try:
            with refused("a pool container did not start"):
                handle.container.start()
                listener.settimeout(30)
                handle.keeper, _ = listener.accept()
                handle.container.reload()
                self._host.seen(handle.container.attrs)
                if not gvisor:
                    handle.root = ContainerRoot(int(handle.container.attrs["State"]["Pid"]))
            # Its runner too, waiting for a run: the exec and the interpreter's start leave the run's
            # path, and so does its connection to the record's socket, made for it here.
            handle.feed = RecordFeed(workdir)
            handle.primed = prime(self._host.client(), handle.container, workdir)
            if gvisor:
                handle.primed_watch = prime_watch(self._host.client(), handle.container)
                handle.primed_survey = prime_survey(self._host.client(), handle.container)
        except SandboxUnavailable:
            discard(handle)
            raise
        finally:
            listener.close()  # one connection, the keeper's: nothing in the container reaches it after
        return Pooled(spec=spec, slot=slot, handle=handle, runtime=runtime, created=time.monotonic())

    def _fill(self) -> None:
        """The pool's one thread: keeps each spec at its size while the host has room, replaces
        containers that waited longer than max_idle_s, backs off while Docker does not answer."""
        failures = 0
        while not self._closing.is_set():
            self._wake.clear()
            with BestEffort(SandboxUnavailable, OSError) as attempt:
                self._recycle_idle()
                for spec in self.specs:
                    self._fill_spec(spec)
            failures = failures + 1 if attempt.failed else 0
            self._wake.wait(min(2.0**failures, 30.0) if failures else 5.0)

    def _fill_spec(self, spec: PoolSpec) -> None:
        while not self._closing.is_set():
            with self._lock:
                if len(self._waiting[spec.name]) >= spec.size:
                    return
            pooled = self._make(spec)
            if pooled is None:
                return  # no room now: a run's end or a take wakes us
            with self._lock:
                if not self._closing.is_set():
                    self._waiting[spec.name].append(pooled)
                    pooled = None
            if pooled is not None:
                discard(pooled.handle)

    def _recycle_idle(self) -> None:
        now = time.monotonic()
        with self._lock:
            stale = [item for items in self._waiting.values() for item in items if now - item.created > self.max_idle_s]
            for item in stale:
                self._waiting[item.spec.name].remove(item)
        for item in stale:
            discard(item.handle)

    def close(self) -> None:
        """Stop the filler and remove every waiting container (MaiSafety.close())."""
        if not self.specs:
            return
        self._closing.set()
        self._wake.set()
        if self.thread is not None:
            self.thread.join(timeout=60)
        with self._lock:
            waiting = [item for items in self._waiting.values() for item in items]
            for items in self._waiting.values():
                items.clear()
        for item in waiting:
            discard(item.handle)


def bind_in_background(binder: Removals, container: Any, name: str) -> Future[None]:
    """Rename a taken pool container on the pool's binding thread (one for every take, in order: a
    thread started per take cost its run about a millisecond); the future is done once the rename
    was tried (``discard`` waits for it). Should the engine refuse, the run goes on unbound: its
    keeper still ends it at the deadline, and a sweep removes it by label."""
    done: Future[None] = Future()

    def rename() -> None:
        try:
            with BestEffort():
                container.rename(name)
        finally:
            done.set_result(None)

    binder.remove(rename)
    return done


def apply_run_limits(client: Any, handle: RunHandle, limits: ResourceLimits) -> tuple[dict[str, Any], str]:
    """The run's limits on the waiting container, and what the kernel holds it to after."""
    container = handle.container
    cgroup = handle.cgroup = CgroupReader(int(container.attrs["State"]["Pid"]))  # the supervisor reads it too
    if handle.gvisor:
        # runsc has no `update` (the engine's update fails in it): the supervisor writes the
        # container's host cgroup itself, which holds gVisor's sandbox and gofer, as runc would.
        wanted = (limits.memory_bytes + GVISOR_MEMORY, round(limits.cpus, 3), gvisor_host_tasks(limits.pids))
        cgroup.set_limits(wanted[0], limits.cpus, wanted[2])
        how = "the container's host cgroup, written by the supervisor (runsc has no update)"
    else:
        wanted = (limits.memory_bytes, round(limits.cpus, 3), limits.pids + 2)
        try:
            # What `docker update` has runc do, without the engine's round trip (about 10–30 ms of
            # a pooled run); where the cgroup tree is read-only to us (the composed service), the engine.
            cgroup.set_limits(wanted[0], limits.cpus, wanted[2])
            how = "the container's host cgroup, written by the supervisor"
        except OSError:
            _update(client, container, limits, pids_limit=wanted[2])
            how = "docker update"
    applied = cgroup.limits()
    if (applied["memory_bytes"], applied["cpus"], applied["pids_max"]) != wanted:
        raise OSError(f"the kernel holds the container to {applied}, not the run's limits")
    return applied, how


def _update(client: Any, container: Any, limits: ResourceLimits, *, pids_limit: int) -> None:
    """``docker update`` of memory (with swap equal to it), the CPU quota and the pids limit.
    docker-py's update knows neither NanoCpus nor PidsLimit: the engine's API does."""
    api = client.api
    response = api._post_json(
        api._url("/containers/{0}/update", container.id),
        data={
            "Memory": limits.memory_bytes, "MemorySwap": limits.memory_bytes,
            "NanoCpus": int(limits.cpus * 1e9), "PidsLimit": pids_limit,
        },
    )
    api._raise_for_status(response)
