"""The ledger's wing, and its one door (docs/decisions/0036, docs/ledger-wing.md).

The wing holds what keeps the ledger: its domain (the chain, checkpoints, the verifier), its
application (sealing, the audit, bundles, replay, blobs, its ports) and its infrastructure (each
backend's eventsourcing factory and recorder, the breaker, the witnesses, the hardening). The
execution side (domain/, application/, infrastructure/) imports the wing only from here: an
application saves with eventsourcing's ``Application.save`` on the recorder its factory built
(``open_ledger``), and audits through ``LedgerAudit``.

The names of the wing's infrastructure are read when first asked for (``__getattr__``), so that
the execution side's application layer, which imports this door, loads no infrastructure.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .application.blobs import keep_output, read_blob, with_full_output
from .application.bundles import verify_bundle
from .application.ports import (
    BlobStore,
    BlobTooLarge,
    ChainSource,
    KeyStore,
    Ledger,
    LedgerHead,
    ProcessWorkLock,
    PublicKey,
    Sealer,
    Signer,
    WitnessedCheckpoint,
    Witnesses,
    WorkLock,
)
from .application.sealing import (
    Clock,
    LedgerPolicy,
    LedgerTampered,
    LedgerWiring,
    StartTimer,
    Timer,
    start_daemon_timer,
    utc_now,
)
from .application.verification import LedgerAudit
from .domain.chain import ChainRecord, EventMac, Problem
from .domain.checkpoint import Checkpoint, CheckpointRule

if TYPE_CHECKING:
    from eventsourcing.persistence import InfrastructureFactory
    from eventsourcing.utils import Environment

    from .infrastructure.answer_watch import ANSWER_SETTING, ANSWER_WITHIN_S
    from .infrastructure.blobs import EVENTS_TABLE
    from .infrastructure.factory import LedgerFactory
    from .infrastructure.policy import LedgerConfig, check_ledger_file, load_ledger_policy
    from .infrastructure.witness import FileWitness

#: The values of eventsourcing's ``PERSISTENCE_MODULE`` that select the ledger's backends.
SQLITE_MODULE = f"{__name__}.infrastructure.sqlite"
POSTGRES_MODULE = f"{__name__}.infrastructure.postgres"

#: The wing's infrastructure, by the module that defines each name (read when first asked for).
_LATER = {
    "ANSWER_SETTING": "answer_watch",
    "ANSWER_WITHIN_S": "answer_watch",
    "EVENTS_TABLE": "blobs",
    "LedgerFactory": "factory",
    "LedgerConfig": "policy",
    "check_ledger_file": "policy",
    "load_ledger_policy": "policy",
    "FileWitness": "witness",
}


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.infrastructure.{module}"), name)


def open_ledger(env: Environment, wiring: LedgerWiring | None = None) -> InfrastructureFactory[Any]:
    """The eventsourcing factory for ``env``'s ``PERSISTENCE_MODULE``: one of the ledger's
    backends, built with ``wiring``; any other module is the library's own factory, with none of
    the ledger's parts (no chain, no seals, no blob store)."""
    from eventsourcing.persistence import InfrastructureFactory

    topic = env.get(InfrastructureFactory.PERSISTENCE_MODULE) or ""
    if topic not in (SQLITE_MODULE, POSTGRES_MODULE):
        return InfrastructureFactory.construct(env)
    factory: InfrastructureFactory[Any] = importlib.import_module(topic).Factory(env, wiring)
    return factory


def ledger_parts(factory: object) -> LedgerFactory | None:
    """The factory's ledger parts (seals, blob store, work lock, identity); None for the library's
    own factories."""
    from .infrastructure.factory import LedgerFactory

    return factory if isinstance(factory, LedgerFactory) else None


def blob_store_of(factory: object) -> BlobStore | None:
    """The blob store the ledger's factory builds in the ledger's database; None without one."""
    parts = ledger_parts(factory)
    return parts.blob_store() if parts is not None else None


def work_lock_of(factory: object) -> WorkLock:
    """The lock for work one process at a time does for the whole ledger."""
    parts = ledger_parts(factory)
    return parts.work_lock() if parts is not None else ProcessWorkLock()


def audit_of(factory: object, mapper: Any, *, blobs: BlobStore | None, clock: Clock = utc_now) -> LedgerAudit:
    """The audit over the ledger ``factory`` built (with its seals, if it seals)."""
    parts = ledger_parts(factory)
    ledger = parts.built_ledger() if parts is not None else None
    policy = parts.wiring.policy if parts is not None else None
    return LedgerAudit(ledger, mapper, policy, blobs=blobs, clock=clock, seals=parts.seals if parts is not None else None)


def harden_postgres(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """``audit init-postgres`` (hardening.harden_postgres); Postgres's driver only when asked for."""
    from .infrastructure.hardening import harden_postgres as harden

    return harden(*args, **kwargs)


def hardening_sql(schema: str, events_table: str, service_role: str) -> str:
    """The hardening's statements as SQL text (hardening.hardening_sql)."""
    from .infrastructure.hardening import hardening_sql as statements

    return statements(schema, events_table, service_role)


__all__ = [
    "ANSWER_SETTING",
    "ANSWER_WITHIN_S",
    "BlobStore",
    "BlobTooLarge",
    "ChainRecord",
    "ChainSource",
    "Checkpoint",
    "CheckpointRule",
    "Clock",
    "EVENTS_TABLE",
    "EventMac",
    "FileWitness",
    "KeyStore",
    "Ledger",
    "LedgerAudit",
    "LedgerConfig",
    "LedgerFactory",
    "LedgerHead",
    "LedgerPolicy",
    "LedgerTampered",
    "LedgerWiring",
    "POSTGRES_MODULE",
    "Problem",
    "ProcessWorkLock",
    "PublicKey",
    "SQLITE_MODULE",
    "Sealer",
    "Signer",
    "StartTimer",
    "Timer",
    "WitnessedCheckpoint",
    "Witnesses",
    "WorkLock",
    "audit_of",
    "blob_store_of",
    "check_ledger_file",
    "harden_postgres",
    "hardening_sql",
    "keep_output",
    "ledger_parts",
    "load_ledger_policy",
    "open_ledger",
    "read_blob",
    "start_daemon_timer",
    "utc_now",
    "verify_bundle",
    "with_full_output",
    "work_lock_of",
]
