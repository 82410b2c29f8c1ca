"""Output kept out of the event (docs/decisions/0014), on SQLite and on an append-only Postgres:
a noisy run keeps its event small and every reader gets all the bytes back; a blob changed or
removed underneath the service is reported by `audit verify`; bundles carry and check the blobs;
the service role cannot change them; and a Postgres ledger made before blobs is upgraded by
`audit init-postgres`. The outcomes come from a fake sandbox; one test (the last) runs a real
noisy program in Docker through the CLI.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docker
import psycopg
import pytest
from psycopg import sql

from mai_safety.application.errors import ConfigurationError
from mai_safety.application.ports import RunOutcome
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.output import blob_sha256
from mai_safety.infrastructure.bootstrap import harden_ledger
from mai_safety.ledger.infrastructure.hardening import EVENTS_TABLE

from ..unit.fakes import FakeSandbox
from .cli_helpers import policies_with, run_cli
from .ledger_helpers import (
    Attacker,
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    make_app,
    service_environ,
)

MIB = 1024 * 1024
#: 1 MiB of stdout, every line different, and a little stderr.
NOISY = "".join(f"{number:07d} {'x' * 56}\n" for number in range(MIB // 64))
NOISY_ERR = "warning: something\n" * 300


@dataclass
class Noisy:
    app: MaiSafety
    attacker: Attacker
    environ: dict[str, str]  # the CLI's environment for this ledger
    execution_id: str

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(list(args), self.environ)

    def ending_state(self) -> bytes:
        rows = [row for row in self.attacker.events() if row["execution"] == self.execution_id]
        return rows[-1]["state"]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def noisy(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Noisy]:
    if request.param == "sqlite":
        path = tmp_path / "data" / "ledger.sqlite"
        url, attacker = f"sqlite:///{path}", Attacker("sqlite", sqlite_path=path)
    else:
        database: HardenedPostgres = request.getfixturevalue("hardened_postgres")
        url, attacker = database.service_url, Attacker("postgres", owner=database.owner)
    outcome = RunOutcome(0, NOISY, NOISY_ERR, len(NOISY) + len(NOISY_ERR), False, 0.5)
    app = make_app(url, tmp_path / "data", sandbox=FakeSandbox(outcome))
    try:
        report = app.run(b"print('x' * 64)\n")
        app.audit.flush()
        yield Noisy(app, attacker, {"MAI_SAFETY_DATABASE_URL": url, **service_environ(tmp_path / "data")}, report.execution_id)
    finally:
        app.close()


def _details(result: subprocess.CompletedProcess[str]) -> list[dict]:
    return json.loads(result.stdout)["details"]


def test_a_noisy_run_keeps_its_event_small_and_history_gives_every_byte(noisy: Noisy) -> None:
    state = noisy.ending_state()
    assert len(state) < 16 * 1024, len(state)
    stored = json.loads(state)["outcome"]
    assert stored["stdout_blob"] == {"sha256": blob_sha256(NOISY.encode()), "bytes": len(NOISY)}
    assert stored["stderr_blob"]["bytes"] == len(NOISY_ERR)
    assert noisy.attacker.query(f"SELECT count(*) FROM {noisy.attacker.blobs_table}") == [(2,)]

    assert noisy.app.report(noisy.execution_id).stdout == NOISY
    outcome = noisy.app.history(noisy.execution_id)[-1]["outcome"]
    assert (outcome["stdout"], outcome["stderr"]) == (NOISY, NOISY_ERR)
    history = noisy.cli("history", noisy.execution_id, "--json")
    assert history.returncode == 0, history.stderr
    assert json.loads(history.stdout)[-1]["outcome"]["stdout"] == NOISY
    replay = json.loads(noisy.cli("audit", "replay", noisy.execution_id, "--json").stdout)
    assert replay["intact"] and replay["ending"]["outcome"]["stdout"] == NOISY
    verified = noisy.cli("audit", "verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_blob_altered_in_the_database_is_reported_with_exit_1(noisy: Noisy) -> None:
    sha256 = blob_sha256(NOISY.encode())
    noisy.attacker.execute(
        (f"UPDATE {noisy.attacker.blobs_table} SET data = ? WHERE sha256 = ?", (NOISY.replace("0000001", "9999999").encode(), sha256))
    )
    result = noisy.cli("audit", "verify", "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    (problem,) = _details(result)
    assert (problem["kind"], problem["execution"], problem["version"], problem["event"]) == (
        "blob_mismatch", noisy.execution_id, 3, "Completed"
    )
    text = noisy.cli("audit", "verify")
    assert f"execution {noisy.execution_id} event 3 (Completed): blob mismatch: blob {sha256[:16]}" in text.stdout
    # Nobody is served the altered bytes as the run's output.
    assert noisy.app.report(noisy.execution_id).stdout != NOISY.replace("0000001", "9999999")


def test_a_blob_deleted_from_the_database_is_reported_with_exit_1(noisy: Noisy) -> None:
    noisy.attacker.execute((f"DELETE FROM {noisy.attacker.blobs_table} WHERE size = ?", (len(NOISY_ERR),)))
    result = noisy.cli("audit", "verify", "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    (problem,) = _details(result)
    assert (problem["kind"], problem["execution"], problem["event"]) == ("blob_missing", noisy.execution_id, "Completed")
    assert "stderr" in problem["message"]
    replay = noisy.cli("audit", "replay", noisy.execution_id)
    assert replay.returncode == 1 and "blob missing" in replay.stdout


def test_export_carries_the_blobs_and_verify_bundle_checks_them(noisy: Noisy, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.jsonl"
    exported = noisy.cli("audit", "export", "--execution", noisy.execution_id, "--output", str(bundle))
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in bundle.read_text().splitlines()]
    assert sorted(line["bytes"] for line in lines if line["type"] == "blob") == sorted([len(NOISY), len(NOISY_ERR)])
    elsewhere = {"MAI_SAFETY_DATABASE_URL": "postgresql://nobody:nothing@127.0.0.1:9/none"}  # no database needed
    checked = run_cli(["audit", "verify", "--bundle", str(bundle)], elsewhere)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    changed = tmp_path / "changed.jsonl"
    text = bundle.read_text()
    blob_line = next(line for line in text.splitlines() if '"type":"blob"' in line and f'"bytes":{len(NOISY)}' in line)
    data = json.loads(blob_line)
    altered = dict(data, data=data["data"].replace("MDAwMDAw", "OTk5OTk5", 1))
    assert altered != data
    changed.write_text(text.replace(blob_line, json.dumps(altered, separators=(",", ":"))))
    result = run_cli(["audit", "verify", "--bundle", str(changed), "--json"], elsewhere)
    assert result.returncode == 1, result.stdout + result.stderr
    (problem,) = _details(result)
    assert (problem["kind"], problem["execution"], problem["event"]) == ("blob_mismatch", noisy.execution_id, "Completed")


@pytest.mark.postgres
def test_the_service_role_can_neither_change_nor_remove_a_blob(hardened_postgres: HardenedPostgres, tmp_path: Path) -> None:
    outcome = RunOutcome(0, NOISY, "", len(NOISY), False, 0.5)
    app = make_app(hardened_postgres.service_url, tmp_path / "data", sandbox=FakeSandbox(outcome))
    try:
        app.run(b"print(1)\n")
        assert app.audit.protection() == {
            "append_only_triggers": True,
            "role_may_change_events": False,
            "role": hardened_postgres.service_role,
        }
    finally:
        app.close()
    table = f"{EVENTS_TABLE}_blobs"
    for statement in (f"UPDATE {table} SET data = 'x'", f"DELETE FROM {table}", f"TRUNCATE {table}"):
        with psycopg.connect(hardened_postgres.service_url) as connection:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                connection.execute(statement)
    # The owner is refused too, by the triggers, unless it switches them off on purpose.
    with psycopg.connect(**hardened_postgres.owner) as connection:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            connection.execute(f"UPDATE {table} SET data = 'x'")


@pytest.mark.postgres
def test_init_postgres_adds_the_blob_table_to_a_ledger_made_before_it(hardened_postgres: HardenedPostgres, tmp_path: Path) -> None:
    with psycopg.connect(**hardened_postgres.owner) as connection:
        connection.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(f"{EVENTS_TABLE}_blobs")))
    # The service's role may not make it: it says what to run.
    with pytest.raises(ConfigurationError, match="audit init-postgres"):
        make_app(hardened_postgres.service_url, tmp_path / "data")
    for _ in range(2):  # idempotent
        harden_ledger(hardened_postgres.owner_url, hardened_postgres.service_role)
    outcome = RunOutcome(0, NOISY, "", len(NOISY), False, 0.5)
    app = make_app(hardened_postgres.service_url, tmp_path / "data", sandbox=FakeSandbox(outcome))
    try:
        report = app.run(b"print(1)\n")
        assert report.stdout == NOISY
        assert app.audit.verify().intact
        assert app.audit.protection()["append_only_triggers"] is True
    finally:
        app.close()


def test_the_inline_size_comes_from_the_ledger_policy(tmp_path: Path) -> None:
    policies = policies_with(tmp_path, ledger={"output": {"inline_bytes": 10}})
    outcome = RunOutcome(0, "twelve bytes", "ten bytes!", 22, False, 0.5)
    app = make_app(f"sqlite:///{tmp_path / 'ledger.sqlite'}", tmp_path / "data", policies, sandbox=FakeSandbox(outcome))
    try:
        report = app.run(b"print(1)\n")
        stored = json.loads(app.audit.ledger().select_execution(report.execution_id)[-1].state)["outcome"]
        assert (stored["stdout"], stored["stdout_blob"]["bytes"]) == ("twelve byt", 12)
        assert stored["stderr"] == "ten bytes!" and "stderr_blob" not in stored
        assert report.stdout == "twelve bytes"
    finally:
        app.close()


@pytest.mark.parametrize("inline_bytes", [-1, 2 * MIB, "4k", None])
def test_the_output_section_is_validated(tmp_path: Path, inline_bytes: object) -> None:
    policies = policies_with(tmp_path, ledger={"output": {"inline_bytes": inline_bytes}})
    with pytest.raises(ConfigurationError, match="key output.inline_bytes"):
        make_app(f"sqlite:///{tmp_path / 'ledger.sqlite'}", tmp_path / "data", policies)


def test_a_real_program_printing_a_mebibyte_keeps_its_event_small_end_to_end(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    ledger = tmp_path / "ledger.sqlite"
    environ = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{ledger}", "MAI_SAFETY_ACTOR": "tester"}
    program = b"import sys\nsys.stdout.write(('y' * 1023 + '\\n') * 1024)\n"
    expected = ("y" * 1023 + "\n") * 1024
    result = run_cli(["run", "-", "--json"], environ, stdin=program)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["status"] == "completed" and report["stdout"] == expected

    with sqlite3.connect(ledger) as connection:
        (state,) = connection.execute(
            "SELECT state FROM stored_events WHERE topic LIKE '%.Completed' AND originator_id = ?",
            (uuid.UUID(report["execution_id"]).hex,),
        ).fetchone()
        assert connection.execute("SELECT size FROM stored_events_blobs").fetchall() == [(MIB,)]
    assert len(state) < 8 * 1024, len(state)
    assert json.loads(state)["outcome"]["stdout_blob"] == {"sha256": blob_sha256(expected.encode()), "bytes": MIB}

    history = run_cli(["history", report["execution_id"], "--json"], environ)
    assert json.loads(history.stdout)[-1]["outcome"]["stdout"] == expected
    verified = run_cli(["audit", "verify"], environ)
    assert verified.returncode == 0, verified.stdout + verified.stderr
