"""Shared by the ledger tests: the application wired as the service wires it (with fake ports),
events recorded through its save, an append-only Postgres per test (made by ``audit
init-postgres``'s own code, and dropped afterwards with its roles even when the test fails), and
an attacker who works on the tables underneath the application with the database owner's rights.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from mai_safety.application.executions import MaiSafety
from mai_safety.ledger.application.sealing import StartTimer, start_daemon_timer
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.ledger.domain.chain import GENESIS, event_hash, ledger_hash
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.bootstrap import harden_ledger
from mai_safety.ledger.infrastructure.hardening import EVENTS_TABLE
from mai_safety.infrastructure.settings import Settings

from ..unit.fakes import FakeAssessor, FakeSandbox
from .cli_helpers import suite_policies

PASSWORD = "ledger-test-password"
LIMITS = ResourceLimits(cpus=1, memory_bytes=2**27, pids=64, timeout_s=10, output_bytes=2**16, tmpfs_bytes=2**20)


def service_environ(data_dir: Path, policies: Path | None = None, home: Path | None = None) -> dict[str, str]:
    """The service's environment: the ledger's data folder, and the user's configuration (the
    signing key) and state (the witness) folders in ``home`` (default: beside the data folder),
    never the real home's."""
    home = home or data_dir.parent
    return {
        "MAI_SAFETY_POLICIES": str(policies or suite_policies()),
        "MAI_SAFETY_DATA_DIR": str(data_dir),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }


def make_app(
    database_url: str,
    data_dir: Path,
    policies: Path | None = None,
    home: Path | None = None,
    sandbox: FakeSandbox | None = None,
    sealing_timer: StartTimer = start_daemon_timer,
) -> MaiSafety:
    """The application as bootstrap wires it (signing key in ``home``/config/mai-safety, witness
    in ``home``/state/mai-safety), with fake ports (``sandbox``: one returning a chosen outcome;
    ``sealing_timer``: fakes.ManualTimers for deferred seals that come only when the test says)."""
    settings = Settings.from_environment(environ=service_environ(data_dir, policies, home), database_url=database_url)
    return bootstrap(settings, assessor=FakeAssessor(), sandbox=sandbox or FakeSandbox(), sealing_timer=sealing_timer)


def witness_file(data_dir: Path, home: Path | None = None) -> Path:
    """Where make_app's default file witness writes."""
    return (home or data_dir.parent) / "state" / "mai-safety" / "witness" / "checkpoints.jsonl"


def key_file(data_dir: Path, home: Path | None = None) -> Path:
    """Where make_app's signing key is made by default."""
    return (home or data_dir.parent) / "config" / "mai-safety" / "signing-key.pem"


def record_execution(app: MaiSafety, code: str = "print(1)\n", *, samples: int = 0, end: bool = True) -> str:
    """Assessed, Started, samples, Completed: one event per save, as a live service writes."""
    submission = Submission.from_bytes(code.encode(), Provenance.MAI, 1 << 20)
    execution = Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("fake",)))
    app.save(execution)
    execution.start(container_id=f"c-{execution.id.hex[:12]}", image="fake:1", limits=LIMITS, trust=TrustLevel.STANDARD)
    app.save(execution)
    for number in range(samples):
        execution.record_sample({"cpu": 0.5, "memory_bytes": 1000 + number})
        app.save(execution)
    if end:
        execution.complete({"exit_code": 0, "stdout": "1\n", "stderr": "", "duration_s": 0.01})
        app.save(execution)
    return str(execution.id)


def record_waiting(app: MaiSafety, code: str = "import os\n") -> str:
    """HIGH code waiting for confirmation: Assessed and OverrideRequested, saved together."""
    submission = Submission.from_bytes(code.encode(), Provenance.MAI, 1 << 20)
    finding = Finding("fake", "F1", RiskLevel.HIGH, "fake finding")
    execution = Execution.assess(submission, Assessment(RiskLevel.HIGH, findings=(finding,), analyzers=("fake",)))
    execution.request_override("HIGH code needs the user's confirmation", datetime.now(timezone.utc) + timedelta(hours=1))
    app.save(execution)
    return str(execution.id)


