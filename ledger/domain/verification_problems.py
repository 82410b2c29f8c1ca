"""The problems a ledger verifier finds beyond the chain's own, in the order it finds them.

One log is shared by the verifier's parts (checkpoint order, signatures, kept checkpoints, event
MACs), so problems keep the order in which the walk met them.
"""

from __future__ import annotations

from .chain import Problem, ProblemKind
from .signed_checkpoint import Checkpoint


def short_digest(digest: bytes) -> str:
    """The first 16 hex digits of a digest: enough to tell two apart in a message."""
    return digest.hex()[:16]


class ProblemLog:
    """Problems in the order found; about any one checkpoint, only the first (the most telling)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self._reported: set[int] = set()

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def first_about(self, sequence: int) -> bool:
        """Whether no problem about checkpoint ``sequence`` was claimed yet; claims it if so."""
        if sequence in self._reported:
            return False
        self._reported.add(sequence)
        return True

    def about_checkpoint(self, checkpoint: Checkpoint, kind: ProblemKind, message: str, position: int | None = None) -> None:
        """A problem with ``checkpoint``, at its position unless told; dropped if one was reported."""
        if self.first_about(checkpoint.sequence):
            self.problems.append(
                Problem(kind, message, checkpoint.position if position is None else position, checkpoint=checkpoint.sequence)
            )
