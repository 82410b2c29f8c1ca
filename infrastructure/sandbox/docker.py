"""The Docker sandbox adapter: one hardened, labelled, throw-away container per execution, watched live.

``DockerSandbox`` implements the application's Sandbox port and delegates: admission.py (never
overcommit the host), containers.py (hardening, labels, removal), egress.py (the proxy of
``--network deps``), pool.py (the warm pool, decision 0015), supervision.py (the exec loop and its
limits), survey.py (what a run left), cleanup.py (what a dead supervisor left), runtimes.py (runc
or gVisor's runsc, decision 0013). Docker's errors become ours in errors.py.

The container starts idle; the code runs in it through ``exec`` under our runner
(payload/runner.py), so that after the code ends the container still stands and the supervisor can
read, from outside, which files the run left and what the runner recorded, before removing it.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from collections.abc import Callable
from typing import Any

import docker

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import Observer, OutputListener, PreparedRun, RunOutcome, Sandbox
from mai_safety.domain.files import FileBounds
from mai_safety.domain.limits import HostPolicy, HostRoom, ResourceLimits, cap_to_host
from mai_safety.domain.network import NetworkMode, NetworkRequest

from . import cleanup
from .admission import Admission, RoomCount
from .containers import (
    GVISOR_FILES,
    LABEL_DEADLINE,
    LABEL_EXECUTION,
    LABEL_MANAGED,
    LABEL_SUPERVISOR,
    RUNNER_SOURCE,
    Engine,
    RunHandle,
    discard,
    hardened,
    keeper_seconds,
    ledger_labels,
    private_work_root,
    supervisor_gone,
    supervisor_label,
    write_files,
)
from .egress import sandbox_options, start_egress, wait_for_proxy
from .errors import BestEffort, engine_answers, refused
from .files import ContainerRoot
from .workspace import RunWorkspace, place_inputs
from .pool import PoolHost, PoolSpec, WarmPool
from .record import RecordFeed
from .removal import Removals
from .runtimes import GVISOR_RUNTIME, STATUS_TTL_S, choose_runtime, gvisor_status
from .observation import PathJudge
from .engine_events import EngineEvents, ExecEnds
from .supervision import ContainerSupervisor


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
        remove_in_background: bool = False,
        file_bounds: FileBounds | None = None,
        images: dict[str, str] | None = None,
        observed_paths: PathJudge | None = None,
    ) -> None:
        """``remove_in_background``: a run's container is removed by a thread of this sandbox after
        the run (removal.py), for a process that lives on; off, ``discard`` removes it at once.
        ``file_bounds``: how many and how large the output files collected after a run may be
        (workspace.py; policy ``files:``). ``observed_paths``: which files a run was seen opening the
        policy's sensitive-path model marks (observation.py; policies/sensitive_paths.yaml)."""
        self.file_bounds = file_bounds or FileBounds()
        #: The images a run may ask for by name, beside ``image`` (policy ``images:``, each with its own pool).
        self.images = dict(images or {})
        self.image = image
        self.proxy_image = proxy_image
        self.upstream_network = upstream_network
        self.host_policy = host_policy
        # Whether this process runs in a container beside the engine (the service image sets
        # MAI_SAFETY_IN_CONTAINER=1): its files are then not the host's, and the engine resolves every
        # bind mount on the host. Not guessed from /.dockerenv: an engine may itself run in a container.
        self.in_container = bool(in_container)
        # Inside a container a run's folder must sit where the host sees it at the same path: only
        # MAI_SAFETY_WORK_DIR says where that is (decision 0017); without it, every run is refused.
        self._host_visible = work_root is not None or work_dir is not None or not self.in_container
        self._work_root = work_root or private_work_root(work_dir)
        self._engine = Engine()
        self._label = supervisor_label()
        #: Which ledger records this sandbox's runs (``use_ledger``): on every container's labels.
        self._ledger_identity: Callable[[], str | None] = lambda: None
        self._gvisor: tuple[float, dict[str, Any]] | None = None
        self._room_count = RoomCount()
        self._learning = Removals(background=True, name="mai-safety-room")  # the room count's inspects, off the run's path
        self._admission = Admission(host_policy, lock_path or Path(tempfile.gettempdir()) / "mai-safety-admission.lock")
        # The engine's event stream: how commands ended, and which managed containers started (engine_events.py).
        self._events = EngineEvents(Engine.streaming_client)
        self._room_count.follow(self._events, self._learning, lambda: self.client, mine=self._label)
        self._supervisor = ContainerSupervisor(
            lambda: self.client, sample_interval_s, self.gvisor, observed_paths, ExecEnds(self._events)
        )
        host = PoolHost(
            client=lambda: self.client, image=image, supervisor=self._label, work_root=self._work_root,
            room_details=self._room_details, choose_runtime=self.choose_runtime,
            ledger=lambda: self._ledger_identity(), seen=self._room_count.learn,
        )
        self._pool = WarmPool(pool, pool_max_idle_s, host, self._admission)
        self._removals = Removals(remove_in_background)
        if remove_in_background:
            self._events.start()  # a process that lives on: connected before its first run

    # --- engine ---------------------------------------------------------------------------

    @property
    def client(self) -> docker.DockerClient:
        return self._engine.client

    @property
    def sample_interval_s(self) -> float:
        return self._supervisor.sample_interval_s

    def check_available(self) -> None:
        with engine_answers(image=self.image):
            self.client.ping()
            self.client.images.get(self.image)

    @property
    def supervisor_id(self) -> str:
        return self._label

    @property
    def work_root(self) -> Path:
        """Where run folders (and sessions', infrastructure.sandbox.sessions) are made."""
        return self._work_root

    def ledger_identity(self) -> str | None:
        """The identity of the ledger this sandbox's containers are labelled with."""
        return self._ledger_identity()

    def is_orphaned(self, supervisor_id: str) -> bool:
        return supervisor_gone(supervisor_id)

    # --- runtimes: runc, or gVisor's runsc --------------------------------------------------

    def gvisor(self) -> dict[str, Any]:
        """gvisor_status() of this engine, asked at most every half minute."""
        now = time.monotonic()
        if self._gvisor is None or now - self._gvisor[0] > STATUS_TTL_S:
            self._gvisor = (now, gvisor_status(self.client))
        return self._gvisor[1]

    def describe_runtimes(self) -> dict[str, Any]:
        return {GVISOR_RUNTIME: self.gvisor()}

    def choose_runtime(self, requested: str, network: NetworkRequest) -> dict[str, Any]:
        return choose_runtime(
            requested, network, host_visible=self._host_visible, in_container=self.in_container, gvisor=self.gvisor
        )

    # --- admission and creation -------------------------------------------------------------

    def prepare(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        floor: ResourceLimits,
        network: NetworkRequest = NetworkRequest(),
        runtime: str = "runc",
        *,
        files: Mapping[str, bytes] | None = None,
        image: str = "default",
    ) -> PreparedRun:
        tag = self.image if image == "default" else self.images.get(image)
        if tag is None:
            raise SandboxUnavailable(f"this sandbox has no image named {image!r} (images: in policies/limits.yaml)")
        self._events.start()
        prepared = self._prepare(execution_id, code, limits, floor, network, runtime, tag)
        # The inputs go into the run's folder once it is made (pooled or not): the runner, started
        # or given its run only later, copies them into the working directory (workspace.py).
        workspace = prepared.handle.workspace = RunWorkspace(self.file_bounds, files or {})
        if files or prepared.handle.gvisor:
            try:
                with refused("the input files could not be placed", also=(OSError,)):
                    place_inputs(prepared.handle.workdir, files or {}, workspace, gvisor=prepared.handle.gvisor)
            except SandboxUnavailable:
                self.discard(prepared)
                raise
        return prepared

    def _prepare(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        floor: ResourceLimits,
        network: NetworkRequest,
        runtime: str,
        tag: str,
    ) -> PreparedRun:
        chosen = self.choose_runtime(runtime, network)

        def create(fitted: ResourceLimits, host: dict[str, Any]) -> PreparedRun:
            return self._create(execution_id, code, fitted, host, network, chosen, tag)

        if self._pool.specs:
            return self._pool.prepare(execution_id, code, limits, floor, network, chosen, create, tag)

        def attempt(arrived: float) -> PreparedRun:
            # Without a pool: a container made for this run alone (the path before the pool, unchanged).
            fitted, host = cap_to_host(limits, floor, self._room_details()[0], self.host_policy)
            return create(fitted, {**host, "waited_s": round(time.monotonic() - arrived, 3)})

        return self._admission.admit(attempt)

    def _room_details(self) -> tuple[HostRoom, dict[str, int]]:
        return self._room_count(self.client)

    def _create(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        host: dict[str, Any],
        network: NetworkRequest,
        runtime: dict[str, Any],
        tag: str = "",
    ) -> PreparedRun:
        """A container made for this run, started idle (the keeper ends it at the run's deadline);
        with ``--network deps``, its proxy and their network too."""
        workdir = Path(tempfile.mkdtemp(prefix=f"{execution_id}-", dir=self._work_root))
        gvisor = runtime["name"] == GVISOR_RUNTIME
        handle = RunHandle(workdir=workdir, network=network, gvisor=gvisor)
        try:
            with refused("Docker refused to create the sandbox"):
                write_files(workdir, {"main.py": code, "runner.py": RUNNER_SOURCE, **(GVISOR_FILES if gvisor else {})})
                workdir.chmod(0o755)
                handle.feed = RecordFeed(workdir)
                keeper_s = keeper_seconds(limits)
                labels = {
                    LABEL_MANAGED: "1", LABEL_EXECUTION: execution_id, LABEL_SUPERVISOR: self._label,
                    LABEL_DEADLINE: f"{time.time() + keeper_s:.1f}", **ledger_labels(self._ledger_identity()),
                }
                network_options: dict[str, Any] = {"network_disabled": True}
                environment: dict[str, str] = {}
                volumes = {str(workdir): {"bind": "/sandbox", "mode": "ro"}}
                if network.mode is NetworkMode.DEPS:
                    start_egress(
                        self.client, handle, execution_id, labels,
                        proxy_image=self.proxy_image, upstream_network=self.upstream_network,
                    )
                    network_options, environment, pip = sandbox_options(handle)
                    volumes.update(pip)
                handle.container = self.client.containers.create(
                    tag or self.image,
                    # The keeper: when it ends, the init ends and every process of the run with it.
                    command=["sleep", f"{keeper_s:g}"],
                    **hardened(limits, gvisor, runtime, labels, volumes, environment, cpu_rlimit=True),
                    **network_options,
                )
                handle.container.start()
                handle.container.reload()
                if not gvisor:
                    # Held from now on: a recycled pid can never turn this into the host's root. (Under
                    # gVisor that root is gVisor's own, not the container's: the survey runs inside.)
                    handle.root = ContainerRoot(int(handle.container.attrs["State"]["Pid"]))
                if handle.proxy is not None:
                    # The proxy boots (about a second of imports) while the sandbox is made; wait only now.
                    wait_for_proxy(handle)
        except SandboxUnavailable:
            discard(handle)  # what was made so far: nothing of a refused run is left behind
            raise
        return PreparedRun(
            container_id=handle.container.id, image=tag or self.image, limits=limits, host=host, handle=handle, runtime=runtime
        )

    # --- one run --------------------------------------------------------------------------

    def run(self, prepared: PreparedRun, observer: Observer, output: OutputListener | None = None) -> RunOutcome:
        return self._supervisor.run(prepared, observer, output)

    def discard(self, prepared: PreparedRun) -> None:
        handle = prepared.handle

        def remove() -> None:
            discard(handle)
            if handle.pooled:
                self._pool.wake()  # a new one is made in the background, once this one is gone

        self._removals.remove(remove)

    def pool_status(self) -> dict[str, Any]:
        return self._pool.status()

    def describe_images(self) -> dict[str, Any]:
        """Each image a run may have, by name: its tag and whether the engine holds it."""
        described = {}
        for name, tag in {"default": self.image, **self.images}.items():
            with BestEffort() as attempt:
                self.client.images.get(tag)
            described[name] = {"tag": tag, "present": not attempt.failed}
        return described

    def close(self) -> None:
        self._events.close()
        self._removals.close()
        self._learning.close()
        self._pool.close()
        self._engine.close()

    # --- cleaning up after others ---------------------------------------------------------------

    def use_ledger(self, identity: Callable[[], str | None]) -> None:
        """The identity of the ledger this sandbox's runs are recorded on (the composition root
        wires it): labelled on each container made from now on, and what the sweeps keep to."""
        self._ledger_identity = identity

    def describe_execution(self, execution_id: str) -> dict[str, Any]:
        return cleanup.describe_execution(self.client, execution_id)

    def orphaned_executions(self) -> list[str]:
        return cleanup.orphaned_executions(self.client, self._ledger_identity())

    def remove_execution(self, execution_id: str) -> int:
        return cleanup.remove_execution(self.client, self._work_root, execution_id)

    def remove_leftovers(self) -> int:
        return cleanup.remove_leftovers(self.client, self._work_root, self._ledger_identity())
