"""The stored shapes of the events' payloads, as TypedDicts: what each JSON object on the ledger
holds, key by key.

The ledger is forever, so these describe what is already stored (and hashed into the chains): a key
that older events lack is ``NotRequired``, and an event class whose shape must change bumps its
``class_version`` and gains an upcaster (see domain.execution). The value objects that write these
shapes (``Finding``, ``ResourceLimits``, ``NetworkRequest``, ``RunRequest``, ``Usage``) return them
from ``to_dict``; readers index them by key, so a mistyped key fails the type check.
"""

from __future__ import annotations

from typing import Any

# typing_extensions' TypedDict, not typing's: pydantic (the HTTP API's models hold these) reads only
# that one before Python 3.12.
from typing_extensions import NotRequired, TypedDict


class FindingRecord(TypedDict):
    """``Finding.to_dict()``: one thing an analyzer saw, at our level."""

    analyzer: str
    rule_id: str
    level: str  # a RiskLevel's value
    message: str
    line: NotRequired[int]
    column: NotRequired[int]
    snippet: NotRequired[str]
    severity: NotRequired[str]
    confidence: NotRequired[str]
    cwe: NotRequired[str]


class CallerLabels(TypedDict, total=False):
    """Who submitted, and the caller's labels: recorded on ``Assessed``, never used for a decision."""

    principal: str  # the token's principal (service mode); set by the service, never by the caller
    task_id: str
    session_id: str
    on_behalf_of: str  # the end user Mai acts for
    sandbox_session: str  # the session (domain.session) a cell ran in; set by the service, never by the caller


class LimitsRecord(TypedDict):
    """``ResourceLimits.to_dict()``: the limits a run was sized to."""

    cpus: float
    memory_bytes: int
    pids: int
    timeout_s: float
    output_bytes: int
    tmpfs_bytes: int
    cpu_seconds: NotRequired[float]  # absent before CPU time was limited: twice the wall clock per CPU


class RequestedLimitsRecord(TypedDict, total=False):
    """``RequestedLimits.to_dict()``: only what the caller asked for."""

    cpus: float
    memory_bytes: int
    pids: int
    timeout_s: float
    output_bytes: int
    cpu_seconds: float


class NetworkRecord(TypedDict):
    """``NetworkRequest.to_dict()``: the network a run got (``mode`` "none" or "deps")."""

    mode: str
    allow: list[str]
    http_ports: list[int]
    https_ports: list[int]
    max_bytes: int
    max_requests: int
    index_urls: list[str]
    requirements: list[str]


class NoNetworkRecord(TypedDict):
    """What ``Started`` holds when its caller gave no network: the mode alone."""

    mode: str  # "none"


class RunRequestRecord(TypedDict):
    """``RunRequest.to_dict()``: what a waiting execution asked for (``OverrideRequested`` v2)."""

    provenance: str
    trust: str
    requested: RequestedLimitsRecord
    limits: LimitsRecord
    network: NetworkRecord
    image: NotRequired[str]  # a named sandbox image (domain.images); absent: the default


class LimitRange(TypedDict):
    min: LimitsRecord
    max: LimitsRecord


class SizingRecord(TypedDict, total=False):
    """Why a run got its limits, on ``Started``: the trust level, what moved it within its profile,
    what was asked, and the host's room (the sandbox adds ``host``)."""

    trust: str
    provenance: str
    level: str
    complexity: dict[str, int]
    complexity_score: float
    requested: RequestedLimitsRecord
    profile: LimitRange
    sized_when: str  # only for a run sized when it was submitted, before it waited for an answer
    host: dict[str, Any]  # the sandbox's account of the host's room, as it measured it


class RuntimeRecord(TypedDict, total=False):
    """The container runtime a run got (absent from ``Started`` before decision 0013: runc)."""

    name: str
    requested: str


class UsageRecord(TypedDict):
    """``Usage.to_dict()``: one reading of a running execution (``ResourceSampled``)."""

    elapsed_s: float
    cpu_seconds: float
    memory_bytes: int
    memory_peak_bytes: int
    pids: int
    disk_bytes: int
    disk_full: bool
    output_bytes: int
    oom_kills: NotRequired[int]
    pids_limit_hits: NotRequired[int]
    io_read_bytes: NotRequired[int]
    io_write_bytes: NotRequired[int]


class BlobReferenceRecord(TypedDict):
    """Where output too large for the event is kept: its SHA-256 and size (domain.output)."""

    sha256: str
    bytes: int
    unavailable: NotRequired[str]  # only as a report serves it: why the blob could not be read


class FileRecord(TypedDict):
    """One file a run was given (``Assessed.files_in``) or left (an ending's ``files_out``): its
    name in the run's working directory, size, SHA-256, and for an output its media type. The
    bytes are a blob beside the event, named by the SHA-256 (domain.files)."""

    name: str
    bytes: int
    sha256: str
    media_type: NotRequired[str]
    unavailable: NotRequired[str]  # only as a report serves it: why the bytes could not be read


class OutcomeRecord(TypedDict, total=False):
    """How an execution ended, on ``Completed`` and ``Terminated``. A run's outcome holds the
    program's exit and output (``RunOutcome.to_dict()``); one ended before or outside a run holds
    a ``detail`` alone, or what could still be read of its container. ``Terminated`` adds the
    ``termination_reason`` as it is applied."""

    exit_code: int | None
    stdout: str
    stderr: str
    output_bytes: int
    output_truncated: bool
    duration_s: float
    detail: str
    violation: dict[str, Any] | None  # which limit was crossed, as the supervisor measured it
    peaks: dict[str, Any]
    observations: dict[str, Any]
    stdout_blob: BlobReferenceRecord  # output kept beside the event (domain.output)
    stderr_blob: BlobReferenceRecord
    files_out: list[FileRecord]  # the files the run created or changed, kept as blobs (domain.files)
    termination_reason: str
    # a run nobody supervised to its end (recovery): its container as last seen, and its last sample
    container_status: str
    ended_by_deadline: bool
    last_sample: UsageRecord
