"""Reads policies/ledger.yaml: when to seal checkpoints, and where retention archives go."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field

from mai_safety.application.audit import LedgerPolicy
from mai_safety.application.ports import KeyStore
from mai_safety.domain.checkpoint import CheckpointRule

# The same strict model and loader as the other policy files, so that errors read the same way
# (file, key, what was expected).
from ..policy_files import load as load_policy_file
from ..policy_loader import _Strict as Strict


class _Checkpoints(Strict):
    every_events: int = Field(gt=0, le=1_000_000)
    every_seconds: float = Field(gt=0, le=7 * 24 * 3600)
    endings_within_seconds: float = Field(default=0.2, ge=0, le=60)


class _Retention(Strict):
    archive_after_days: float = Field(default=30, gt=0, le=100 * 365)
    archive_dir: str = Field(default="archive", min_length=1)


class _LedgerFile(Strict):
    version: Literal[1]
    checkpoints: _Checkpoints
    retention: _Retention = _Retention()


@dataclass(frozen=True)
class LedgerConfig:
    policy: LedgerPolicy
    archive_dir: Path


def load_ledger_policy(policies_dir: Path, data_dir: Path, keys: KeyStore) -> LedgerConfig:
    loaded: _LedgerFile = load_policy_file(policies_dir / "ledger.yaml", _LedgerFile)
    archive_dir = Path(loaded.retention.archive_dir).expanduser()
    return LedgerConfig(
        policy=LedgerPolicy(
            rule=CheckpointRule(
                loaded.checkpoints.every_events,
                loaded.checkpoints.every_seconds,
                loaded.checkpoints.endings_within_seconds,
            ),
            keys=keys,
            archive_after_days=loaded.retention.archive_after_days,
        ),
        archive_dir=archive_dir if archive_dir.is_absolute() else data_dir / archive_dir,
    )
