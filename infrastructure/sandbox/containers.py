"""The sandbox's containers: how they are hardened, labelled, named, given their files, and removed.

Every container: all capabilities dropped, no-new-privileges, the keeper's uid (1001) for its init
and idle process and the code's (1000) for the code, read-only root filesystem with size-limited
tmpfs for /tmp, /workspace and the runner's summary, memory with swap equal to it, a pids limit, a
CPU quota, an init that reaps orphans (``hardened``). Each is labelled with the supervising process
(``supervisor_label``), so that a later start can remove what a dead supervisor left, and with
its ledger's identity (``ledger_labels``), so that only that ledger's sweep removes it.

``RunHandle`` is everything one run made (container, proxy, network, work folder, sockets), so that
``discard`` removes all of it. ``Engine`` is the one connection to Docker that the parts share.
"""

from __future__ import annotations

import datetime
import math
import os
import shutil
import socket
import stat
import tempfile
from concurrent.futures import Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.network import NetworkRequest

from . import payload
from .capture import SUMMARY_MOUNT, WatchLines
from .errors import BestEffort, engine_answers
from .files import ContainerRoot
from .record import RecordFeed
from .runtimes import GVISOR_MEMORY, end_gvisor_processes, gvisor_host_tasks
from .supervisors import supervisor_gone, supervisor_label  # noqa: F401 - the sandbox's modules take them from here

LABEL_MANAGED = "mai-safety.managed"
LABEL_EXECUTION = "mai-safety.execution"
LABEL_SUPERVISOR = "mai-safety.supervisor"
LABEL_ROLE = "mai-safety.role"
LABEL_DEADLINE = "mai-safety.deadline"
# A pool container waiting for a run carries this label (its slot) and no execution label. When a run
# takes it, labels cannot change, so it is renamed mai-safety-run-<execution>-until-<deadline>: the
# name binds it to the execution for recovery, as the labels bind a container made for one run.
LABEL_POOL = "mai-safety.pool"
# The identity of the ledger that records the container's run (its ledger hash at position 1, as its
# witnesses know it; never a path): a sweep removes only its own ledger's containers (cleanup.py).
LABEL_LEDGER = "mai-safety.ledger"
TAKEN_PREFIX = "mai-safety-run-"
# The keeper ends the container by itself this long after the run's wall-clock limit, whether or
# not a supervisor still watches (decision 0012): the supervisor kills at the limit itself.
DEADLINE_GRACE_S = 1.5
WRITABLE = ("/workspace", "/tmp")
# The container's init and its idle process run as their own uid, so the code (1000) can signal
# neither: a SIGTERM to init would otherwise end the container and the record with it.
KEEPER_USER = "1001:1001"
CODE_USER = "1000:1000"

RUNNER_SOURCE = payload.source("runner.py")
KEEPER_SOURCE = payload.source("keeper.py")
# What a run under gVisor gets beside the runner: read once, written into each run's folder. The
# survey inside imports the host-side survey's rules under the name it has there.
GVISOR_FILES = {
    "watch.py": payload.source("watch.py"),
    "survey.py": payload.source("survey.py"),
    "container_files.py": Path(__file__).with_name("files.py").read_text(encoding="utf-8"),
    "container_collector.py": Path(__file__).with_name("collector.py").read_text(encoding="utf-8"),
}


class Engine:
    """The connection to Docker, made when first asked for and shared by the sandbox's parts."""

    def __init__(self) -> None:
        self._client: docker.DockerClient | None = None

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            with engine_answers():
                self._client = _on_socket_without_proxies(docker.from_env(timeout=60))
        return self._client

    @staticmethod
    def streaming_client() -> docker.DockerClient:
        """A client of its own for a stream that stays open (no read timeout: it may be quiet for long)."""
        return docker.from_env(timeout=None)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _on_socket_without_proxies(client: docker.DockerClient) -> docker.DockerClient:
    """``client``, which asks the engine on a Unix socket without reading the environment's proxy
    settings on every call (requests' ``trust_env``): no proxy reaches a Unix socket, and looking
    them up took ~0.15 ms of each call (issue #29). An engine over TCP keeps them."""
    if str(client.api.base_url).startswith("http+docker://"):
        client.api.trust_env = False
    return client


