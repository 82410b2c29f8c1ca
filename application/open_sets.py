"""Which executions are open, kept by the ledger as it writes (docs/decisions/0019).

Recovery asks which executions are running (Started, not yet ended) and which are pending
(assessed or answered, neither waiting for a person nor started nor ended), the sweeper which await
an answer (OverrideRequested, not yet answered or ended). Both used to page through every such
notification ever written, so a start cost more the older the ledger. Now the recorders keep an
index of open executions in the same transaction as the events that open and close them: the
question costs what is open, not what was ever written.

The index is a convenience, never a fact: nothing in it is hashed or signed, ``audit verify``
does not rely on it, and recovery still also looks for containers of this ledger whose
execution is not in it (a row removed underneath hides nothing that is still running).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.utils import get_topic

from mai_safety.domain.execution import Execution


@dataclass(frozen=True)
class OpenSet:
    """An execution is in the set named ``kind`` from its ``opened_by`` event (a topic), or one
    of ``also_opened_by``, until one of ``closed_by``."""

    kind: str
    opened_by: str
    closed_by: tuple[str, ...]
    also_opened_by: tuple[str, ...] = ()

    @property
    def openers(self) -> tuple[str, ...]:
        return (self.opened_by, *self.also_opened_by)

    @property
    def topics(self) -> tuple[str, ...]:
        return (*self.openers, *self.closed_by)


RUNNING = OpenSet(
    "running", get_topic(Execution.Started), (get_topic(Execution.Completed), get_topic(Execution.Terminated))
)
AWAITING = OpenSet(
    "awaiting",
    get_topic(Execution.OverrideRequested),
    (get_topic(Execution.Overridden), get_topic(Execution.Completed), get_topic(Execution.Terminated)),
)
#: Recorded and on its way to start, waiting for nobody: the process that wrote Assessed (or the
#: answer, Overridden) is to start it now. Whoever wrote the opening event is kept beside the row
#: (its holder): if that process is gone, nobody ever will (application.abandoned).
PENDING = OpenSet(
    "pending",
    get_topic(Execution.Assessed),
    (
        get_topic(Execution.OverrideRequested),
        get_topic(Execution.Started),
        get_topic(Execution.Completed),
        get_topic(Execution.Terminated),
    ),
    also_opened_by=(get_topic(Execution.Overridden),),
)
OPEN_SETS: tuple[OpenSet, ...] = (RUNNING, AWAITING, PENDING)


class OpenExecutions(ABC):
    """A recorder that keeps the open sets: every append that opens or closes an execution
    changes the index in its own transaction; a set not marked as read through (a ledger
    written before the index, or an index emptied) is read through, under the writers' lock,
    when it is next asked for."""

    #: Who writes through this recorder (a supervisor id), kept beside each row it opens; None
    #: where nobody said (a row read through the events has no holder either).
    holder: str | None = None

    @abstractmethod
    def open_ids(self, open_set: OpenSet) -> list[str]:
        """The ids (hyphenated UUID text) of the executions open in that set."""

    @abstractmethod
    def open_holders(self, open_set: OpenSet) -> dict[str, str | None]:
        """The executions open in that set, each with the holder that opened it (None: unknown)."""


def replay(open_set: OpenSet, events: Iterable[tuple[str, str]]) -> set[str]:
    """The set as ``events`` (execution id, topic), in ledger order, leave it."""
    members: set[str] = set()
    for originator, topic in events:
        if topic in open_set.openers:
            members.add(originator)
        elif topic in open_set.closed_by:
            members.discard(originator)
    return members


def scan_open_ids(recorder: ApplicationRecorder, open_set: OpenSet, page: int = 1000) -> set[UUID]:
    """The set read from every notification of its topics: what a recorder without the index
    answers with (and what the start-up bench compares the index against)."""
    start: int | None = None
    events: list[tuple[str, str]] = []
    while True:
        notifications = recorder.select_notifications(
            start=start, limit=page, topics=list(open_set.topics), inclusive_of_start=False
        )
        events += [(str(notification.originator_id), notification.topic) for notification in notifications]
        if len(notifications) < page:
            return {UUID(originator) for originator in replay(open_set, events)}
        start = notifications[-1].id


def open_ids(recorder: ApplicationRecorder, open_set: OpenSet) -> list[UUID]:
    """The executions open in that set, in id order: from the ledger's index of open executions,
    which costs what is open; a recorder without one is read through (docs/decisions/0019)."""
    if isinstance(recorder, OpenExecutions):
        return sorted(UUID(member) for member in recorder.open_ids(open_set))
    return sorted(scan_open_ids(recorder, open_set))


def index_changes(
    sets: Sequence[OpenSet], rows: Iterable[tuple[str, str]]
) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """What appending ``rows`` (execution id, topic), in order, does to the index: for each row
    that changes it, (execution id, the sets it enters, the sets it leaves)."""
    changes = []
    for originator, topic in rows:
        enters = tuple(open_set.kind for open_set in sets if topic in open_set.openers)
        leaves = tuple(open_set.kind for open_set in sets if topic in open_set.closed_by)
        if enters or leaves:
            changes.append((originator, enters, leaves))
    return changes


def open_holders(recorder: ApplicationRecorder, open_set: OpenSet) -> dict[UUID, str | None]:
    """The executions open in that set with their holders (None where the index does not say)."""
    if isinstance(recorder, OpenExecutions):
        return {UUID(member): holder for member, holder in recorder.open_holders(open_set).items()}
    return {member: None for member in scan_open_ids(recorder, open_set)}
