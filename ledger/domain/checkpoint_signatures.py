"""Checking checkpoints' signatures for a ledger verifier: each one once, and saying why one fails.

The check itself (Ed25519) is infrastructure's, handed in as ``signature_valid``; None means no
public key is at hand, so signatures are left unchecked and ``unchecked`` says so.
"""

from __future__ import annotations

from collections.abc import Callable

from .chain import ProblemKind
from .signed_checkpoint import Checkpoint
from .verification_problems import ProblemLog

SignatureCheck = Callable[[Checkpoint], bool]
#: Finds another checkpoint (by sequence) carrying this signature: a replayed one.
SignatureLookup = Callable[[bytes, int], "int | None"]


class CheckpointSignatures:
    """Signature checks, remembered per whole checkpoint: a signature is valid only with its statement."""

    def __init__(
        self, signature_valid: SignatureCheck | None, same_signature: SignatureLookup | None, problems: ProblemLog
    ) -> None:
        self._signature_valid = signature_valid
        self._same_signature = same_signature
        self._problems = problems
        self._verified: dict[Checkpoint, bool] = {}
        self.checked = 0
        self.unchecked = False

    def verify(self, checkpoint: Checkpoint) -> bool:
        """Check one signature (once); report a bad one, saying if it was copied from another."""
        if checkpoint in self._verified:
            return self._verified[checkpoint]
        if self._signature_valid is None:
            self.unchecked = True
            return True
        self.checked += 1
        valid = self._signature_valid(checkpoint)
        self._verified[checkpoint] = valid
        if not valid:
            original = self._same_signature(checkpoint.signature, checkpoint.sequence) if self._same_signature else None
            if original is not None:
                self._problems.about_checkpoint(
                    checkpoint,
                    ProblemKind.CHECKPOINT_REPLAYED,
                    f"checkpoint replayed: #{checkpoint.sequence} carries the signature of checkpoint #{original}",
                )
            else:
                self._problems.about_checkpoint(
                    checkpoint,
                    ProblemKind.BAD_SIGNATURE,
                    f"bad signature: checkpoint #{checkpoint.sequence}'s signature does not verify with key "
                    f"{checkpoint.key_id[:16]}: the checkpoint or its signature was changed or forged",
                )
        return valid

    def valid_outside_ledger(self, checkpoint: Checkpoint) -> bool:
        """Check a checkpoint kept outside the ledger, reporting nothing (the caller says where it
        was kept); once found valid, the ledger's own copy of it need not be checked again."""
        if self._signature_valid is None:
            self.unchecked = True
            return True
        known = self._verified.get(checkpoint)
        if known is None:
            self.checked += 1
            known = self._signature_valid(checkpoint)
            if known:
                self._verified[checkpoint] = True
        return known
