"""Signed checkpoints, the rule that seals them and the verifier that checks them, in one place.

The parts live in modules of their own: ``signed_checkpoint`` (the checkpoint and the bytes
signed), ``checkpoint_rule`` (when the service seals) and ``ledger_verifier`` (the walk that checks
a ledger against its checkpoints). This module names them for the code that imports them from here.
"""

from .checkpoint_rule import SEAL_MARGIN_SECONDS, CheckpointRule
from .ledger_verifier import (
    AwaitingSeal,
    LedgerVerifier,
    MacCheck,
    SignatureCheck,
    SignatureLookup,
    merge_by_position,
)
from .signed_checkpoint import (
    CHECKPOINT_VERSIONS,
    CURRENT_CHECKPOINT_VERSION,
    Checkpoint,
    checkpoint_message,
)

__all__ = [
    "CHECKPOINT_VERSIONS",
    "CURRENT_CHECKPOINT_VERSION",
    "SEAL_MARGIN_SECONDS",
    "AwaitingSeal",
    "Checkpoint",
    "CheckpointRule",
    "LedgerVerifier",
    "MacCheck",
    "SignatureCheck",
    "SignatureLookup",
    "checkpoint_message",
    "merge_by_position",
]
