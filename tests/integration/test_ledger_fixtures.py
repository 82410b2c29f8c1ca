"""The ledger is forever: ledgers written by earlier releases (tests/fixtures/ledger-*) still verify
through the CLI, replay every execution intact, read as the same reports, and upcast their old events.

These guard every restructuring: a moved module, a renamed class or a changed payload that breaks
an old topic or an old stored shape fails here first.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.domain.execution import Execution
from mai_safety.domain.run_request import RunRequest
from mai_safety.infrastructure.settings import PROJECT_ROOT

from .cli_helpers import run_cli
from .ledger_helpers import make_app, service_environ

FIXTURES = PROJECT_ROOT / "tests" / "fixtures"


@dataclass(frozen=True)
class FixtureLedger:
    """A copy of one fixture: its data folder, its home (signing key and witness, where the
    release that wrote it put them), and what it holds."""

    name: str
    folder: Path
    data_dir: Path
    events: int
    statuses: tuple[str, ...]  # each execution's status, in the order they were submitted
    tokens: tuple[tuple[str, bool], ...] = ()  # (principal, active)

    @property
    def url(self) -> str:
        return f"sqlite:///{self.data_dir / 'ledger.sqlite'}"

    def app(self) -> MaiSafety:
        return make_app(self.url, self.data_dir)

    def cli_env(self, data_dir: Path | None = None) -> dict[str, str]:
        return {"MAI_SAFETY_DATABASE_URL": self.url, **service_environ(data_dir or self.data_dir)}

    def executions(self) -> list[str]:
        with sqlite3.connect(self.data_dir / "ledger.sqlite") as ledger:
            rows = ledger.execute(
                "SELECT originator_id FROM stored_events WHERE originator_version = 1 AND topic LIKE ? "
                "ORDER BY ledger_position",
                ("%:Execution.Assessed",),
            ).fetchall()
        return [str(uuid.UUID(hex=row[0])) for row in rows]


def _copy_6441331(tmp_path: Path) -> FixtureLedger:
    folder = tmp_path / "ledger-6441331"
    shutil.copytree(FIXTURES / "ledger-6441331", folder)
    (folder / "signing-key.pem").chmod(0o600)  # in the data folder, where that release put it
    statuses = ("completed", "completed", "rejected", "terminated", "awaiting_override")
    return FixtureLedger("6441331", folder, folder, 16, statuses)


def _copy_6bb7568(tmp_path: Path) -> FixtureLedger:
    folder = tmp_path / "ledger-6bb7568"
    shutil.copytree(FIXTURES / "ledger-6bb7568", folder)
    (folder / "config" / "mai-safety" / "signing-key.pem").chmod(0o600)
    (folder / "state" / "mai-safety" / "witness" / "checkpoints.jsonl").chmod(0o600)
    statuses = ("completed", "completed", "rejected", "completed", "terminated", "awaiting_override")
    return FixtureLedger("6bb7568", folder, folder / "data", 25, statuses, tokens=(("fixture-submitter", False),))


@pytest.fixture(params=["6441331", "6bb7568"])
def old_ledger(request: pytest.FixtureRequest, tmp_path: Path) -> FixtureLedger:
    copy = {"6441331": _copy_6441331, "6bb7568": _copy_6bb7568}[request.param]
    return copy(tmp_path)


def test_an_old_ledger_verifies_clean_with_its_key_its_checkpoint_and_its_bundle(old_ledger: FixtureLedger, tmp_path: Path) -> None:
    local = run_cli(["audit", "verify"], old_ledger.cli_env())
    assert local.returncode == 0, local.stdout + local.stderr
    assert local.stdout.startswith(f"ledger intact: {old_ledger.events} events, head at position {old_ledger.events}")

    auditor = old_ledger.cli_env(tmp_path / "auditor" / "data")  # the public key only
    public = str(old_ledger.folder / "public-key.pem")
    kept = run_cli(["audit", "verify", "--public-key", public, "--checkpoint", str(old_ledger.folder / "kept-checkpoint.json")], auditor)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    bundle = run_cli(["audit", "verify", "--bundle", str(old_ledger.folder / "bundle.jsonl"), "--public-key", public], auditor)
    assert bundle.returncode == 0, bundle.stdout + bundle.stderr
    assert bundle.stdout.startswith(f"bundle intact: {old_ledger.events} events")


def test_every_execution_of_an_old_ledger_replays_intact_and_reads_as_it_ended(old_ledger: FixtureLedger) -> None:
    app = old_ledger.app()
    try:
        executions = old_ledger.executions()
        assert tuple(app.report(execution).status for execution in executions) == old_ledger.statuses
        for execution in executions:
            replay = app.audit.replay(execution)
            assert replay.intact, (execution, replay)
            assert app.history(execution)[0]["event"] == "Assessed"
        assert tuple((token.principal, token.active) for token in app.tokens()) == old_ledger.tokens
        report = app.audit.verify()
        assert report.intact and report.complete, report.problems
    finally:
        app.close()


def test_the_waiting_execution_of_6bb7568_keeps_what_it_asked_for(tmp_path: Path) -> None:
    old_ledger = _copy_6bb7568(tmp_path)
    app = old_ledger.app()
    try:
        waiting = old_ledger.executions()[-1]
        question = app.history(waiting)[1]
        assert (question["event"], question["kind"]) == ("OverrideRequested", "confirmation")
        request = question["request"]
        assert request["requested"] == {"cpus": 0.5, "timeout_s": 5}
        assert (request["network"]["mode"], request["network"]["requirements"]) == ("deps", ["idna"])
        assert app.report(waiting).status == "awaiting_override"
    finally:
        app.close()


@pytest.mark.parametrize(("fixture", "stored_versions"), [("6441331", {1}), ("6bb7568", {2})])
def test_override_requested_events_read_as_version_2_whatever_version_stored_them(
    tmp_path: Path, fixture: str, stored_versions: set[int]
) -> None:
    """The upcaster: version 1 (6441331, no request kept) reads with ``request=None``; version 2
    as stored. The stored bytes stay as they are (the chain hashes cover them)."""
    old_ledger = {"6441331": _copy_6441331, "6bb7568": _copy_6bb7568}[fixture](tmp_path)
    with sqlite3.connect(old_ledger.data_dir / "ledger.sqlite") as ledger:
        states = [
            json.loads(state)
            for (state,) in ledger.execute("SELECT state FROM stored_events WHERE topic LIKE '%:Execution.OverrideRequested'")
        ]
    assert states and {state.get("class_version", 1) for state in states} == stored_versions
    app = old_ledger.app()
    modes = set()
    try:
        for execution in old_ledger.executions():
            for domain_event in app.repository.event_store.get(uuid.UUID(execution)):
                if isinstance(domain_event, Execution.OverrideRequested):
                    assert type(domain_event).class_version == 2
                    assert domain_event.kind in ("confirmation", "override")
                    if stored_versions == {1}:
                        assert domain_event.request is None
                    else:
                        modes.add(RunRequest.from_dict(domain_event.request).network.mode.value)
    finally:
        app.close()
    assert modes == ({"none", "deps"} if stored_versions == {2} else set())
