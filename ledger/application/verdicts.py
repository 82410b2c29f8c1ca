"""What the audit's walks share (ledger/application/verification.py, bundles.py, replay.py): the
report a walk ends with, the check of a checkpoint's signature, an execution's id as the ledger
writes it, and ``Audit``: what an export or a replay asks of the audit over one ledger. Bundles
and replay depend on this module, never on ``LedgerAudit`` itself, so that the audit can front
them without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol
from uuid import UUID

from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.reports import VerificationReport
from mai_safety.ledger.domain.chain import ChainRecord, Problem
from mai_safety.ledger.domain.checkpoint import Checkpoint, LedgerVerifier, MacCheck

from .blobs import BlobCheck
from .ports import BlobStore, Ledger, LedgerHead, PublicKey, WitnessedCheckpoint
from .sealing import LedgerPolicy


class Audit(Protocol):
    """What an export (bundles.py) and a replay (replay.py) ask of the audit (``LedgerAudit``)."""

    policy: LedgerPolicy | None
    blobs: BlobStore | None

    def ledger(self) -> Ledger: ...

    def public_key(self, *, create: bool = True) -> PublicKey | None: ...

    def mac_check(self, key: PublicKey | None, notes: list[str]) -> MacCheck | None: ...

    def walk_range(
        self,
        ledger: Ledger,
        head: LedgerHead,
        from_position: int | None,
        to_position: int | None,
        execution: str | None,
        kept: Checkpoint | None,
        witnessed: Checkpoint | None = None,
    ) -> tuple[int, int, bool]: ...

    def verifier_from(
        self,
        ledger: Ledger,
        start: int,
        key: PublicKey | None,
        *,
        kept: Checkpoint | None = None,
        witnessed: WitnessedCheckpoint | None = None,
        mac_valid: MacCheck | None = None,
    ) -> LedgerVerifier: ...

    def checkpoints_between(
        self, ledger: Ledger, head: LedgerHead, start: int, end: int, reached_head: bool
    ) -> Iterable[Checkpoint]: ...

    def verify(
        self,
        *,
        from_position: int | None = None,
        to_position: int | None = None,
        execution: str | None = None,
        kept: Checkpoint | None = None,
        public_key: PublicKey | None = None,
    ) -> VerificationReport: ...

    def decode(self, record: ChainRecord) -> Any: ...


def execution_id_of(execution: str) -> str:
    try:
        return str(UUID(str(execution)))
    except ValueError:
        raise ExecutionNotFound(f"{execution!r} is not an execution id (a UUID)") from None


def signature_check(key: PublicKey | None) -> Callable[[Checkpoint], bool] | None:
    if key is None:
        return None
    return lambda checkpoint: key.verify(checkpoint.message(), checkpoint.signature)


def verification_report(
    verifier: LedgerVerifier,
    scope: dict[str, Any],
    key: PublicKey | None,
    *,
    head_hash: bytes | None,
    notes: list[str] | None = None,
    extra: list[Problem] | None = None,
    witnessed: WitnessedCheckpoint | None = None,
    blobs: BlobCheck | None = None,
) -> VerificationReport:
    problems = [*verifier.problems, *(extra or [])]
    position, last_hash = verifier.chain.head
    unchecked = []
    if verifier.signatures_unchecked:
        unchecked.append(
            "checkpoint signatures: there is no public key (the signing key file is missing): "
            "pass --public-key FILE, exported with `mai-safety audit public-key`"
        )
    if blobs is not None and blobs.unchecked:
        unchecked.append(f"output blobs: {blobs.unchecked} reference(s) to output kept as a blob, and no blob store here")
    return VerificationReport(
        intact=not problems,
        checked=verifier.chain.checked,
        head_position=position,
        head_hash=(head_hash or last_hash).hex(),
        problems=[problem.describe() for problem in problems],
        details=[problem.to_dict() for problem in problems],
        scope=scope,
        checkpoints=verifier.checkpoints_checked,
        signatures=verifier.signatures_checked,
        newest_checkpoint=verifier.newest.to_dict() if verifier.newest else None,
        key_id=key.key_id if key else None,
        complete=not unchecked,
        unchecked=unchecked,
        awaiting_seal=verifier.awaiting_seal.position if verifier.awaiting_seal else None,
        macs=verifier.macs_checked,
        witnessed=(
            {"witness": witnessed.witness, "sequence": witnessed.checkpoint.sequence, "position": witnessed.checkpoint.position}
            if witnessed is not None
            else None
        ),
        notes=list(notes or []),
    )


def with_problem(report: VerificationReport, problem: Problem) -> VerificationReport:
    data = report.to_dict()
    data.update(
        intact=False,
        problems=[*report.problems, problem.describe()],
        details=[*report.details, problem.to_dict()],
    )
    return VerificationReport(**data)


__all__ = ["Audit", "execution_id_of", "signature_check", "verification_report", "with_problem"]