@dataclass
class RunHandle:
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
    watch: WatchLines | None = None
    survey: dict[str, Any] | None = None
    survey_disk: tuple[int, bool] | None = None
    oom_killed: bool = False
    sandbox_ended: bool = False
    sandbox_exit: int | None = None
    host_tasks: tuple[int, int] = (0, 0)  # under gVisor: its host tasks and the host's refusals, last read
    keeper: socket.socket | None = None  # a pool container's: its keeper waits on it for the deadline
    cpu_rlimit: tuple[int, int] | None = None  # a pool container's: set by the code's own command
    nproc: int | None = None  # likewise, under gVisor: the code's task limit
    pooled: bool = False
    primed: Any = None  # a pool container's: its runner, started ahead and waiting (primed.py)
    primed_watch: Any = None  # a gVisor pool container's: the keeper's watch, started ahead (primed.py)
    primed_survey: Any = None  # a gVisor pool container's: the survey after the code, started ahead (primed.py)
    binding: Future[None] | None = None  # a taken pool container's rename to its execution
    workspace: Any = None  # its input files and the bounds of its outputs (workspace.RunWorkspace)
    cgroup: Any = None  # a pool container's cgroups, found when its run's limits were set (cgroups.CgroupReader)
    collected: Any = None  # the output files collected after the code (workspace.Collected)


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


def ledger_labels(identity: str | None) -> dict[str, str]:
    """The ledger label for a container made now; none while the ledger is still empty (only a
    pool container can be made then: cleanup.py says how such a container is swept)."""
    return {LABEL_LEDGER: identity} if identity else {}


def keeper_seconds(limits: ResourceLimits) -> float:
    """How long the keeper lets the container live: the run's wall clock and a grace."""
    return math.ceil((limits.timeout_s + DEADLINE_GRACE_S) * 10) / 10


def write_files(workdir: Path, files: dict[str, str]) -> None:
    """Write a run's files into its folder, read-only: the container mounts it at /sandbox."""
    for name, text in files.items():
        path = workdir / name
        path.write_text(text, encoding="utf-8")
        path.chmod(0o444)


def hardened(
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
        memory += GVISOR_MEMORY
        pids_limit = gvisor_host_tasks(limits.pids)
        # The code's tasks, counted per uid by gVisor's kernel: the code alone is uid 1000.
        ulimits.append(docker.types.Ulimit(name="nproc", soft=limits.pids, hard=limits.pids))
    return dict(
        init=True,
        user=KEEPER_USER,
        working_dir="/workspace",
        cap_drop=["ALL"],
        security_opt=["no-new-privileges:true"],
        read_only=True,
        tmpfs={
            "/tmp": f"{tmpfs_options},noexec,mode=1777",
            "/workspace": f"{tmpfs_options},uid=1000,gid=1000,mode=0700",
            SUMMARY_MOUNT: "rw,nosuid,nodev,noexec,size=1m,uid=1000,gid=1000,mode=0700",
        },
        mem_limit=memory,
        memswap_limit=memory,
        pids_limit=pids_limit,
        nano_cpus=int(limits.cpus * 1e9),
        ulimits=ulimits,
        runtime=runtime.get("engine_runtime", runtime["name"]),
        ipc_mode="none",
        environment=environment,
        volumes=volumes,
        labels=labels,
        log_config={"type": "none"},
        detach=True,
    )


def discard(handle: RunHandle) -> None:
    """Remove everything one run made; what cannot be removed now, remove_leftovers() finds by
    label on the next start."""
    if handle.binding is not None:
        wait([handle.binding])  # a rename that lands after the removal would leave nothing to name
    for container in (handle.container, handle.proxy):
        if container is None:
            continue
        with BestEffort():
            container.remove(force=True)
    if handle.gvisor and handle.container is not None:
        end_gvisor_processes(handle.container.id)  # a failed start leaves them behind Docker's back
    if handle.internal is not None:
        with BestEffort():
            handle.internal.remove()
    if handle.primed is not None:
        handle.primed.close()
    if handle.primed_watch is not None:
        handle.primed_watch.close()
    if handle.primed_survey is not None:
        handle.primed_survey.close()
    if handle.keeper is not None:
        handle.keeper.close()
    if handle.feed is not None:
        handle.feed.close(grace_s=0)
    if handle.root is not None:
        handle.root.close()
    shutil.rmtree(handle.workdir, ignore_errors=True)


def kill(container: Any) -> None:
    with BestEffort():  # already gone
        container.kill()


def docker_time(text: str | None) -> float | None:
    """Docker's RFC 3339 times (nanoseconds, Z) as seconds since the epoch; None for its zero time."""
    if not text or text.startswith("0001-"):
        return None
    main, _, rest = text.rstrip("Z").partition(".")
    fraction = float("0." + rest[:6]) if rest else 0.0
    moment = datetime.datetime.fromisoformat(main).replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp() + fraction


def labels_of(item: Any) -> dict[str, str]:
    labels = getattr(item, "labels", None)
    if labels is None:
        labels = item.attrs.get("Labels") or {}
    return labels