# --- an append-only Postgres, per test ------------------------------------------------------------


@dataclass(frozen=True)
class HardenedPostgres:
    service_url: str
    owner_url: str
    owner: dict[str, Any]  # psycopg.connect arguments for the owner role
    service_role: str


@pytest.fixture(name="hardened_postgres")
def hardened_postgres_fixture(postgres_server: dict[str, str]) -> Iterator[HardenedPostgres]:
    """A database owned by its own owner role and made append-only for its own service role."""
    suffix = uuid.uuid4().hex[:10]
    database, owner, service = f"ledger_{suffix}", f"owner_{suffix}", f"service_{suffix}"
    admin = dict(postgres_server, dbname="mai")
    server = f"{postgres_server['host']}:{postgres_server['port']}"
    try:
        with psycopg.connect(autocommit=True, **admin) as connection:
            connection.execute(
                sql.SQL("CREATE ROLE {} LOGIN CREATEROLE PASSWORD {}").format(sql.Identifier(owner), sql.Literal(PASSWORD))
            )
            connection.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(database), sql.Identifier(owner))
            )
        owner_url = f"postgresql://{owner}:{PASSWORD}@{server}/{database}"
        harden_ledger(owner_url, service, service_password=PASSWORD)
        yield HardenedPostgres(
            service_url=f"postgresql://{service}:{PASSWORD}@{server}/{database}",
            owner_url=owner_url,
            owner={
                "host": postgres_server["host"],
                "port": postgres_server["port"],
                "user": owner,
                "password": PASSWORD,
                "dbname": database,
            },
            service_role=service,
        )
    finally:
        with psycopg.connect(autocommit=True, **admin) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database)))
            for role in (service, owner):
                connection.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


# --- the attacker ---------------------------------------------------------------------------------


