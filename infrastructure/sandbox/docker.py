"""The Docker sandbox: one hardened, labelled, throw-away container per execution, watched live.

Every container: all capabilities dropped, no-new-privileges, user 1000:1000, read-only root
filesystem with size-limited tmpfs for /tmp, /workspace and the runner's summary, networking
disabled at create time, memory with swap equal to it, a pids limit, a CPU quota, an init that
reaps orphans. The container starts idle; the code runs in it through ``exec`` under our runner
(sandbox_runner.py), so that after the code ends the container still stands and the supervisor can
read, from outside, which files the run left and what the runner recorded, before removing it.

While the code runs, the supervisor reads the container's cgroup files every sampling interval,
hands each reading to the observer, and kills the container the moment a limit is crossed: memory
(the kernel's OOM kill), CPU time, wall time, pids (a refused fork), output size, disk (a full
tmpfs). Each container is labelled with the supervising process so that a later start can remove
what a dead supervisor left. Docker errors become SandboxUnavailable; no room on the host, HostBusy.

Under gVisor (the ``runsc`` runtime, decision 0013) the same container runs on gVisor's own kernel.
Memory and CPU are still read from the container's host cgroup (which now holds gVisor's sandbox
and gofer processes, so it counts what the host really pays); what only gVisor's kernel knows —
the code's task count and its tmpfs mounts — comes from a small watch run by exec as the keeper's
uid, and the files left are surveyed by exec as the code's uid once every process of the code has
been ended (sandbox_watch.py, sandbox_survey.py). The code's processes are held by RLIMIT_NPROC
inside gVisor's kernel; the host's pids limit holds gVisor's own threads.

A long-lived process may keep a warm pool (decision 0015): containers made and started before any
run asks, hardened the same way, each given to exactly one run with that run's own limits applied
when it is taken, removed after it like any other, and replaced in the background.
"""

from __future__ import annotations

import fcntl
import importlib.util
import math
import json
import os
import re
import shutil
import socket
import stat
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator

import docker
import docker.errors
import psutil
from docker.utils.socket import STDERR, frames_iter

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import Observer, OutputListener, PreparedRun, RunOutcome, Sandbox
from mai_safety.domain.limits import HostBusy, HostPolicy, HostRoom, ResourceLimits, cap_to_host
from mai_safety.domain.network import NetworkMode, NetworkRequest
from mai_safety.domain.supervision import Peaks, Usage, Violation, find_violation

from . import payload
from .cgroups import CgroupReader
from .errors import DOCKER_ERRORS as _DOCKER_ERRORS
from .errors import does_not_answer, engine_answers
from .errors import short as _short
from .files import ContainerRoot, Survey
from .record import RecordFeed

LABEL_MANAGED = "mai-safety.managed"
LABEL_EXECUTION = "mai-safety.execution"
LABEL_SUPERVISOR = "mai-safety.supervisor"
LABEL_ROLE = "mai-safety.role"
LABEL_DEADLINE = "mai-safety.deadline"
# A pool container waiting for a run carries this label (its slot) and no execution label. When a run
# takes it, labels cannot change, so it is renamed mai-safety-run-<execution>-until-<deadline>: the
# name binds it to the execution for recovery, as the labels bind a container made for one run.
LABEL_POOL = "mai-safety.pool"
_TAKEN_PREFIX = "mai-safety-run-"
_TAKEN_NAME = re.compile(r"^/?mai-safety-run-([0-9a-f-]{36})-until-([0-9]+(?:\.[0-9]+)?)$")
# The keeper ends the container by itself this long after the run's wall-clock limit, whether or
# not a supervisor still watches (decision 0012): the supervisor kills at the limit itself.
_DEADLINE_GRACE_S = 1.5
_WRITABLE = ("/workspace", "/tmp")
_SUMMARY_MOUNT = "/run/mai-safety"
# The container's init and its idle process run as their own uid, so the code (1000) can signal
# neither: a SIGTERM to init would otherwise end the container and the record with it.
_KEEPER_USER = "1001:1001"
_CODE_USER = "1000:1000"
_PIP_REPORT_CAP = 4 * 1024 * 1024
_RUNNER_SOURCE = payload.source("runner.py")
_KEEPER_SOURCE = payload.source("keeper.py")
_KEEPER_SOCKET = "keeper.sock"
# What a run under gVisor gets beside the runner: read once, written into each run's folder.
_GVISOR_FILES = {
    "watch.py": payload.source("watch.py"),
    "survey.py": payload.source("survey.py"),
    "container_files.py": Path(__file__).with_name("files.py").read_text(encoding="utf-8"),
}
GVISOR_RUNTIME = "runsc"
_GVISOR_HINT = "MAI_SAFETY_INSTALL_GVISOR=1 bash scripts/setup.sh registers it"
# gVisor's own kernel (its sandbox and gofer processes, about 15-25 MiB measured idle) is charged to
# the container's memory cgroup: it gets this much on top of the code's limit.
_GVISOR_MEMORY = 32 * 1024 * 1024
# The host's pids limit under gVisor holds gVisor's threads, not the code's (about 57 idle and ten
# more per process of the code, measured); the code's own count is RLIMIT_NPROC inside.
_GVISOR_HOST_TASKS = (128, 12)
_SURVEY_CAP = 1024 * 1024
_STATUS_TTL_S = 30.0
_PROXY_PORT = 8080
_EGRESS_MARK = "MAI-EGRESS "
_ADDON = payload.EGRESS_ADDON
_DEPS_TARGET = "/workspace/.deps"
_PIP_OUTPUT = 1024 * 1024
_NO_HOST_ADDRESS = "com.docker.network.bridge.inhibit_ipv4"
_NO_IPV6 = {"net.ipv6.conf.all.disable_ipv6": "1", "net.ipv6.conf.default.disable_ipv6": "1"}


def _pip_package() -> Path:
    """This environment's pip, mounted read-only for deps mode. Found only when deps mode asks: the
    service image carries no pip (deps mode is refused there; decision 0017)."""
    spec = importlib.util.find_spec("pip")
    if spec is None or not spec.origin:
        raise SandboxUnavailable("--network deps mounts this environment's pip into the sandbox, and it has none: install pip")
    return Path(spec.origin).parent


def private_work_root(base: Path | None = None) -> Path:
    """Where each run's folder (its code, the runner, the record socket) is made: a folder of this
    user's alone (0700), so that other users of the host cannot read the code. ``base`` is
    MAI_SAFETY_WORK_DIR (default: the temporary folder); inside a container it must be a folder
    mounted at the same path on the host, since the engine bind-mounts each run's folder from there."""
    if base is not None:
        Path(base).mkdir(parents=True, exist_ok=True)
    root = Path(base or tempfile.gettempdir()) / f"mai-safety-{os.getuid()}"
    # A run's record socket is ROOT/<execution id>-<8 characters>/record.sock, and a Unix socket's
    # path holds at most 107 bytes.
    if len(os.fsencode(root)) + 1 + 36 + 1 + 8 + 1 + len("record.sock") > 107:
        raise SandboxUnavailable(f"{root} is too long for a run's record socket (Unix socket paths are short): choose a shorter MAI_SAFETY_WORK_DIR")
    try:
        root.mkdir(mode=0o700)
    except FileExistsError:
        pass
    status = root.lstat()
    if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid():
        raise SandboxUnavailable(f"{root} is not a folder of this user's: remove it, then try again")
    if status.st_mode & 0o077:
        root.chmod(0o700)
    return root


def supervisor_label() -> str:
    """host/pid/start-time of this process: enough to tell later whether it still lives."""
    me = psutil.Process()
    return f"{socket.gethostname()}/{me.pid}/{me.create_time():.3f}"


def supervisor_gone(label: str) -> bool:
    try:
        host, pid, started = label.split("/")
        if host != socket.gethostname():
            return False  # another host's supervisor: not ours to judge
        process = psutil.Process(int(pid))
        return abs(process.create_time() - float(started)) >= 0.01
    except psutil.NoSuchProcess:
        return True
    except (ValueError, psutil.Error):
        return True


