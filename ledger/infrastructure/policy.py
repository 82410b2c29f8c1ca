"""Reads policies/ledger.yaml: when to seal checkpoints, where retention archives go, which
witnesses keep a copy of every checkpoint, and how much output an event keeps inline."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from mai_safety.ledger.application.sealing import LedgerPolicy
from mai_safety.ledger.application.ports import KeyStore
from mai_safety.ledger.domain.checkpoint import CheckpointRule
from mai_safety.domain.output import DEFAULT_INLINE_BYTES

# The same strict model and loader as the other policy files, so that errors read the same way
# (file, key, what was expected).
from mai_safety.infrastructure.policies.files import load as load_policy_file
from mai_safety.infrastructure.policies.files import StrictModel as Strict
from .witness import FileWitness, HttpWitness, SyslogWitness, Witness, WitnessSet, WitnessStatus


class _Checkpoints(Strict):
    every_events: int = Field(gt=0, le=1_000_000)
    every_seconds: float = Field(gt=0, le=7 * 24 * 3600)
    endings_within_seconds: float = Field(default=0.2, ge=0, le=60)


class _Retention(Strict):
    archive_after_days: float = Field(default=30, gt=0, le=100 * 365)
    archive_dir: str = Field(default="archive", min_length=1)


class _FileWitness(Strict):
    kind: Literal["file"]
    #: Relative to the state folder ($XDG_STATE_HOME/mai-safety) unless absolute.
    path: str = Field(default="witness/checkpoints.jsonl", min_length=1)


class _HttpWitness(Strict):
    kind: Literal["http"]
    url: str = Field(pattern=r"^https?://[^\s/]+\S*$")
    timeout_seconds: float = Field(default=2.0, gt=0, le=30)


class _SyslogWitness(Strict):
    kind: Literal["syslog"]
    facility: Literal[
        "user", "daemon", "auth", "authpriv", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"
    ] = "user"
    ident: str = Field(default="mai-safety", min_length=1, max_length=32, pattern=r"^[A-Za-z0-9._-]+$")


class _Output(Strict):
    #: Each stream longer than this (UTF-8 bytes) is kept as a blob; the event keeps this much of
    #: it as a preview. Bounded so that an event stays small whatever the output limit.
    inline_bytes: int = Field(default=DEFAULT_INLINE_BYTES, ge=0, le=1024 * 1024)


_Witness = Annotated[_FileWitness | _HttpWitness | _SyslogWitness, Field(discriminator="kind")]


class _LedgerFile(Strict):
    version: Literal[1]
    checkpoints: _Checkpoints
    retention: _Retention = _Retention()
    witnesses: list[_Witness] = Field(default_factory=lambda: [_FileWitness(kind="file")], max_length=8)
    output: _Output = _Output()


@dataclass(frozen=True)
class LedgerConfig:
    policy: LedgerPolicy
    archive_dir: Path
    witnesses: WitnessSet


def default_state_dir() -> Path:
    return Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "mai-safety"


def check_ledger_file(policies_dir: Path) -> None:
    """Validate ledger.yaml alone (``policy validate``): no key or witness is opened."""
    load_policy_file(policies_dir / "ledger.yaml", _LedgerFile)


def load_ledger_policy(policies_dir: Path, data_dir: Path, keys: KeyStore, *, state_dir: Path | None = None) -> LedgerConfig:
    """``state_dir`` (default ``$XDG_STATE_HOME/mai-safety``) holds the default file witness."""
    loaded: _LedgerFile = load_policy_file(policies_dir / "ledger.yaml", _LedgerFile)
    archive_dir = Path(loaded.retention.archive_dir).expanduser()
    state = state_dir or default_state_dir()
    witnesses = WitnessSet(
        [_witness(entry, state) for entry in loaded.witnesses],
        WitnessStatus(state / "witness-status.json"),
        close_timeout=max([2.0, *(entry.timeout_seconds + 1 for entry in loaded.witnesses if isinstance(entry, _HttpWitness))]),
    )
    return LedgerConfig(
        policy=LedgerPolicy(
            rule=CheckpointRule(
                loaded.checkpoints.every_events,
                loaded.checkpoints.every_seconds,
                loaded.checkpoints.endings_within_seconds,
            ),
            keys=keys,
            archive_after_days=loaded.retention.archive_after_days,
            witnesses=witnesses,
            inline_output_bytes=loaded.output.inline_bytes,
        ),
        archive_dir=archive_dir if archive_dir.is_absolute() else data_dir / archive_dir,
        witnesses=witnesses,
    )


def _witness(entry: _FileWitness | _HttpWitness | _SyslogWitness, state_dir: Path) -> Witness:
    if isinstance(entry, _FileWitness):
        path = Path(entry.path).expanduser()
        return FileWitness(path if path.is_absolute() else state_dir / path)
    if isinstance(entry, _HttpWitness):
        return HttpWitness(entry.url, entry.timeout_seconds)
    return SyslogWitness(entry.facility, entry.ident)
