"""The ``DivergedCode`` aggregate: code whose run was seen doing what its assessment did not predict.

One per code hash (its id is derived from the SHA-256), created with the first divergence of that
code (``Execution.Diverged`` holds each one). Its existence is the floor: from then on, the code is
rated at least HIGH whoever submits it and whatever any cache remembers (application.divergence).
"""

from __future__ import annotations

from dataclasses import field
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from .execution import actor_context


def diverged_code_id(code_sha256: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"mai-safety:diverged-code:{code_sha256}")


class DivergedCode(Aggregate):
    class Event(Aggregate.Event):
        actor: str = field(default_factory=actor_context.get, init=False)

    class Recorded(Aggregate.Created, Event):
        """First seen diverging in ``execution_id``, which had been rated ``level``."""

        class_version = 1
        code_sha256: str
        execution_id: str
        level: str

    @event(Recorded)
    def __init__(self, *, code_sha256: str, execution_id: str, level: str) -> None:
        self.code_sha256 = code_sha256
        self.execution_id = execution_id
        self.level = level

    @classmethod
    def record(cls, code_sha256: str, execution_id: str, level: str) -> "DivergedCode":
        return cls._create(
            cls.Recorded, id=diverged_code_id(code_sha256), code_sha256=code_sha256, execution_id=execution_id, level=level
        )
