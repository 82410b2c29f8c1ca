"""The ``PolicySet`` aggregate: the policies in force, as recorded configuration.

One policy set per ledger (a fixed id). Each ``Applied`` event holds everything a replay needs to
rebuild which policy judged what: the version number, the SHA-256 and the text of every policy
file, and a unified diff against the version it replaced. Version 0 is the shipped folder before
anything was applied: it is never recorded ("unrecorded"). The diff and the hashes are computed by
the caller (application.policies) and passed in: the event body only stores them.
"""

from __future__ import annotations

from dataclasses import field
from typing import TypedDict
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from .execution import actor_context

#: The one policy set of a ledger.
POLICY_SET_ID: UUID = uuid5(NAMESPACE_URL, "mai-safety:policy-set")

#: The version of a policy folder that no ``Applied`` event recorded (the shipped policies/).
UNRECORDED = 0


class PolicyFileRecord(TypedDict):
    sha256: str
    text: str


class PolicySet(Aggregate):
    """The versions of the policy applied on this ledger, newest last."""

    class Event(Aggregate.Event):
        actor: str = field(default_factory=actor_context.get, init=False)  # as every event of the ledger

    class Opened(Aggregate.Created, Event):
        """The policy set exists (written with its first ``Applied``)."""

        class_version = 1

    @event(Opened)
    def __init__(self) -> None:
        self.policy_version = UNRECORDED
        self.files: dict[str, PolicyFileRecord] = {}

    @classmethod
    def open(cls) -> "PolicySet":
        return cls._create(cls.Opened, id=POLICY_SET_ID)

    class Applied(Event):
        """A policy folder was applied by the event's actor: ``files`` maps each file's name
        (relative to the folder) to its SHA-256 and text; ``diff`` is the unified diff against the
        version before (``previous_version``; 0: the shipped folder)."""

        class_version = 1
        policy_version: int
        previous_version: int
        files: dict[str, PolicyFileRecord]
        diff: str

    def apply(self, files: dict[str, PolicyFileRecord], diff: str) -> None:
        self._applied(policy_version=self.policy_version + 1, previous_version=self.policy_version, files=files, diff=diff)

    @event(Applied)
    def _applied(self, policy_version: int, previous_version: int, files: dict[str, PolicyFileRecord], diff: str) -> None:
        self.policy_version = policy_version
        self.files = {name: PolicyFileRecord(sha256=record["sha256"], text=record["text"]) for name, record in files.items()}

    @property
    def hashes(self) -> dict[str, str]:
        return {name: record["sha256"] for name, record in sorted(self.files.items())}