def gvisor_status(client: Any = None) -> dict[str, Any]:
    """Whether gVisor can serve runs on this Docker engine: registered as the runtime ``runsc``, with
    gVisor's networking off (else a container with no network does not start) and host sockets
    open to it (else the runner's record cannot reach the supervisor). ``available`` says whether
    runs may use it; ``reason`` and ``how`` say why not and what to do."""
    own = client is None
    try:
        if own:
            client = docker.from_env(timeout=10)
        runtimes = client.info().get("Runtimes") or {}
    except _DOCKER_ERRORS as exc:
        return {"available": False, "reason": does_not_answer(exc)}
    finally:
        if own and client is not None:
            client.close()
    entry = runtimes.get(GVISOR_RUNTIME)
    if entry is None:
        return {
            "available": False,
            "reason": f"the Docker engine has no {GVISOR_RUNTIME} runtime (runtimes: {', '.join(sorted(runtimes))})",
            "how": _GVISOR_HINT,
        }
    arguments = [str(argument) for argument in entry.get("runtimeArgs") or []]
    status: dict[str, Any] = {
        "available": True,
        "runtime": GVISOR_RUNTIME,
        "path": entry.get("path"),
        "arguments": arguments,
        "record_socket": any(argument in ("--host-uds=open", "--host-uds=all") for argument in arguments),
    }
    if "--network=none" not in arguments:
        status["available"] = False
        status["reason"] = (
            f"{GVISOR_RUNTIME} is registered without --network=none: its containers would not start "
            "(gVisor's networking needs a network namespace a run without network does not have)"
        )
        status["how"] = _GVISOR_HINT
    return status


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


@dataclass
class _Pooled:
    """One waiting, started, never used container."""

    spec: PoolSpec
    slot: str
    handle: "_Handle"
    runtime: dict[str, Any]
    created: float  # time.monotonic()


