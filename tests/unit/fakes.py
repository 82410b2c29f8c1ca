"""Fakes of the ports, each subclassing the real port so that a changed contract breaks them."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import Assessor, BlobStore, BlobTooLarge, Observer, OutputListener, PackageIndex, PreparedRun, RunOutcome, Sandbox
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.network import NetworkRequest
from mai_safety.domain.output import blob_sha256
from mai_safety.domain.supervision import Usage


class FakeAssessor(Assessor):
    """Rates every submission at a fixed level."""

    def __init__(self, level: RiskLevel = RiskLevel.LOW) -> None:
        self.level = level
        self.seen: list[Submission] = []

    def assess(self, submission: Submission) -> Assessment:
        self.seen.append(submission)
        findings = () if self.level is RiskLevel.LOW else (Finding("fake", "F1", self.level, "fake finding"),)
        return Assessment(level=self.level, findings=findings, analyzers=("fake",))


#: One modest reading, as a short run gives (pass it as ``samples`` for a run that is sampled).
ONE_SAMPLE = (Usage(0.01, 0.001, 2**20, 2**20, 1, 0, False, 6),)


class FakeSandbox(Sandbox):
    """Pretends to run; records what it was asked to do. While it "runs" it hands ``samples`` to
    the observer, as the real sandbox does, and stops as it does when the observer says so
    (ending the run as ``cancelled``); ``during_run`` is called before the first sample (a test's
    cancel, or the supervisor's death, from another writer)."""

    def __init__(
        self, outcome: RunOutcome | None = None, available: bool = True, samples: tuple[Usage, ...] = ()
    ) -> None:
        self.outcome = outcome or RunOutcome(0, "hello\n", "", 6, False, 0.01)
        self.available = available
        self.samples = samples
        self.during_run: Callable[[PreparedRun], None] | None = None
        self.observed: list[bool] = []  # what the observer answered, sample by sample
        self.removed: list[str] = []
        self.orphans: list[str] = []  # execution ids whose containers outlive their supervisor
        self.supervisor = "fake-supervisor"  # change it to play a later process, this one gone
        self.prepared: list[tuple[str, ResourceLimits]] = []
        self.runtimes: list[str] = []
        self.networks: list[NetworkRequest] = []
        self.discarded: list[str] = []
        self.files: list[dict[str, bytes]] = []  # the files each run was given

    def check_available(self) -> None:
        if not self.available:
            raise SandboxUnavailable("fake engine is off")

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
    ) -> PreparedRun:
        self.check_available()
        self.prepared.append((execution_id, limits))
        self.files.append(dict(files or {}))
        self.runtimes.append(runtime)
        self.networks.append(network)
        return PreparedRun(
            container_id=f"fake-{len(self.prepared)}", image="fake:1", limits=limits,
            runtime={"name": "runc" if runtime == "auto" else runtime, "requested": runtime},
        )

    def run(self, prepared: PreparedRun, observer: Observer, output: OutputListener | None = None) -> RunOutcome:
        if self.during_run is not None:
            self.during_run(prepared)
        for usage in self.samples:
            go_on = observer(usage)
            self.observed.append(go_on)
            if not go_on:
                return RunOutcome(None, "", "", 0, False, usage.elapsed_s, termination_reason="cancelled", detail="cancelled")
        return self.outcome

    def discard(self, prepared: PreparedRun) -> None:
        self.discarded.append(prepared.container_id)

    @property
    def supervisor_id(self) -> str:
        return self.supervisor

    def is_orphaned(self, supervisor_id: str) -> bool:
        return supervisor_id != self.supervisor_id

    def remove_execution(self, execution_id: str) -> int:
        self.removed.append(execution_id)
        return 0

    def orphaned_executions(self) -> list[str]:
        return list(self.orphans)

    def remove_leftovers(self) -> int:
        return 0


class FakePackageIndex(PackageIndex):
    """One index, ``http://index.test/simple``; a requirement is any name without a URL or path."""

    def __init__(self, url: str = "http://index.test/simple", host: str = "index.test") -> None:
        self.url = url
        self.host = host

    def index_urls(self) -> tuple[str, ...]:
        return (self.url,)

    def hosts(self) -> tuple[str, ...]:
        return (self.host,)

    def check_requirement(self, entry: str) -> str:
        if "/" in entry or ":" in entry:
            raise InvalidSubmission(f"requirement {entry!r} points at a URL or path: name a package from the index instead")
        return entry.strip()


class FakeBlobStore(BlobStore):
    """Blobs in a dict; ``before_put`` is called before each put is kept (to see what the ledger
    held then), and ``failing`` makes every put raise, as a database that went away would."""

    def __init__(self) -> None:
        self.blobs: dict[str, bytes] = {}
        self.puts: list[str] = []
        self.before_put: Callable[[bytes], None] | None = None
        self.failing: Exception | None = None

    def put(self, data: bytes) -> str:
        if self.failing is not None:
            raise self.failing
        if self.before_put is not None:
            self.before_put(data)
        sha256 = blob_sha256(data)
        self.blobs.setdefault(sha256, bytes(data))  # insert if absent, as the real stores do
        self.puts.append(sha256)
        return sha256

    def get(self, sha256: str, max_bytes: int) -> bytes | None:
        data = self.blobs.get(sha256)
        if data is not None and len(data) > max_bytes:
            raise BlobTooLarge(sha256, len(data), max_bytes)
        return data


class ManualTimers:
    """Timers that fire only when the test says so (the sealing's ``start_timer``)."""

    def __init__(self) -> None:
        self.pending: list[ManualTimer] = []

    def __call__(self, delay: float, then: Callable[[], None]) -> ManualTimer:
        timer = ManualTimer(self, delay, then)
        self.pending.append(timer)
        return timer

    def fire_next(self) -> None:
        """What the oldest timer still armed does when its time comes."""
        self.pending.pop(0).then()


class ManualTimer:
    def __init__(self, timers: ManualTimers, delay: float, then: Callable[[], None]) -> None:
        self.timers, self.delay, self.then = timers, delay, then

    def cancel(self) -> None:
        if self in self.timers.pending:
            self.timers.pending.remove(self)

    def join(self, timeout: float | None = None) -> None:
        return None
