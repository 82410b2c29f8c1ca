"""What requests may carry. Unknown fields are refused (``extra="forbid"``): in particular no body
can name an actor or a principal; who acts is the token's."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from mai_safety.domain.levels import Provenance
from mai_safety.domain.network import NetworkMode

Label = Field(default=None, max_length=200, description="recorded as given, never used for a decision")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RequestedLimitsModel(_Strict):
    """Lower the limits within what the policy grants the code's trust level."""

    cpus: float | None = Field(default=None, gt=0)
    memory_bytes: int | None = Field(default=None, gt=0)
    pids: int | None = Field(default=None, gt=0)
    timeout_s: float | None = Field(default=None, gt=0)
    output_bytes: int | None = Field(default=None, gt=0)
    cpu_seconds: float | None = Field(default=None, gt=0)


class AssessmentRequest(_Strict):
    code: str = Field(description="the Python program")
    provenance: Provenance = Provenance.MAI


class InputFileModel(_Strict):
    """A file the run is given, in its working directory (names and sizes: policy ``files:``)."""

    name: str = Field(max_length=1024, description="relative to the working directory, e.g. data.csv or in/data.csv")
    content_base64: str = Field(description="the file's bytes, base64 (RFC 4648, standard alphabet)")


class ExecutionRequest(_Strict):
    code: str = Field(description="the Python program")
    provenance: Provenance = Provenance.MAI
    limits: RequestedLimitsModel = Field(default_factory=RequestedLimitsModel)
    network: NetworkMode = NetworkMode.NONE
    requirements: list[str] = Field(default_factory=list, max_length=50)
    task_id: str | None = Label
    session_id: str | None = Label
    on_behalf_of: str | None = Field(default=None, max_length=200, description="the end user the caller acts for: recorded, never used for a decision")
    wait_s: float | None = Field(default=None, ge=0, description="how long to wait for the end (the server caps it); past it the answer is 202")
    revises: str | None = Field(default=None, max_length=64, description="the execution this code revises: a diff against its code is recorded")
    image: str = Field(default="default", max_length=64, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="the sandbox image by name: default, or one the policy grants (data: numpy, pandas, matplotlib, scipy)")
    files: list[InputFileModel] = Field(default_factory=list, max_length=10_000, description="files placed in the run's working directory; a .py among them is judged with the code")


class PolicyRequest(_Strict):
    """A policy folder: each file's name relative to it (``gate.yaml``, ``semgrep/risky.yaml``) to its text."""

    files: dict[str, str] = Field(min_length=1, max_length=64)


class ConfirmRequest(_Strict):
    explanation: str = Field(default="", max_length=4000)
    on_behalf_of: str | None = Field(default=None, max_length=200)
    wait_s: float | None = Field(default=None, ge=0)


class OverrideRequest(_Strict):
    explanation: str = Field(min_length=1, max_length=4000, pattern=r"\S", description="why running this BLOCKED code is safe")
    on_behalf_of: str | None = Field(default=None, max_length=200)
    wait_s: float | None = Field(default=None, ge=0)


class DenyRequest(_Strict):
    reason: str = Field(default="", max_length=4000)


class PendingExecution(BaseModel):
    """Answered with 202 when the wait ended before the execution did: follow ``Location``."""

    execution_id: str
    status: str
