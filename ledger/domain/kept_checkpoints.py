"""Checkpoints kept outside the ledger, which the ledger must still hold and extend.

One is the checkpoint the verifier saved earlier (``kept``); the other the newest one a witness
recorded (``witnessed``). Both must carry the trusted key and a valid signature; the ledger must
hold the same checkpoint and the same ledger hash at its position. A ledger that ends before a
kept one lost its tail; one that ends before a witnessed one is ``ledger_behind_witness``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .chain import ChainRecord, Problem, ProblemKind
from .checkpoint_signatures import CheckpointSignatures
from .signed_checkpoint import Checkpoint
from .verification_problems import ProblemLog, short_digest


@dataclass
class KeptCheckpoint:
    """One checkpoint kept outside the ledger: the phrases name where it was kept (``the``: "the
    checkpoint you kept", ...)."""

    checkpoint: Checkpoint
    the: str
    which: str
    one: str
    witness: bool
    trusted: bool = True
    seen: bool = field(default=False)


class KeptCheckpoints:
    """Checks the ledger against the checkpoints kept outside it, as the verifier's walk goes by."""

    def __init__(
        self,
        *,
        kept: Checkpoint | None,
        witnessed: Checkpoint | None,
        witness: str,
        trusted_key_id: str | None,
        signatures: CheckpointSignatures,
        problems: ProblemLog,
    ) -> None:
        self._trusted_key_id = trusted_key_id
        self._signatures = signatures
        self._problems = problems
        self._kept: list[KeptCheckpoint] = []
        if kept is not None:
            self._kept.append(KeptCheckpoint(kept, "the checkpoint you kept", "you kept", "the one you kept", witness=False))
        if witnessed is not None:
            self._kept.append(
                KeptCheckpoint(
                    witnessed, f"the checkpoint {witness} recorded", f"{witness} recorded", f"the one {witness} recorded", witness=True
                )
            )
        for anchor in self._kept:
            anchor.trusted = self._check_signature(anchor)

    def _check_signature(self, anchor: KeptCheckpoint) -> bool:
        kept = anchor.checkpoint

        def refuse(message: str) -> bool:
            self._problems.add(Problem(ProblemKind.BAD_SIGNATURE, message, kept.position, checkpoint=kept.sequence))
            return False

        if self._trusted_key_id is not None and kept.key_id != self._trusted_key_id:
            return refuse(
                f"bad signature: {anchor.the} is signed by key {kept.key_id[:16]}, "
                f"not by the trusted key {self._trusted_key_id[:16]}"
            )
        if not self._signatures.valid_outside_ledger(kept):
            return refuse(f"bad signature: {anchor.the} does not verify: it was changed, or is not ours")
        return True

    def check_record(self, record: ChainRecord) -> None:
        for anchor in self._kept:
            kept = anchor.checkpoint
            if record.position == kept.position and anchor.trusted and record.ledger_hash != kept.ledger_hash:
                # Not one of the chain's own problems: a fork against the ledger's checkpoints is
                # still told apart from a broken chain.
                self._problems.add(
                    Problem.at(
                        record,
                        ProblemKind.CHAIN_FORK,
                        f"chain fork: the ledger no longer extends {anchor.the} (#{kept.sequence}): "
                        f"it signed {short_digest(kept.ledger_hash)}… here, the ledger has {short_digest(record.ledger_hash)}…",
                        checkpoint=kept.sequence,
                    )
                )

    def check_checkpoint(self, checkpoint: Checkpoint) -> None:
        """The ledger's checkpoint with a kept one's sequence must be that very checkpoint."""
        for anchor in self._kept:
            if checkpoint.sequence == anchor.checkpoint.sequence:
                anchor.seen = True
                # A changed signature says more than "differs": check this one's first.
                if checkpoint != anchor.checkpoint and self._signatures.verify(checkpoint):
                    self._problems.about_checkpoint(
                        checkpoint,
                        ProblemKind.CHECKPOINT_MISMATCH,
                        f"checkpoint mismatch: the ledger's checkpoint #{checkpoint.sequence} (position {checkpoint.position}) "
                        f"differs from {anchor.one} (position {anchor.checkpoint.position}, signed {anchor.checkpoint.signed_at})",
                    )

    def finish(self, head_position: int, newest: Checkpoint | None) -> None:
        """After the walk: the ledger must reach every kept checkpoint, and still hold it."""
        for anchor in self._kept:
            self._finish(anchor, head_position, newest)

    def _finish(self, anchor: KeptCheckpoint, head_position: int, newest: Checkpoint | None) -> None:
        kept = anchor.checkpoint
        if not anchor.trusted:
            return
        if kept.position > head_position:
            if anchor.witness:
                kind = ProblemKind.LEDGER_BEHIND_WITNESS
                message = (
                    f"ledger behind witness: the ledger ends at position {head_position}, before {anchor.the} "
                    f"(#{kept.sequence} at position {kept.position}, signed {kept.signed_at}): its tail was cut off "
                    "with its checkpoints, or an older copy of the ledger was put back"
                )
            else:
                kind = ProblemKind.TAIL_TRUNCATED
                message = (
                    f"tail truncated: the ledger ends at position {head_position}, before {anchor.the} "
                    f"(#{kept.sequence} at position {kept.position}): events were removed"
                )
            self._problems.add(Problem(kind, message, position=head_position, checkpoint=kept.sequence))
        elif not anchor.seen:
            its_newest = f" (its newest is #{newest.sequence})" if newest else ""
            if anchor.witness:
                kind = ProblemKind.LEDGER_BEHIND_WITNESS
                message = (
                    f"ledger behind witness: the ledger no longer holds checkpoint #{kept.sequence}, which "
                    f"{anchor.which}{its_newest}: checkpoints were removed, or an older copy of the ledger was put back"
                )
            else:
                kind = ProblemKind.CHECKPOINT_MISSING
                message = f"checkpoint missing: the ledger no longer holds checkpoint #{kept.sequence}, which {anchor.which}{its_newest}"
            self._problems.add(Problem(kind, message, position=kept.position, checkpoint=kept.sequence))