class DockerSandbox(Sandbox):
    def __init__(
        self,
        image: str,
        host_policy: HostPolicy,
        *,
        proxy_image: str = "mai-safety/egress-proxy:3",
        upstream_network: str = "bridge",
        sample_interval_s: float = 0.25,
        lock_path: Path | None = None,
        work_root: Path | None = None,
        work_dir: Path | None = None,
        in_container: bool = False,
        pool: tuple[PoolSpec, ...] = (),
        pool_max_idle_s: float = 300.0,
    ) -> None:
        self.image = image
        self.proxy_image = proxy_image
        self.upstream_network = upstream_network
        self.host_policy = host_policy
        self.sample_interval_s = sample_interval_s
        self._lock_path = lock_path or Path(tempfile.gettempdir()) / "mai-safety-admission.lock"
        # Whether this process runs in a container beside the engine (the service image sets
        # MAI_SAFETY_IN_CONTAINER=1): its files are then not the host's, and the engine resolves every
        # bind mount on the host. Not guessed from /.dockerenv: an engine may itself run in a container.
        self.in_container = bool(in_container)
        # Inside a container a run's folder must sit where the host sees it at the same path: only
        # MAI_SAFETY_WORK_DIR says where that is (decision 0017); without it, every run is refused.
        self._host_visible = work_root is not None or work_dir is not None or not self.in_container
        self._work_root = work_root or private_work_root(work_dir)
        self._client: docker.DockerClient | None = None
        self._label = supervisor_label()
        self._waiting = 0
        self._waiting_lock = threading.Lock()
        self._gvisor: tuple[float, dict[str, Any]] | None = None
        # The warm pool (docs/decisions/0015): waiting containers per spec, refilled by one thread.
        self._pool_specs = tuple(spec for spec in pool if spec.size > 0)
        self._pool_max_idle_s = pool_max_idle_s
        self._pool: dict[str, list[_Pooled]] = {spec.name: [] for spec in self._pool_specs}
        self._pool_lock = threading.Lock()
        self._pool_wake = threading.Event()
        self._pool_closing = threading.Event()
        self._pool_thread: threading.Thread | None = None
        if self._pool_specs:
            self._pool_thread = threading.Thread(target=self._fill_pool, name="mai-safety-pool", daemon=True)
            self._pool_thread.start()

    # --- engine ---------------------------------------------------------------------------

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            with engine_answers():
                self._client = docker.from_env(timeout=60)
        return self._client

    def check_available(self) -> None:
        with engine_answers():
            try:
                self.client.ping()
                self.client.images.get(self.image)
            except docker.errors.ImageNotFound:
                raise SandboxUnavailable(
                    f"sandbox image {self.image} is not built: run `bash scripts/build-images.sh`"
                ) from None

    @property
    def supervisor_id(self) -> str:
        return self._label

    # --- runtimes: runc, or gVisor's runsc --------------------------------------------------

    def gvisor(self) -> dict[str, Any]:
        """gvisor_status() of this engine, asked at most every half minute."""
        now = time.monotonic()
        if self._gvisor is None or now - self._gvisor[0] > _STATUS_TTL_S:
            self._gvisor = (now, gvisor_status(self.client))
        return self._gvisor[1]

    def describe_runtimes(self) -> dict[str, Any]:
        return {GVISOR_RUNTIME: self.gvisor()}

    def choose_runtime(self, requested: str, network: NetworkRequest) -> dict[str, Any]:
        """The runtime a run gets for the profile's ``requested`` one (runc | runsc | auto), and the
        note that says why when ``auto`` gives runc. ``runsc`` never falls back: it is refused."""
        if not self._host_visible:
            raise SandboxUnavailable(
                "mai-safety runs inside a container but MAI_SAFETY_WORK_DIR is not set: set it to a folder "
                "mounted at the same path on the host and in this container (docs/decisions/0017)"
            )
        if network.mode is NetworkMode.DEPS and self.in_container:
            raise SandboxUnavailable(
                "--network deps is not available when mai-safety runs inside a container: the egress proxy "
                "mounts its addon and this environment's pip from files the host does not have, and this "
                "container cannot reach the proxy's network (docs/decisions/0017); run without network"
            )
        if requested == "runc":
            return {"name": "runc", "requested": requested}
        if requested not in ("runsc", "auto"):
            raise SandboxUnavailable(f"unknown runtime {requested!r}: the policy names runc, runsc or auto")
        if network.mode is NetworkMode.DEPS:
            if requested == "runsc":
                raise SandboxUnavailable("--network deps cannot run under runsc, whose networking is off (decision 0013)")
            return {
                "name": "runc", "requested": requested,
                "note": "--network deps needs Docker's networking, which gVisor runs with off here: ran under runc",
            }
        status = self.gvisor()
        if status.get("available"):
            return {"name": GVISOR_RUNTIME, "requested": requested, "memory_overhead_bytes": _GVISOR_MEMORY}
        if requested == "runsc":
            raise SandboxUnavailable(
                f"the policy runs this code under gVisor (runtime: runsc), but {status.get('reason')}: "
                f"{status.get('how', 'see docs/decisions/0013')}, or set the profile's runtime to auto"
            )
        return {"name": "runc", "requested": requested, "note": f"gVisor unavailable, ran under runc: {status.get('reason')}"}

    def is_orphaned(self, supervisor_id: str) -> bool:
        return supervisor_gone(supervisor_id)

    # --- admission: never overcommit the host -----------------------------------------------

    def prepare(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        floor: ResourceLimits,
        network: NetworkRequest = NetworkRequest(),
        runtime: str = "runc",
    ) -> PreparedRun:
        chosen = self.choose_runtime(runtime, network)
        if not self._pool_specs:
            return self._prepare_cold(execution_id, code, limits, floor, network, chosen)
        with self._queue_place():
            arrived = time.monotonic()
            deadline = arrived + self.host_policy.queue_wait_s
            while True:
                with self._admission_lock():
                    pooled, why_not = self._take_waiting(limits, chosen, network)
                    try:
                        fitted, host = self._fit(limits, floor, pooled)
                        if pooled is not None and not self._serves(pooled, fitted):
                            why_not = "the pool's containers are made at the profile's minimum, which runsc cannot change"
                            self._put_back(pooled)
                            pooled = None
                            fitted, host = self._fit(limits, floor, None)
                    except HostBusy:
                        self._put_back(pooled)
                        if time.monotonic() >= deadline:
                            raise
                    else:
                        host = {**host, "waited_s": round(time.monotonic() - arrived, 3)}
                        if pooled is not None:
                            prepared = self._take(pooled, execution_id, code, fitted, host, chosen)
                            if prepared is not None:
                                return prepared
                            why_not = "the pooled container could not be given the run's limits"
                        host = {**host, "pooled": False, "pool_note": why_not}
                        # Created under the lock: the next admission counts this container.
                        return self._create(execution_id, code, fitted, host, network, chosen)
                time.sleep(0.25)

    def _prepare_cold(
        self, execution_id: str, code: str, limits: ResourceLimits, floor: ResourceLimits,
        network: NetworkRequest, chosen: dict[str, Any],
    ) -> PreparedRun:
        """Without a pool: a container made for this run alone (the path before the pool, unchanged)."""
        with self._queue_place():
            arrived = time.monotonic()
            deadline = arrived + self.host_policy.queue_wait_s
            while True:
                with self._admission_lock():
                    try:
                        fitted, host = cap_to_host(limits, floor, self._room(), self.host_policy)
                    except HostBusy:
                        if time.monotonic() >= deadline:
                            raise
                    else:
                        host = {**host, "waited_s": round(time.monotonic() - arrived, 3)}
                        # Created under the lock: the next admission counts this container.
                        return self._create(execution_id, code, fitted, host, network, chosen)
                time.sleep(0.25)

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
    def _admission_lock(self) -> Iterator[None]:
        """One admission at a time across every process on this host."""
        self._lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self._lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _room(self) -> HostRoom:
        return self._room_details()[0]

    def _room_details(self) -> tuple[HostRoom, dict[str, int]]:
        """The host's room, and what each managed container holds of it (by id). A waiting pool
        container counts as a running one; so does one made and not yet started (the pool starts
        its containers outside the admission lock)."""
        with engine_answers():
            running = self.client.containers.list(
                all=True, filters={"label": f"{LABEL_MANAGED}=1", "status": ["created", "running"]},
                sparse=False, ignore_removed=True,
            )
        held: dict[str, int] = {}
        for container in running:
            limit, used = _memory_held(container)
            held[container.id] = max(limit - used, 0)
        room = HostRoom(
            available_memory_bytes=psutil.virtual_memory().available,
            reserved_memory_bytes=sum(held.values()),
            cpu_count=psutil.cpu_count() or 1,
            running=len(running),
        )
        return room, held

    # --- one run --------------------------------------------------------------------------

    def _create(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        host: dict[str, Any],
        network: NetworkRequest,
        runtime: dict[str, Any],
    ) -> PreparedRun:
        workdir = Path(tempfile.mkdtemp(prefix=f"{execution_id}-", dir=self._work_root))
        gvisor = runtime["name"] == GVISOR_RUNTIME
        handle = _Handle(workdir=workdir, network=network, gvisor=gvisor)
        files = {"main.py": code, "runner.py": _RUNNER_SOURCE, **(_GVISOR_FILES if gvisor else {})}
        try:
            for name, text in files.items():
                path = workdir / name
                path.write_text(text, encoding="utf-8")
                path.chmod(0o444)
            workdir.chmod(0o755)
            handle.feed = RecordFeed(workdir)
            keeper_s = math.ceil((limits.timeout_s + _DEADLINE_GRACE_S) * 10) / 10
            labels = {
                LABEL_MANAGED: "1", LABEL_EXECUTION: execution_id, LABEL_SUPERVISOR: self._label,
                LABEL_DEADLINE: f"{time.time() + keeper_s:.1f}",
            }
            network_options: dict[str, Any] = {"network_disabled": True}
            environment: dict[str, str] = {}
            volumes = {str(workdir): {"bind": "/sandbox", "mode": "ro"}}
            if network.mode is NetworkMode.DEPS:
                proxy_address = self._start_egress(handle, execution_id, labels)
                proxy_url = handle.proxy_url = f"http://{proxy_address}:{_PROXY_PORT}"
                # The sandbox's only way out is the proxy; it resolves no names itself.
                network_options = {"network": handle.network_name, "dns": ["127.0.0.1"], "sysctls": _NO_IPV6}
                environment = {name: proxy_url for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}
                environment["MAI_SAFETY_PROXY"] = proxy_url
                volumes[str(_pip_package())] = {"bind": "/opt/pip/pip", "mode": "ro"}
            container = self.client.containers.create(
                self.image,
                # The keeper: when it ends, the init ends and every process of the run with it.
                command=["sleep", f"{keeper_s:g}"],
                **self._hardened(limits, gvisor, runtime, labels, volumes, environment, cpu_rlimit=True),
                **network_options,
            )
            handle.container = container
            container.start()
            container.reload()
            if not gvisor:
                # Held from now on: a recycled pid can never turn this into the host's root. (Under
                # gVisor that root is gVisor's own, not the container's: the survey runs inside.)
                handle.root = ContainerRoot(int(container.attrs["State"]["Pid"]))
            if handle.proxy is not None:
                # The proxy boots (about a second of imports) while the sandbox is made; wait only now.
                _wait_for_port(handle.proxy_outside, _PROXY_PORT, handle.proxy, timeout_s=30)
        except docker.errors.ImageNotFound as exc:
            self._discard_handle(handle)
            raise SandboxUnavailable(f"an image is not built ({_short(exc)}): run `bash scripts/build-images.sh`") from None
        except (OSError, *_DOCKER_ERRORS) as exc:
            self._discard_handle(handle)
            raise SandboxUnavailable(f"Docker refused to create the sandbox ({_short(exc)})") from None
        return PreparedRun(
            container_id=container.id, image=self.image, limits=limits, host=host, handle=handle, runtime=runtime
        )

    def _hardened(
        self,
        limits: ResourceLimits,
        gvisor: bool,
        runtime: dict[str, Any],
        labels: dict[str, str],
        volumes: dict[str, Any],
        environment: dict[str, str],
        cpu_rlimit: bool,
    ) -> dict[str, Any]:
        """What every sandbox container is created with, made for one run or for the pool.
        ``cpu_rlimit``: RLIMIT_CPU on every process of the container (a pool container instead gets
        the run's own, set by the command that starts the code: the run is not known yet)."""
        tmpfs_options = f"rw,nosuid,nodev,size={limits.tmpfs_bytes}"
        # CPU time per process as well, held by the kernel even with no supervisor.
        ulimits = []
        if cpu_rlimit:
            ulimits.append(docker.types.Ulimit(name="cpu", soft=math.ceil(limits.cpu_seconds) + 1, hard=math.ceil(limits.cpu_seconds) + 2))
        memory = limits.memory_bytes
        pids_limit = limits.pids + 2  # the init and the idle process are ours, not the code's
        if gvisor:
            memory += _GVISOR_MEMORY
            pids_limit = _GVISOR_HOST_TASKS[0] + _GVISOR_HOST_TASKS[1] * limits.pids
            # The code's tasks, counted per uid by gVisor's kernel: the code alone is uid 1000.
            ulimits.append(docker.types.Ulimit(name="nproc", soft=limits.pids, hard=limits.pids))
        return dict(
            init=True,
            user=_KEEPER_USER,
            working_dir="/workspace",
            cap_drop=["ALL"],
            security_opt=["no-new-privileges:true"],
            read_only=True,
            tmpfs={
                "/tmp": f"{tmpfs_options},noexec,mode=1777",
                "/workspace": f"{tmpfs_options},uid=1000,gid=1000,mode=0700",
                _SUMMARY_MOUNT: "rw,nosuid,nodev,noexec,size=1m,uid=1000,gid=1000,mode=0700",
            },
            mem_limit=memory,
            memswap_limit=memory,
            pids_limit=pids_limit,
            nano_cpus=int(limits.cpus * 1e9),
            ulimits=ulimits,
            runtime=runtime["name"],
            ipc_mode="none",
            environment=environment,
            volumes=volumes,
            labels=labels,
            log_config={"type": "none"},
            detach=True,
        )

    def _start_egress(self, handle: "_Handle", execution_id: str, labels: dict[str, str]) -> str:
        """An internal network with no route out, and the proxy as the sandbox's one way out of it.
        Returns the proxy's address on the internal network, once it accepts connections."""
        network = handle.network
        handle.network_name = f"mai-safety-egress-{execution_id[:12]}-{os.urandom(3).hex()}"
        # The bridge gets no address of the host's: the sandbox can then reach the proxy beside it and
        # nothing of the host, whose services answer on every address it has (decision 0006).
        internal = self.client.networks.create(
            handle.network_name, driver="bridge", internal=True, labels=labels, options={_NO_HOST_ADDRESS: "true"}
        )
        handle.internal = internal
        _check_no_host_address(internal)
        proxy = self.client.containers.create(
            self.proxy_image,
            command=[
                "python3", "-c", "import sys; from mitmproxy.tools.main import mitmdump; sys.exit(mitmdump())",
                "-q", "--listen-host", "0.0.0.0", "-p", str(_PROXY_PORT),
                "--set", "connection_strategy=lazy", "--set", "confdir=/opt/egress-conf",
                "-s", "/addon/egress_addon.py",
            ],
            user="65534:65534",
            cap_drop=["ALL"],
            security_opt=["no-new-privileges:true"],
            read_only=True,
            tmpfs={"/tmp": "rw,nosuid,nodev,noexec,size=32m,mode=1777"},
            mem_limit=256 * 1024 * 1024,
            memswap_limit=256 * 1024 * 1024,
            pids_limit=64,
            nano_cpus=int(1e9),
            environment={
                "MAI_EGRESS_ALLOW": ",".join(network.allow),
                "MAI_EGRESS_HTTP_PORTS": ",".join(str(port) for port in network.http_ports),
                "MAI_EGRESS_HTTPS_PORTS": ",".join(str(port) for port in network.https_ports),
                "MAI_EGRESS_MAX_BYTES": str(network.max_bytes),
                "MAI_EGRESS_MAX_REQUESTS": str(network.max_requests),
            },
            volumes={str(_ADDON): {"bind": "/addon/egress_addon.py", "mode": "ro"}},
            network=self.upstream_network,
            labels={**labels, LABEL_ROLE: "egress-proxy"},
            log_config={"type": "json-file", "config": {"max-size": "10m"}},
            detach=True,
        )
        handle.proxy = proxy
        internal.connect(proxy)
        proxy.start()
        proxy.reload()
        networks = proxy.attrs["NetworkSettings"]["Networks"]
        inside = networks[handle.network_name]["IPAddress"]
        handle.proxy_outside = networks.get(self.upstream_network, {}).get("IPAddress") or inside
        return inside

    # --- the warm pool: pre-started, hardened, one-use containers (docs/decisions/0015) ---------

    def pool_status(self) -> dict[str, Any]:
        """Per profile: how many containers the pool keeps, and how many wait now."""
        with self._pool_lock:
            return {
                spec.name: {"size": spec.size, "waiting": len(self._pool[spec.name]), "runtime": spec.runtime}
                for spec in self._pool_specs
            }

    def _take_waiting(
        self, limits: ResourceLimits, chosen: dict[str, Any], network: NetworkRequest
    ) -> tuple[_Pooled | None, str]:
        """A waiting container that can serve this run, taken out of the pool, or None and why not."""
        if network.mode is not NetworkMode.NONE:
            return None, "only runs without network are pooled"
        with self._pool_lock:
            for spec in self._pool_specs:
                if spec.limits.tmpfs_bytes != limits.tmpfs_bytes:
                    continue
                waiting = self._pool[spec.name]
                for index, pooled in enumerate(waiting):
                    if pooled.runtime["name"] == chosen["name"]:
                        return waiting.pop(index), ""
        self._pool_wake.set()
        return None, "no pool container was waiting for this profile and runtime"

    def _put_back(self, pooled: _Pooled | None) -> None:
        if pooled is None:
            return
        with self._pool_lock:
            if not self._pool_closing.is_set():
                self._pool[pooled.spec.name].insert(0, pooled)
                return
        self._discard_handle(pooled.handle)

    def _serves(self, pooled: _Pooled, fitted: ResourceLimits) -> bool:
        """Whether the pooled container can give exactly the run's limits. Memory, CPUs and the
        host's pids limit change on a running container (below); under gVisor the code's own task
        limit is RLIMIT_NPROC, which the code's command can lower but not raise above the pool's."""
        return not pooled.handle.gvisor or fitted.pids <= pooled.spec.limits.pids

    def _fit(
        self, limits: ResourceLimits, floor: ResourceLimits, pooled: _Pooled | None
    ) -> tuple[ResourceLimits, dict[str, Any]]:
        """cap_to_host, with the container taken from the pool counted as the run's own; if the
        host's room would refuse the run or make it smaller, this process's waiting pool containers
        give way first (the pool shrinks; the filler makes new ones only when there is room)."""
        room, held = self._room_details()
        if pooled is not None:
            room = _without(room, held.get(pooled.handle.container.id, 0))
        refusal: HostBusy | None = None
        try:
            fitted, host = cap_to_host(limits, floor, room, self.host_policy)
            if not host["capped"]:
                return fitted, host
        except HostBusy as exc:
            refusal, fitted, host = exc, None, {}
        shrunk = 0
        while True:
            with self._pool_lock:
                waiting = [item for items in self._pool.values() for item in items]
                other = waiting[-1] if waiting else None
                if other is not None:
                    self._pool[other.spec.name].remove(other)
            if other is None:
                break
            self._discard_handle(other.handle)
            shrunk += 1
            room = _without(room, held.get(other.handle.container.id, 0))
            try:
                fitted, host = cap_to_host(limits, floor, room, self.host_policy)
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

    def _take(
        self,
        pooled: _Pooled,
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
        container = handle.container
        keeper_s = math.ceil((limits.timeout_s + _DEADLINE_GRACE_S) * 10) / 10
        try:
            container.rename(f"{_TAKEN_PREFIX}{execution_id}-until-{time.time() + keeper_s:.1f}")
            cgroup = CgroupReader(int(container.attrs["State"]["Pid"]))
            if handle.gvisor:
                # runsc has no `update` (the engine's update fails in it): the supervisor writes the
                # container's host cgroup itself, which holds gVisor's sandbox and gofer, as runc would.
                wanted = (limits.memory_bytes + _GVISOR_MEMORY, round(limits.cpus, 3),
                          _GVISOR_HOST_TASKS[0] + _GVISOR_HOST_TASKS[1] * limits.pids)
                cgroup.set_limits(wanted[0], limits.cpus, wanted[2])
                how = "the container's host cgroup, written by the supervisor (runsc has no update)"
            else:
                wanted = (limits.memory_bytes, round(limits.cpus, 3), limits.pids + 2)
                self._update_limits(container, limits, pids_limit=wanted[2])
                how = "docker update"
            applied = cgroup.limits()
            if (applied["memory_bytes"], applied["cpus"], applied["pids_max"]) != wanted:
                raise OSError(f"the kernel holds the container to {applied}, not the run's limits")
            path = handle.workdir / "main.py"
            path.write_text(code, encoding="utf-8")
            path.chmod(0o444)
            handle.feed = RecordFeed(handle.workdir)
            # The container's keeper (sandbox_keeper.py, uid 1001) now ends it at the run's deadline,
            # whether or not a supervisor still watches.
            assert handle.keeper is not None
            handle.keeper.sendall(f"{keeper_s:g}\n".encode())
        except (OSError, ValueError, KeyError, AssertionError, *_DOCKER_ERRORS):
            self._discard_handle(handle)
            self._pool_wake.set()
            return None
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
        }
        return PreparedRun(
            container_id=container.id, image=self.image, limits=limits,
            host={**host, "pooled": True, "pool": pool}, handle=handle, runtime=runtime,
        )

    def _update_limits(self, container: Any, limits: ResourceLimits, *, pids_limit: int) -> None:
        """``docker update`` of memory (with swap equal to it), the CPU quota and the pids limit.
        docker-py's update knows neither NanoCpus nor PidsLimit: the engine's API does."""
        api = self.client.api
        response = api._post_json(
            api._url("/containers/{0}/update", container.id),
            data={
                "Memory": limits.memory_bytes, "MemorySwap": limits.memory_bytes,
                "NanoCpus": int(limits.cpus * 1e9), "PidsLimit": pids_limit,
            },
        )
        api._raise_for_status(response)

    def _make_pooled(self, spec: PoolSpec) -> _Pooled | None:
        """One pool container, hardened as any sandbox, if the host has room for it (never
        overcommit: it counts as a running execution from its creation on, and always leaves room
        for one more run). Its keeper (sandbox_keeper.py) ends it at the deadline of the run it is
        given, when the supervisor goes before it is given one, or by itself long after it could
        still serve."""
        try:
            runtime = self.choose_runtime(spec.runtime, NetworkRequest())
        except SandboxUnavailable:
            return None
        gvisor = runtime["name"] == GVISOR_RUNTIME
        slot = str(uuid.uuid4())
        labels = {LABEL_MANAGED: "1", LABEL_SUPERVISOR: self._label, LABEL_POOL: slot}
        life_s = math.ceil(self._pool_max_idle_s + spec.max_timeout_s + 30)
        with self._admission_lock():
            room = self._room()
            if room.running + 1 >= self.host_policy.max_concurrent:
                return None
            try:
                _, host = cap_to_host(spec.limits, spec.limits, room, self.host_policy)
            except HostBusy:
                return None
            if host["capped"]:
                return None
            workdir = Path(tempfile.mkdtemp(prefix=f"{slot}-", dir=self._work_root))
            handle = _Handle(workdir=workdir, network=NetworkRequest(), gvisor=gvisor)
            listener: socket.socket | None = None
            try:
                files = {"runner.py": _RUNNER_SOURCE, "keeper.py": _KEEPER_SOURCE, **(_GVISOR_FILES if gvisor else {})}
                for name, text in files.items():
                    path = workdir / name
                    path.write_text(text, encoding="utf-8")
                    path.chmod(0o444)
                listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                listener.bind(str(workdir / _KEEPER_SOCKET))
                (workdir / _KEEPER_SOCKET).chmod(0o666)  # the keeper is uid 1001 inside
                listener.listen(1)
                workdir.chmod(0o755)
                # Created under the lock (counted from now on by every admission), started outside it.
                handle.container = self.client.containers.create(
                    self.image,
                    command=["python3", "-I", "-S", "/sandbox/keeper.py", str(life_s)],
                    **self._hardened(
                        spec.limits, gvisor, runtime, labels, {str(workdir): {"bind": "/sandbox", "mode": "ro"}}, {},
                        cpu_rlimit=False,
                    ),
                    network_disabled=True,
                )
            except (OSError, *_DOCKER_ERRORS) as exc:
                if listener is not None:
                    listener.close()
                self._discard_handle(handle)
                raise SandboxUnavailable(f"Docker refused to create a pool container ({_short(exc)})") from None
        try:
            handle.container.start()
            listener.settimeout(30)
            handle.keeper, _ = listener.accept()
            handle.container.reload()
            if not gvisor:
                handle.root = ContainerRoot(int(handle.container.attrs["State"]["Pid"]))
        except (OSError, *_DOCKER_ERRORS) as exc:
            self._discard_handle(handle)
            raise SandboxUnavailable(f"a pool container did not start ({_short(exc)})") from None
        finally:
            listener.close()  # one connection, the keeper's: nothing in the container reaches it after
        return _Pooled(spec=spec, slot=slot, handle=handle, runtime=runtime, created=time.monotonic())

    def _fill_pool(self) -> None:
        """The pool's one thread: keeps each spec at its size while the host has room, replaces
        containers that waited longer than max_idle_s, backs off while Docker does not answer."""
        failures = 0
        while not self._pool_closing.is_set():
            self._pool_wake.clear()
            try:
                self._recycle_idle()
                for spec in self._pool_specs:
                    while not self._pool_closing.is_set():
                        with self._pool_lock:
                            if len(self._pool[spec.name]) >= spec.size:
                                break
                        pooled = self._make_pooled(spec)
                        if pooled is None:
                            break  # no room now: a run's end or a take wakes us
                        with self._pool_lock:
                            if not self._pool_closing.is_set():
                                self._pool[spec.name].append(pooled)
                                pooled = None
                        if pooled is not None:
                            self._discard_handle(pooled.handle)
                failures = 0
            except (SandboxUnavailable, OSError, *_DOCKER_ERRORS):
                failures += 1
            self._pool_wake.wait(min(2.0**failures, 30.0) if failures else 5.0)

    def _recycle_idle(self) -> None:
        now = time.monotonic()
        with self._pool_lock:
            stale = [item for items in self._pool.values() for item in items if now - item.created > self._pool_max_idle_s]
            for item in stale:
                self._pool[item.spec.name].remove(item)
        for item in stale:
            self._discard_handle(item.handle)

    def _close_pool(self) -> None:
        """Stop the filler and remove every waiting container (MaiSafety.close())."""
        if not self._pool_specs:
            return
        self._pool_closing.set()
        self._pool_wake.set()
        if self._pool_thread is not None:
            self._pool_thread.join(timeout=60)
        with self._pool_lock:
            waiting = [item for items in self._pool.values() for item in items]
            for items in self._pool.values():
                items.clear()
        for item in waiting:
            self._discard_handle(item.handle)

    def run(self, prepared: PreparedRun, observer: Observer, output: OutputListener | None = None) -> RunOutcome:
        handle: _Handle = prepared.handle
        container = handle.container
        limits = prepared.limits
        pid = int(container.attrs["State"]["Pid"])
        try:
            cgroup = CgroupReader(pid)
        except OSError as exc:
            raise SandboxUnavailable(f"cannot read the sandbox's cgroups ({exc})") from None
        started = time.monotonic()
        peaks = Peaks()
        observations: dict[str, Any] = {}
        network = handle.network
        if handle.gvisor:
            handle.watch = _Watch()
            threading.Thread(target=self._watch, args=(container, handle.watch), daemon=True).start()
        if network.requirements:
            phase = self._phase(
                handle, _pip_command(network, handle.proxy_url), {"HOME": "/workspace", "PYTHONPATH": "/opt/pip"},
                cgroup, limits, observer, started, peaks, _Capture(_PIP_OUTPUT),
            )
            observations["dependencies"] = self._dependencies(handle, network, phase)
            if phase.violation is not None or phase.cancelled or phase.lost or phase.exit_code != 0:
                return self._finish(handle, phase, peaks, observations, started, "dependencies_failed")
        environment = {"HOME": "/workspace", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
        if network.requirements:
            environment["MAI_SAFETY_DEPS"] = _DEPS_TARGET
        command = ["python3", "-I", "/sandbox/runner.py"]
        if handle.cpu_rlimit is not None:
            # A pool container was made before the run was known: its CPU-time limit is set here,
            # soft then hard, before the code starts; the code cannot raise a hard limit.
            soft, hard = handle.cpu_rlimit
            limit = f"ulimit -S -t {soft} && ulimit -H -t {hard}"
            if handle.nproc is not None:
                limit += f" && ulimit -p {handle.nproc}"
            command = ["sh", "-c", f'{limit} && exec "$@"', "sh", *command]
        phase = self._phase(
            handle, command, environment,
            cgroup, limits, observer, started, peaks, _Capture(limits.output_bytes, output), last=True,
        )
        observations["attempted"] = handle.feed.close()
        observations["attempted"]["channel"] = (
            "unix socket /sandbox/record.sock through gVisor's gofer" if handle.gvisor else "unix socket /sandbox/record.sock"
        )
        if handle.gvisor and not observations["attempted"].get("complete", True) and not self.gvisor().get("record_socket"):
            observations["attempted"]["problem"] += (
                f"; {GVISOR_RUNTIME} is registered without --host-uds=open, so no record can leave the sandbox ({_GVISOR_HINT})"
            )
        if phase.violation is None and not phase.cancelled and phase.lost is None:
            observations.update(self._observe(handle, cgroup))
        return self._finish(handle, phase, peaks, observations, started, None)

    def _phase(
        self,
        handle: "_Handle",
        command: list[str],
        environment: dict[str, str],
        cgroup: CgroupReader,
        limits: ResourceLimits,
        observer: Observer,
        started: float,
        peaks: Peaks,
        capture: "_Capture",
        last: bool = False,
    ) -> "_Phase":
        """Run one command in the container under supervision, until it ends or a limit is crossed.
        ``last``: the code's own command, after which (under gVisor) the survey runs inside."""
        container = handle.container
        try:
            exec_id = self.client.api.exec_create(
                container.id, command, user=_CODE_USER, workdir="/workspace", environment=environment
            )["Id"]
            attached = self.client.api.exec_start(exec_id, socket=True)
        except (OSError, *_DOCKER_ERRORS) as exc:
            raise SandboxUnavailable(f"Docker failed to start the code ({_short(exc)})") from None
        reader = threading.Thread(target=capture.consume, args=(attached,), daemon=True)
        reader.start()
        violation: Violation | None = None
        cancelled = False
        while True:
            remaining = limits.timeout_s - (time.monotonic() - started)
            ended = capture.stop.wait(max(min(self.sample_interval_s, remaining), 0))
            usage = self._usage(cgroup, handle, limits, capture, time.monotonic() - started)
            peaks.add(usage)
            violation = find_violation(limits, usage)
            if violation is not None or ended or handle.sandbox_ended:
                break
            if not observer(usage):
                cancelled = True
                break
        if violation is not None or cancelled:
            _kill(container)
        if handle.gvisor and (violation is not None or cancelled or handle.sandbox_ended):
            # Under runsc the exec's stream can outlive the killed sandbox by half a minute (until the
            # engine's shim gives up on it): nothing more can come from a dead sandbox, so close it.
            reader.join(0.5)
            if reader.is_alive():
                _close_attached(attached)
        reader.join(30)
        if violation is None and not cancelled:
            # The command ended by itself: one last reading catches an OOM kill in its final moments.
            if handle.gvisor:
                self._gvisor_after(handle, last)
            final = self._usage(cgroup, handle, limits, capture, time.monotonic() - started)
            peaks.add(final)
            late = find_violation(limits, final)
            if late is not None and late.reason in ("memory", "pids", "disk", "output_limit", "timeout"):
                violation = late  # "timeout": the keeper ended the container at the run's deadline
        exit_code = self._exit_code(exec_id)
        lost = None
        if exit_code is None and violation is None and not cancelled and handle.sandbox_ended:
            # gVisor's kernel ended under the code: the engine answers, the sandbox is gone.
            violation = _gvisor_death(handle, limits, peaks, time.monotonic() - started)
            if violation is None:
                lost = f"gVisor's sandbox ended by itself (exit status {handle.sandbox_exit}) before the program did"
        elif exit_code is None and violation is None and not cancelled:
            # The stream ended but the engine cannot say how the program ended: we lost the engine,
            # not the program. The keeper still ends the container at its deadline.
            lost = "the connection to Docker ended before the program's exit status could be read"
            _kill(container)
        return _Phase(capture, violation, cancelled, exit_code, lost)

    def _finish(
        self,
        handle: "_Handle",
        phase: "_Phase",
        peaks: Peaks,
        observations: dict[str, Any],
        started: float,
        failed_reason: str | None,
    ) -> RunOutcome:
        elapsed = time.monotonic() - started
        if handle.proxy is not None:
            if phase.violation is not None or phase.cancelled:
                _kill(handle.container)  # its connections close with it, before the proxy's log is read
            observations["network"] = self._egress_record(handle)
        violation = phase.violation
        if phase.lost is not None:
            reason, detail = "supervision_lost", phase.lost
        elif phase.cancelled:
            reason, detail = "cancelled", "cancelled"
        elif violation is not None:
            reason, detail = violation.reason, violation.detail
        elif failed_reason is not None:
            reason, detail = failed_reason, "installing the requirements failed: " + phase.capture.text("stderr")[-500:]
        else:
            reason, detail = None, ""
        capture = phase.capture
        return RunOutcome(
            exit_code=phase.exit_code,
            stdout=capture.text("stdout") if failed_reason is None else "",
            stderr=capture.text("stderr") if failed_reason is None else "",
            output_bytes=capture.total if failed_reason is None else 0,
            output_truncated=capture.overflowed and failed_reason is None,
            duration_s=elapsed,
            termination_reason=reason,
            detail=detail,
            violation=violation.to_dict() if violation else None,
            peaks=peaks.to_dict(),
            observations=observations,
        )

    def _dependencies(self, handle: "_Handle", network: NetworkRequest, phase: "_Phase") -> dict[str, Any]:
        """What pip installed, from its own report: names, versions and the archives' hashes."""
        installed: list[dict[str, Any]] = []
        try:
            report = json.loads(handle.root.read_file(_SUMMARY_MOUNT, "pip-report.json", _PIP_REPORT_CAP))
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
            "exit_code": phase.exit_code,
            "pip_output": (phase.capture.text("stdout") + phase.capture.text("stderr"))[-2000:],
        }

    def _egress_record(self, handle: "_Handle") -> dict[str, Any]:
        """Every request the proxy saw, allowed or refused, from its log; read after it stops."""
        requests_seen: list[dict[str, Any]] = []
        try:
            # The code has ended and its connections are closed; the proxy records each as it sees it
            # close, which takes it a moment.
            time.sleep(0.05)
            handle.proxy.kill()
            log = handle.proxy.logs(stdout=True, stderr=False).decode("utf-8", "replace")
        except _DOCKER_ERRORS:
            log = ""
        for line in log.splitlines():
            if line.startswith(_EGRESS_MARK):
                try:
                    requests_seen.append(json.loads(line[len(_EGRESS_MARK):]))
                except ValueError:
                    continue
        verdicts: dict[str, int] = {}
        for request in requests_seen:
            verdicts[request.get("verdict", "?")] = verdicts.get(request.get("verdict", "?"), 0) + 1
        return {
            "mode": handle.network.mode.value,
            "allow": list(handle.network.allow),
            "requests": requests_seen,
            "verdicts": verdicts,
            "bytes": sum(int(request.get("bytes") or 0) for request in requests_seen),
        }

    def _usage(self, cgroup: CgroupReader, handle: "_Handle", limits: ResourceLimits, capture: "_Capture", elapsed: float) -> Usage:
        try:
            counters = cgroup.read()
        except (OSError, ValueError):
            counters = None
        if handle.gvisor:
            if counters is not None and not cgroup.exists():
                counters = None
            if counters is None:
                self._check_sandbox(handle)  # gone with gVisor's kernel: the memory limit, or the deadline
            return self._gvisor_usage(counters, handle, limits, capture, elapsed)
        root = handle.root
        disk_used, disk_full = 0, False
        for mount in _WRITABLE:
            try:
                used, size = root.disk_use(mount)
            except OSError:
                continue
            disk_used += used
            disk_full = disk_full or (size > 0 and size - used < 64 * 1024)
        return Usage(
            elapsed_s=elapsed,
            cpu_seconds=counters.cpu_seconds if counters else 0.0,
            memory_bytes=counters.memory_bytes if counters else 0,
            memory_peak_bytes=counters.memory_peak_bytes if counters else 0,
            pids=max((counters.pids if counters else 0) - 2, 0),
            disk_bytes=disk_used,
            disk_full=disk_full,
            output_bytes=capture.total,
            oom_kills=counters.oom_kills if counters else 0,
            pids_limit_hits=counters.pids_limit_hits if counters else 0,
            io_read_bytes=counters.io_read_bytes if counters else 0,
            io_write_bytes=counters.io_write_bytes if counters else 0,
        )

    # --- under gVisor: what only its kernel knows, asked from inside ---------------------------

    def _gvisor_usage(
        self, counters: Any, handle: "_Handle", limits: ResourceLimits, capture: "_Capture", elapsed: float
    ) -> Usage:
        """Memory and CPU from the host cgroup (gVisor's kernel included); the code's tasks and the
        tmpfs mounts from the keeper's watch, or from the survey's own reading once it has run."""
        watch = handle.watch or _Watch()
        tasks, disk_used, disk_full = watch.tasks, watch.disk_used, watch.disk_full
        if handle.survey_disk is not None:
            disk_used, disk_full = handle.survey_disk
        return Usage(
            elapsed_s=elapsed,
            cpu_seconds=counters.cpu_seconds if counters else 0.0,
            memory_bytes=counters.memory_bytes if counters else 0,
            memory_peak_bytes=counters.memory_peak_bytes if counters else 0,
            pids=tasks,
            disk_bytes=disk_used,
            disk_full=disk_full,
            output_bytes=capture.total,
            # gVisor's kernel itself is what the host OOM-kills: the container ends with it.
            oom_kills=max(counters.oom_kills if counters else 0, int(handle.oom_killed)),
            # RLIMIT_NPROC refuses the code's next task once it holds the limit: that is the wall.
            pids_limit_hits=int(tasks >= limits.pids),
            io_read_bytes=counters.io_read_bytes if counters else 0,
            io_write_bytes=counters.io_write_bytes if counters else 0,
        )

    def _watch(self, container: Any, watch: "_Watch") -> None:
        """The keeper's watch (sandbox_watch.py), as uid 1001: the code can neither signal nor trace it."""
        try:
            exec_id = self.client.api.exec_create(
                container.id, ["python3", "-I", "-S", "/sandbox/watch.py", f"{self.sample_interval_s:g}"],
                user=_KEEPER_USER, workdir="/",
            )["Id"]
            attached = self.client.api.exec_start(exec_id, socket=True)
        except (OSError, *_DOCKER_ERRORS):
            return  # the container is gone already; the run's own command says how
        watch.consume(attached)

    def _check_sandbox(self, handle: "_Handle") -> None:
        """Whether the container still runs; if not, whether the host OOM-killed gVisor's kernel
        (under runsc the memory limit ends the whole sandbox, not one process in it)."""
        if handle.sandbox_ended:
            return
        try:
            handle.container.reload()
            state = handle.container.attrs.get("State", {})
        except docker.errors.NotFound:
            handle.sandbox_ended = True
            return
        except _DOCKER_ERRORS:
            return
        if not state.get("Running"):
            handle.sandbox_ended = True
            handle.oom_killed = bool(state.get("OOMKilled"))
            handle.sandbox_exit = state.get("ExitCode")

    def _gvisor_after(self, handle: "_Handle", last: bool) -> None:
        """After a command ended by itself under gVisor: did gVisor's kernel die of the memory limit
        (the container ends with it), and if not, what did the code leave (the survey)?"""
        self._check_sandbox(handle)
        if handle.sandbox_ended:
            return
        if last:
            handle.survey = self._survey(handle.container)
            disk = handle.survey.get("disk")
            if isinstance(disk, dict):
                sizes = [pair for pair in disk.values() if isinstance(pair, list) and len(pair) == 2]
                handle.survey_disk = (
                    sum(int(used) for used, _ in sizes),
                    any(int(size) > 0 and int(size) - int(used) < 64 * 1024 for used, size in sizes),
                )

    def _survey(self, container: Any) -> dict[str, Any]:
        """sandbox_survey.py by exec as the code's uid: ends what the code left running, then lists
        what it left in its mounts. Its output is capped and must be one JSON object."""
        capture = _Capture(_SURVEY_CAP)
        try:
            exec_id = self.client.api.exec_create(
                container.id, ["python3", "-I", "-S", "/sandbox/survey.py"], user=_CODE_USER, workdir="/"
            )["Id"]
            attached = self.client.api.exec_start(exec_id, socket=True)
        except (OSError, *_DOCKER_ERRORS) as exc:
            return {"error": f"the survey did not start ({_short(exc)})"}
        reader = threading.Thread(target=capture.consume, args=(attached,), daemon=True)
        reader.start()
        reader.join(15)
        if reader.is_alive() or capture.overflowed:
            _close_attached(attached)
            return {"error": "the survey did not end within 15 s or wrote more than it may"}
        try:
            survey = json.loads(capture.text("stdout"))
            if not isinstance(survey, dict) or not isinstance(survey.get("files_created"), dict):
                raise ValueError
        except ValueError:
            return {"error": "the survey's output is not its record: " + capture.text("stderr")[-300:]}
        return survey

    def _observe(self, handle: "_Handle", cgroup: CgroupReader) -> dict[str, Any]:
        """What the run left, read by the supervisor from outside: the files in its writable areas
        (container_files.py: no link followed, nothing but regular files read, every read capped)
        and the processes it left running, from its cgroup. Under gVisor, the survey's (run inside,
        after the code, with the same rules) instead."""
        if handle.gvisor:
            survey = handle.survey or {"error": "the container ended before its files could be surveyed"}
            if "error" in survey:
                return {"files_created": {"incomplete": survey["error"]}, "processes_left_running": None}
            left = survey.get("processes_left_running")
            return {
                "files_created": survey["files_created"],
                "processes_left_running": left if isinstance(left, int) else None,
                "surveyed": "inside gVisor, by exec as the code's uid after ending its processes",
            }
        try:
            left = max(cgroup.read().pids - 2, 0)  # less the container's init and idle process
        except (OSError, ValueError):
            left = None
        return {"files_created": Survey().run(handle.root, _WRITABLE), "processes_left_running": left}

    def _exit_code(self, exec_id: str) -> int | None:
        for _ in range(50):
            try:
                state = self.client.api.exec_inspect(exec_id)
            except _DOCKER_ERRORS:
                return None
            if not state.get("Running"):
                return state.get("ExitCode")
            time.sleep(0.02)
        return None

    def discard(self, prepared: PreparedRun) -> None:
        self._discard_handle(prepared.handle)
        if prepared.handle.pooled:
            self._pool_wake.set()  # a new one is made in the background

    def _discard_handle(self, handle: "_Handle") -> None:
        for container in (handle.container, handle.proxy):
            if container is None:
                continue
            try:
                container.remove(force=True)
            except (docker.errors.NotFound, *_DOCKER_ERRORS):
                pass  # remove_leftovers() finds it by label on the next start
        if handle.gvisor and handle.container is not None:
            end_gvisor_processes(handle.container.id)  # a failed start leaves them behind Docker's back
        if handle.internal is not None:
            try:
                handle.internal.remove()
            except (docker.errors.NotFound, *_DOCKER_ERRORS):
                pass
        if handle.keeper is not None:
            handle.keeper.close()
        if handle.feed is not None:
            handle.feed.close(grace_s=0)
        if handle.root is not None:
            handle.root.close()
        shutil.rmtree(handle.workdir, ignore_errors=True)

    def close(self) -> None:
        self._close_pool()
        if self._client is not None:
            self._client.close()
            self._client = None

    # --- cleaning up after others ---------------------------------------------------------------

    def _containers_of(self, execution_id: str) -> list[Any]:
        """The containers of one execution: labelled with it, or a pool container renamed for it."""
        found = self.client.containers.list(
            all=True, filters={"label": [f"{LABEL_MANAGED}=1", f"{LABEL_EXECUTION}={execution_id}"]},
            ignore_removed=True,
        )
        taken = self.client.containers.list(
            all=True, filters={"label": f"{LABEL_MANAGED}=1", "name": f"{_TAKEN_PREFIX}{execution_id}-"},
            ignore_removed=True,
        )
        return found + [container for container in taken if _execution_of(container) == execution_id]

    def describe_execution(self, execution_id: str) -> dict[str, Any]:
        try:
            found = self._containers_of(execution_id)
        except _DOCKER_ERRORS:
            return {}
        for container in found:
            if _labels(container).get(LABEL_ROLE):
                continue  # the egress proxy, not the sandbox
            state = container.attrs.get("State", {})
            started, finished = _docker_time(state.get("StartedAt")), _docker_time(state.get("FinishedAt"))
            running = bool(state.get("Running"))
            ended_at = time.time() if running or finished is None else finished
            description: dict[str, Any] = {"container_status": container.status}
            if started is not None:
                description["duration_s"] = round(max(ended_at - started, 0.0), 3)
            if not running:
                deadline = _deadline_of(container)
                description["ended_by_deadline"] = bool(deadline and finished and finished >= deadline - 0.5)
            return description
        return {}

    def orphaned_executions(self) -> list[str]:
        with engine_answers():
            found = self.client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"}, ignore_removed=True)
        # A waiting pool container has no execution (no label, not renamed): never taken for a run.
        return sorted(
            {
                _execution_of(container)
                for container in found
                if supervisor_gone(_labels(container).get(LABEL_SUPERVISOR, ""))
            }
            - {""}
        )

    def remove_execution(self, execution_id: str) -> int:
        removed = self._remove({"label": [f"{LABEL_MANAGED}=1", f"{LABEL_EXECUTION}={execution_id}"]}, lambda _: True)
        with engine_answers():
            taken = [
                container for container in self._containers_of(execution_id) if _labels(container).get(LABEL_POOL)
            ]
        if taken:
            ids = {container.id for container in taken}
            removed += self._remove(
                {"label": f"{LABEL_MANAGED}=1", "name": f"{_TAKEN_PREFIX}{execution_id}-"}, lambda item: item.id in ids
            )
            for container in taken:
                for folder in self._work_root.glob(f"{_labels(container)[LABEL_POOL]}-*"):
                    if folder.is_dir() and not folder.is_symlink():
                        shutil.rmtree(folder, ignore_errors=True)
        for folder in self._work_root.glob(f"{execution_id}-*"):
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder, ignore_errors=True)
        return removed

    def remove_leftovers(self) -> int:
        removed = self._remove(
            {"label": f"{LABEL_MANAGED}=1"}, lambda item: supervisor_gone(_labels(item).get(LABEL_SUPERVISOR, ""))
        )
        with engine_answers():
            known = {container.id for container in self.client.containers.list(all=True, sparse=True, ignore_removed=True)}
        end_gvisor_orphans(known)
        self._remove_stale_workdirs()
        return removed

    def _remove_stale_workdirs(self, older_than_s: float = 60.0) -> None:
        """Work folders (the code and the record socket) of runs whose container is gone."""
        try:
            live = {
                _labels(container).get(key, "")
                for container in self.client.containers.list(
                    all=True, filters={"label": f"{LABEL_MANAGED}=1"}, ignore_removed=True
                )
                for key in (LABEL_EXECUTION, LABEL_POOL)  # a pool container's folder is named by its slot
            }
        except _DOCKER_ERRORS:
            return
        now = time.time()
        for folder in self._work_root.iterdir():
            try:
                status = folder.lstat()
            except OSError:
                continue
            if folder.is_symlink() or not folder.is_dir() or now - status.st_mtime < older_than_s:
                continue
            if folder.name[:36] not in live:
                shutil.rmtree(folder, ignore_errors=True)

    def _remove(self, filters: dict[str, Any], condition: Any) -> int:
        """Containers first (the sandbox and its proxy), then the networks they were on."""
        removed = 0
        with engine_answers():
            for container in self.client.containers.list(all=True, filters=filters, ignore_removed=True):
                if condition(container):
                    gvisor = container.attrs.get("HostConfig", {}).get("Runtime") == GVISOR_RUNTIME
                    try:
                        container.remove(force=True)
                        removed += 1
                    except docker.errors.NotFound:
                        pass  # another run removed it first
                    except docker.errors.APIError as exc:
                        if "removal" not in str(exc) and "already in progress" not in str(exc):
                            raise
                    if gvisor:
                        end_gvisor_processes(container.id)
            for network in self.client.networks.list(filters=filters):
                if condition(network):
                    try:
                        network.remove()
                    except (docker.errors.NotFound, docker.errors.APIError):
                        pass  # still in use by a live run
        return removed


