"""Append-only in the database itself: the service's role may insert and read the ledger and
nothing else, and triggers refuse changes even to the owner until it switches them off."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from mai_safety.application.errors import ConfigurationError
from mai_safety.infrastructure.bootstrap import harden_ledger
from mai_safety.ledger.infrastructure.hardening import EVENTS_TABLE

from .cli_helpers import run_cli
from .ledger_helpers import (
    PASSWORD,
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    make_app,
    record_execution,
    service_environ,
)

pytestmark = pytest.mark.postgres

CHANGES = [
    f"UPDATE {EVENTS_TABLE} SET state = state",
    f"DELETE FROM {EVENTS_TABLE}",
    f"TRUNCATE {EVENTS_TABLE}",
    f"UPDATE {EVENTS_TABLE}_checkpoints SET reason = 'x'",
    f"DELETE FROM {EVENTS_TABLE}_checkpoints",
    f"TRUNCATE {EVENTS_TABLE}_checkpoints",
]


@pytest.fixture
def recorded(hardened_postgres: HardenedPostgres, tmp_path: Path) -> HardenedPostgres:
    app = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        record_execution(app)
    finally:
        app.close()
    return hardened_postgres


@pytest.mark.parametrize("statement", CHANGES)
def test_the_service_role_may_not_change_or_remove_the_ledger(recorded: HardenedPostgres, statement: str) -> None:
    with psycopg.connect(recorded.service_url) as connection:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            connection.execute(statement)


@pytest.mark.parametrize("statement", CHANGES)
def test_even_the_owner_is_refused_while_the_triggers_are_on(recorded: HardenedPostgres, statement: str) -> None:
    with psycopg.connect(**recorded.owner) as connection:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="the mai-safety ledger is append-only"):
            connection.execute(statement)


def test_the_service_still_records_and_verification_reports_the_protection(
    recorded: HardenedPostgres, tmp_path: Path
) -> None:
    app = make_app(recorded.service_url, tmp_path / "data")
    try:
        record_execution(app)
        assert app.audit.verify().intact
        assert app.audit.protection() == {
            "append_only_triggers": True,
            "role_may_change_events": False,
            "role": recorded.service_role,
        }
    finally:
        app.close()


def test_a_ledger_that_was_not_made_append_only_says_so(postgres_url: str, tmp_path: Path) -> None:
    app = make_app(postgres_url, tmp_path / "data")
    try:
        record_execution(app)
        protection = app.audit.protection()
        assert protection is not None
        assert not protection["append_only_triggers"] and protection["role_may_change_events"]
    finally:
        app.close()
    result = run_cli(["audit", "verify"], {"MAI_SAFETY_DATABASE_URL": postgres_url, **service_environ(tmp_path / "data")})
    assert result.returncode == 0, result.stderr
    assert "database protection: OFF" in result.stdout


def test_setting_up_again_changes_nothing_and_keeps_the_ledger(recorded: HardenedPostgres, tmp_path: Path) -> None:
    done = harden_ledger(recorded.owner_url, recorded.service_role)
    assert done["role_created"] is False
    app = make_app(recorded.service_url, tmp_path / "data")
    try:
        assert app.audit.verify().checked == 3
    finally:
        app.close()


def test_the_owner_cannot_be_the_service_role(hardened_postgres: HardenedPostgres) -> None:
    with pytest.raises(ConfigurationError, match="must not be the owner"):
        harden_ledger(hardened_postgres.owner_url, hardened_postgres.owner["user"])


def test_the_operator_command_sets_up_a_database_the_service_then_uses(
    hardened_postgres: HardenedPostgres, tmp_path: Path
) -> None:
    password_file = tmp_path / "password"
    password_file.write_text(PASSWORD + "\n")
    result = run_cli(
        [
            "audit", "init-postgres",
            "--owner-url", hardened_postgres.owner_url,
            "--service-role", hardened_postgres.service_role,
            "--service-password-file", str(password_file),
        ],
        {},
    )
    assert result.returncode == 0, result.stderr
    assert "append-only" in result.stdout and "may only insert and read" in result.stdout
    environ = {"MAI_SAFETY_DATABASE_URL": hardened_postgres.service_url, **service_environ(tmp_path / "data")}
    verify = run_cli(["audit", "verify"], environ)
    assert verify.returncode == 0, verify.stderr
    assert "database protection: append-only" in verify.stdout


def test_the_set_up_sql_can_be_printed_for_an_operator_to_apply() -> None:
    result = run_cli(["audit", "init-postgres", "--service-role", "mai_service", "--print-sql"], {})
    assert result.returncode == 0, result.stderr
    assert f'BEFORE UPDATE OR DELETE ON "public"."{EVENTS_TABLE}"' in result.stdout
    assert f'GRANT SELECT, INSERT ON "public"."{EVENTS_TABLE}_checkpoints" TO "mai_service"' in result.stdout
