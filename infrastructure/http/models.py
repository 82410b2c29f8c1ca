"""What requests may carry. Unknown fields are refused (``extra="forbid"``): in particular no body
can name an actor or a principal; who acts is the token's."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema

from mai_safety.domain.levels import Provenance
from mai_safety.domain.network import NetworkMode
from mai_safety.application.errors import InvalidPolicy

from ..policies.folder import check_names

Label = Field(default=None, max_length=200, description="recorded as given, never used for a decision")


#: What the service assesses: at least one character other than ASCII whitespace, and no NUL; its
#: size in UTF-8 bytes is the server's (``maxLength`` in /openapi.json). These are the schema's
#: only: the domain checks the code itself (domain.assessment), so that a lone surrogate is told as
#: not UTF-8 and an empty program as empty, as the other doors tell them (a constraint here would
#: make pydantic refuse the surrogate first, in its own words).
Code = Field(
    json_schema_extra={"minLength": 1, "pattern": r"^[^\x00]*[^\x00\t\n\x0b\x0c\r ][^\x00]*$"},
    description="the Python program: not empty or only whitespace, no NUL, at most the server's bytes in UTF-8",
)


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
    code: str = Code
    provenance: Provenance = Provenance.MAI


class InputFileModel(_Strict):
    """A file the run is given, in its working directory (names and sizes: policy ``files:``)."""

    name: str = Field(max_length=1024, description="relative to the working directory, e.g. data.csv or in/data.csv")
    content_base64: str = Field(description="the file's bytes, base64 (RFC 4648, standard alphabet)")


class ExecutionRequest(_Strict):
    code: str = Code
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


def _policy_file_name(name: str) -> str:
    """The folder's own rule (check_names), so a refused name is told why in the folder's words."""
    try:
        check_names({name: ""})
    except InvalidPolicy as exc:
        raise ValueError(str(exc)) from None
    return name


#: A policy file's name: the schema says ``NAME.yaml`` or ``semgrep/NAME.yaml`` (the service also
#: takes other printable NAMEs); the service checks infrastructure.policies.folder.check_names.
PolicyFileName = Annotated[
    str,
    AfterValidator(_policy_file_name),
    WithJsonSchema({"type": "string", "pattern": r"^(semgrep/)?[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\.yaml$"}),
]
#: Each file at most 256 KiB in UTF-8, all together at most 1 MiB (the schema can say characters only).
PolicyText = Annotated[str, StringConstraints(max_length=256 * 1024)]


class PolicyRequest(_Strict):
    """A policy folder: each file's name relative to it (``gate.yaml``, ``semgrep/risky.yaml``) to
    its text. What the text must hold is each file's own schema: a file that does not validate is
    a 422 naming it."""

    files: dict[PolicyFileName, PolicyText] = Field(min_length=1, max_length=64)


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
