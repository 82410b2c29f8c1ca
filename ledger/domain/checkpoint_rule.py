"""When the service seals: the rule that says a checkpoint is due (docs/decisions/0009).

The rule is policy (every so many events, every so many seconds, on each execution's ending);
the verifier also asks it what may lie unsigned after a ledger's newest checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .chain import ChainRecord, Problem, ProblemKind
from .signed_checkpoint import Checkpoint

#: Beyond its deferral, how long a deferred seal may take (the writers' lock, a busy machine).
SEAL_MARGIN_SECONDS = 10.0


@dataclass(frozen=True)
class CheckpointRule:
    """When the service seals: when an execution ends, every ``every_events`` events, and on the
    first write after ``every_seconds`` without a checkpoint. Nothing is sealed twice.

    ``endings_within`` (seconds) is how an ending is sealed: 0 in the very transaction that
    records it; otherwise by a checkpoint made at most that long after, which covers every
    ending of the interval with one signature (docs/decisions/0009). The count and time rules are
    always applied in the writing transaction.
    """

    every_events: int
    every_seconds: float
    endings_within: float = 0.0
    seal_margin: float = SEAL_MARGIN_SECONDS

    @property
    def seals_endings_at_once(self) -> bool:
        return self.endings_within <= 0

    @property
    def unsealed_ending_grace(self) -> float:
        """How old an ending may be and still be awaiting its checkpoint: the deferral, and a
        margin for a seal that waits for the writers' lock or a busy machine."""
        return 0.0 if self.seals_endings_at_once else self.endings_within + self.seal_margin

    def due(self, *, last: Checkpoint | None, head_position: int, now: datetime, execution_ended: bool) -> str | None:
        """Why a checkpoint is due at ``head_position`` now, or None."""
        covered = last.position if last else 0
        if head_position <= covered:
            return None
        if execution_ended:
            return "execution ended"
        if last is None:
            return "first events"
        if head_position - covered >= self.every_events:
            return f"{head_position - covered} events"
        signed = last.signed_time
        if signed is None or signed.tzinfo is None:
            return "previous checkpoint time unreadable"  # sealing again is the safe answer
        if (now - signed).total_seconds() >= self.every_seconds:
            return f"{self.every_seconds:g} s"
        return None

    def unsigned_tail_problem(
        self, *, newest: Checkpoint | None, last_ending: ChainRecord | None, head_position: int
    ) -> Problem | None:
        """What is wrong with the events after ``newest`` (the checkpoint signing the furthest
        position), if anything: an ending, or ``every_events`` events, no signature covers. An
        ending still awaiting its deferred seal is the caller's to excuse."""
        covered = newest.position if newest else 0
        where = f"the newest checkpoint (#{newest.sequence}) signs position {covered}" if newest else "no checkpoint exists"
        if last_ending is not None and last_ending.position > covered:
            return Problem.at(
                last_ending,
                ProblemKind.NOT_COVERED,
                f"not covered: this execution ended here but {where}; every ending is sealed when it is "
                "recorded or soon after, so later checkpoints were removed, this event was forged, or the "
                "service stopped before sealing it (its next start seals what verifies)",
            )
        if head_position - covered >= self.every_events:
            return Problem(
                ProblemKind.NOT_COVERED,
                f"not covered: {head_position - covered} events after position {covered} carry no signature "
                f"({where}; the policy seals every {self.every_events}): checkpoints were removed",
                position=covered + 1,
            )
        return None
