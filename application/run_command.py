"""What a caller asks ``run`` to do, as one value: the code and everything said about it. The
application checks it all before anything is recorded (application.commands)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from mai_safety.domain.levels import Provenance
from mai_safety.domain.limits import RequestedLimits
from mai_safety.domain.network import NetworkMode


@dataclass(frozen=True)
class RunCommand:
    """``code`` with its claimed ``provenance`` and the limits it asks for (``requested``).

    ``source``: how the code is named in messages. ``files``: name to bytes, placed in the run's
    working directory; names and sizes are checked against the policy (domain.files), a ``.py``
    among them is judged with the code. ``image``: the sandbox image by name ("data"), as the
    policy grants the code's trust level.

    ``revises``: the execution this code revises (one the caller may read; else it does not
    exist): ``Assessed`` records a unified diff against its code.

    ``caller``: labels recorded on ``Assessed`` beside the principal (Mai's ``task_id`` and
    ``session_id``, the ``on_behalf_of`` end user), never used for a decision. ``execution_id``
    makes the submission idempotent: if that execution exists, its report is returned and
    nothing new is recorded (the same code is required).

    ``network=NetworkMode.DEPS`` gives the run a read-only egress to the allow-list, and installs
    ``requirements`` (with any ``# requirements:`` lines at the top of the code) before it starts.

    HIGH code runs at once only with ``confirm``; BLOCKED code only with ``override`` (a written
    explanation) from an actor the policy allows. Otherwise the execution waits for ``approve``."""

    code: bytes
    provenance: Provenance = Provenance.MAI
    requested: RequestedLimits = field(default_factory=RequestedLimits)
    source: str = "the code"
    confirm: bool = False
    override: str | None = None
    network: NetworkMode = NetworkMode.NONE
    requirements: tuple[str, ...] | list[str] = ()
    caller: dict[str, str] | None = None
    execution_id: UUID | None = None
    revises: UUID | str | None = None
    files: Mapping[str, bytes] | Sequence[tuple[str, bytes]] | None = None
    image: str = "default"


__all__ = ["RunCommand"]