class Attacker:
    """Changes the ledger's tables directly, as someone with the database owner's rights would:
    on Postgres the append-only triggers are switched off for the duration, then back on."""

    def __init__(self, kind: str, *, sqlite_path: Path | None = None, owner: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self._sqlite_path = sqlite_path
        self._owner = owner
        # eventsourcing names the Postgres table after the application; SQLite keeps its default.
        self.events_table = "stored_events" if kind == "sqlite" else EVENTS_TABLE
        self.checkpoints_table = f"{self.events_table}_checkpoints"
        self.blobs_table = f"{self.events_table}_blobs"

    def execute(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run statements (written with ? placeholders) in one transaction, protections off."""
        if self.kind == "sqlite":
            assert self._sqlite_path is not None
            with sqlite3.connect(self._sqlite_path) as connection:
                for statement, params in statements:
                    connection.execute(statement, params)
            return
        assert self._owner is not None
        with psycopg.connect(**self._owner) as connection, connection.transaction():
            tables = (self.events_table, self.checkpoints_table, self.blobs_table)
            for table in tables:
                connection.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            for statement, params in statements:
                connection.execute(statement.replace("?", "%s"), params)  # type: ignore[call-overload]
            for table in tables:
                connection.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")

    def query(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.kind == "sqlite":
            assert self._sqlite_path is not None
            with sqlite3.connect(self._sqlite_path) as connection:
                return [tuple(row) for row in connection.execute(statement, params).fetchall()]
        assert self._owner is not None
        with psycopg.connect(**self._owner) as connection:
            return [tuple(row) for row in connection.execute(statement.replace("?", "%s"), params).fetchall()]  # type: ignore[call-overload]

    def column_id(self, execution: str) -> Any:
        return uuid.UUID(execution).hex if self.kind == "sqlite" else uuid.UUID(execution)

    def events(self) -> list[dict[str, Any]]:
        rows = self.query(
            f"SELECT ledger_position, originator_id, originator_version, topic, state, event_hash, ledger_hash "
            f"FROM {self.events_table} ORDER BY ledger_position"
        )
        keys = ("position", "execution", "version", "topic", "state", "event_hash", "ledger_hash")
        found = [dict(zip(keys, row, strict=True)) for row in rows]
        for row in found:
            row["execution"] = str(uuid.UUID(str(row["execution"])))
            for key in ("state", "event_hash", "ledger_hash"):
                row[key] = bytes(row[key])
        return found

    def checkpoints(self) -> list[dict[str, Any]]:
        rows = self.query(f"SELECT sequence, ledger_position, signature FROM {self.checkpoints_table} ORDER BY sequence")
        return [{"sequence": row[0], "position": row[1], "signature": bytes(row[2])} for row in rows]

    def macs(self) -> dict[int, bytes | None]:
        rows = self.query(f"SELECT ledger_position, event_mac FROM {self.events_table} ORDER BY ledger_position")
        return {int(row[0]): bytes(row[1]) if row[1] is not None else None for row in rows}

    def set_state(self, position: int, state: bytes) -> None:
        self.execute((f"UPDATE {self.events_table} SET state = ? WHERE ledger_position = ?", (state, position)))

    def delete_positions(self, *positions: int) -> None:
        self.execute(*((f"DELETE FROM {self.events_table} WHERE ledger_position = ?", (position,)) for position in positions))

    def delete_checkpoints_from(self, sequence: int) -> None:
        self.execute((f"DELETE FROM {self.checkpoints_table} WHERE sequence >= ?", (sequence,)))

    def insert_event(self, row: dict[str, Any]) -> None:
        self.execute(
            (
                f"INSERT INTO {self.events_table} (originator_id, originator_version, topic, state, ledger_position, "
                "event_hash, ledger_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    self.column_id(row["execution"]),
                    row["version"],
                    row["topic"],
                    row["state"],
                    row["position"],
                    row["event_hash"],
                    row["ledger_hash"],
                ),
            )
        )

    def recompute_hashes(self) -> int:
        """Recompute every hash the way the service does (no secret is needed); return how many
        rows changed. This is what a careful forger does after rewriting history."""
        heads: dict[str, bytes] = {}
        ledger_head = GENESIS
        updates = []
        for row in self.events():
            digest = event_hash(heads.get(row["execution"], GENESIS), row["topic"], row["execution"], row["version"], row["state"])
            heads[row["execution"]] = digest
            ledger_head = ledger_hash(ledger_head, row["position"], digest)
            if (digest, ledger_head) != (row["event_hash"], row["ledger_hash"]):
                updates.append(
                    (
                        f"UPDATE {self.events_table} SET event_hash = ?, ledger_hash = ? WHERE ledger_position = ?",
                        (digest, ledger_head, row["position"]),
                    )
                )
        self.execute(*updates)
        return len(updates)


# --- concurrent writers ---------------------------------------------------------------------------


def write_as_one_process(
    database_url: str, data_dir: str, threads: int, executions: int, ready: Any, go: Any, results: Any
) -> None:
    """A separate process's writers: ``threads`` threads sharing one application, each recording
    ``executions`` finished executions and one waiting one once ``go`` is set. Its ids go to
    ``results``, or the error that stopped it."""
    try:
        results.put(("ids", write_with_threads(database_url, Path(data_dir), threads, executions, ready, go)))
    except BaseException as exc:  # noqa: BLE001 - the parent must hear of it, not wait forever
        results.put(("error", f"{type(exc).__name__}: {exc}"))


def write_with_threads(database_url: str, data_dir: Path, threads: int, executions: int, ready: Any, go: Any) -> list[str]:
    from concurrent.futures import ThreadPoolExecutor

    app = make_app(database_url, data_dir)
    try:
        ready.set()
        go.wait()

        def one_writer(number: int) -> list[str]:
            ids = [record_execution(app, f"print({number}, {count})\n") for count in range(executions)]
            return [*ids, record_waiting(app)]

        with ThreadPoolExecutor(threads) as pool:
            return [found for share in pool.map(one_writer, range(threads)) for found in share]
    finally:
        app.close()