@dataclass
class _Handle:
    """Everything one run made, so that discard can remove all of it."""

    workdir: Path
    network: NetworkRequest
    container: Any = None
    proxy: Any = None
    internal: Any = None
    network_name: str = ""
    proxy_url: str = ""
    proxy_outside: str = ""
    feed: RecordFeed | None = None
    root: ContainerRoot | None = None
    gvisor: bool = False
    watch: "_Watch | None" = None
    survey: dict[str, Any] | None = None
    survey_disk: tuple[int, bool] | None = None
    oom_killed: bool = False
    sandbox_ended: bool = False
    sandbox_exit: int | None = None
    keeper: socket.socket | None = None  # a pool container's: its keeper waits on it for the deadline
    cpu_rlimit: tuple[int, int] | None = None  # a pool container's: set by the code's own command
    nproc: int | None = None  # likewise, under gVisor: the code's task limit
    pooled: bool = False


@dataclass(frozen=True)
class _Phase:
    capture: "_Capture"
    violation: Violation | None
    cancelled: bool
    exit_code: int | None
    lost: str | None = None


def _pip_command(network: NetworkRequest, proxy_url: str) -> list[str]:
    """pip inside the sandbox, through the proxy, wheels only (no build scripts run at install)."""
    command = [
        "python3", "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--no-cache-dir",
        "--progress-bar", "off", "--only-binary=:all:", "--target", _DEPS_TARGET,
        "--report", f"{_SUMMARY_MOUNT}/pip-report.json", "--proxy", proxy_url,
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


def _check_no_host_address(network: Any) -> None:
    """Fail closed if the engine gave the egress bridge an IPv4 address of the host after all (an
    engine that ignores the option). Where the engine runs elsewhere the bridge is not visible
    here, and the option stands on its own."""
    bridge = "br-" + str(network.id)[:12]
    addresses = psutil.net_if_addrs().get(bridge, [])
    if any(address.family == socket.AF_INET for address in addresses):
        raise SandboxUnavailable(
            f"the Docker engine gave the egress bridge {bridge} an address of the host, so the sandbox "
            "could reach the host's services: --network deps is refused on this engine"
        )


def _without(room: HostRoom, held: int) -> HostRoom:
    """The room with one managed container (and what it holds) taken out of the count."""
    return replace(
        room, reserved_memory_bytes=max(room.reserved_memory_bytes - held, 0), running=max(room.running - 1, 0)
    )


def _docker_time(text: str | None) -> float | None:
    """Docker's RFC 3339 times (nanoseconds, Z) as seconds since the epoch; None for its zero time."""
    if not text or text.startswith("0001-"):
        return None
    import datetime

    main, _, rest = text.rstrip("Z").partition(".")
    fraction = float("0." + rest[:6]) if rest else 0.0
    moment = datetime.datetime.fromisoformat(main).replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp() + fraction


def _execution_of(container: Any) -> str:
    """The execution a container serves: its label, or (a pool container taken for a run) its name."""
    labelled = _labels(container).get(LABEL_EXECUTION, "")
    if labelled:
        return labelled
    match = _TAKEN_NAME.match(_name_of(container))
    return match.group(1) if match else ""


def _deadline_of(container: Any) -> float:
    """When the keeper ends the container: its label, or the name of a pool container taken for a run."""
    labelled = _labels(container).get(LABEL_DEADLINE)
    if labelled:
        return float(labelled)
    match = _TAKEN_NAME.match(_name_of(container))
    return float(match.group(2)) if match else 0.0


def _name_of(container: Any) -> str:
    attrs = getattr(container, "attrs", {}) or {}
    if attrs.get("Name"):
        return str(attrs["Name"])
    names = attrs.get("Names") or []
    return str(names[0]) if names else ""


def _labels(item: Any) -> dict[str, str]:
    labels = getattr(item, "labels", None)
    if labels is None:
        labels = item.attrs.get("Labels") or {}
    return labels


def _wait_for_port(address: str, port: int, container: Any, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((address, port), timeout=0.5):
                return
        except OSError:
            container.reload()
            if container.status not in ("created", "running"):
                log = container.logs(tail=5).decode("utf-8", "replace").strip()
                raise SandboxUnavailable(f"the egress proxy did not start: {log[-300:]}") from None
            time.sleep(0.05)
    raise SandboxUnavailable(f"the egress proxy did not accept connections within {timeout_s:g} s")


_CONTAINER_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
_RUNSC_NAMES = ("runsc", "runsc-sandbox", "runsc-gofer")


def _runsc_processes() -> Iterator[tuple[psutil.Process, list[str]]]:
    """gVisor's own processes on this host: runsc, and the sandbox and gofer it starts."""
    for process in psutil.process_iter(["name", "cmdline"]):
        command = process.info.get("cmdline") or []
        if command and os.path.basename(command[0]) in _RUNSC_NAMES:
            yield process, command


def end_gvisor_processes(container_id: str) -> int:
    """Kill gVisor's processes that name this container. A start that fails under runsc leaves its
    sandbox running for minutes after Docker has forgotten the container; removing the container
    ends the rest. Returns how many were ended."""
    ended = 0
    for process, command in _runsc_processes():
        if any(container_id in argument for argument in command):
            try:
                process.kill()
                ended += 1
            except psutil.Error:
                pass
    return ended


def end_gvisor_orphans(known_ids: set[str], older_than_s: float = 30.0) -> int:
    """Kill gVisor's processes whose container the engine no longer knows (after a failed start,
    or a crash of the engine), once they are older than a start could take."""
    ended = 0
    for process, command in _runsc_processes():
        named = {match for argument in command for match in _CONTAINER_ID.findall(argument)}
        if not named or named & known_ids:
            continue
        try:
            if time.time() - process.create_time() < older_than_s:
                continue
            process.kill()
            ended += 1
        except psutil.Error:
            pass
    return ended


class _Watch:
    """The latest line of the keeper's watch: the code's tasks and the writable mounts' use.
    Lines are parsed strictly (five integers); anything else is ignored."""

    def __init__(self) -> None:
        self.tasks = 0
        self.disk_used = 0
        self.disk_full = False
        self.lines = 0

    def consume(self, attached: Any) -> None:
        pending = b""
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
        except (OSError, ValueError, *_DOCKER_ERRORS):
            pass  # the stream ends with the container
        finally:
            _close_attached(attached)

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


class _Capture:
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
        try:
            for stream_id, chunk in frames_iter(attached, tty=False):
                if chunk:
                    self._take("stderr" if stream_id == STDERR else "stdout", chunk)
        except (OSError, ValueError, *_DOCKER_ERRORS):  # ValueError: the supervisor closed it
            pass  # the stream ends when the container dies; the outcome comes from its state
        finally:
            self.stop.set()
            _close_attached(attached)

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


def _memory_held(container: Any) -> tuple[int, int]:
    """A container's memory limit and use. The limit is the cgroup's own where it can be read: a
    pool container taken under runsc was given its run's limit there, not through the engine."""
    limit = int(container.attrs.get("HostConfig", {}).get("Memory") or 0)
    try:
        reader = CgroupReader(int(container.attrs["State"]["Pid"]))
        return reader.limits()["memory_bytes"] or limit, reader.read().memory_bytes
    except (OSError, ValueError, KeyError):
        return limit, 0


def _close_attached(attached: Any) -> None:
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


#: Under gVisor, a sandbox whose memory peaked this close to its limit and then ended by itself
#: ran out of memory: gVisor's kernel fails its own allocations and exits before the host's OOM
#: killer acts, so the engine does not flag it OOMKilled (seen with fork bombs near the limit).
_GVISOR_MEMORY_DEATH = 0.9


def _gvisor_death(handle: "_Handle", limits: ResourceLimits, peaks: Peaks, at_s: float) -> Violation | None:
    """Why gVisor's sandbox ended under a running program: the memory limit, or None (unknown)."""
    peak = int(peaks.values.get("memory_peak_bytes", 0))
    if handle.oom_killed or (limits.memory_bytes and peak >= _GVISOR_MEMORY_DEATH * limits.memory_bytes):
        return Violation("memory", peak, limits.memory_bytes, at_s)
    return None


def _kill(container: Any) -> None:
    try:
        container.kill()
    except _DOCKER_ERRORS:
        pass  # already gone
