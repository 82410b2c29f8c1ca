"""Issue #10, finding 6, written as the attacks: someone who can read and write the ledger's
folder (or the database, as its owner) forges an event with correct chain hashes, looks for the
signing key beside the ledger, cuts off the tail with its checkpoints, or puts an older copy of
the file back. Event MACs, the key's place and the witnesses answer (docs/decisions/0011); and
a ledger written before any of it, by commit 6441331, still verifies.
"""

from __future__ import annotations

import http.server
import json
import shutil
import sqlite3
import stat
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from mai_safety.ledger.application.sealing import LedgerTampered
from mai_safety.application.errors import ConfigurationError
from mai_safety.application.executions import MaiSafety
from mai_safety.ledger.domain.chain import GENESIS, event_hash, ledger_hash
from mai_safety.infrastructure.bootstrap import harden_ledger
from mai_safety.ledger.infrastructure.hardening import EVENTS_TABLE
from mai_safety.infrastructure.settings import PROJECT_ROOT

from .cli_helpers import policies_with, run_cli
from .ledger_helpers import (
    Attacker,
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    key_file,
    make_app,
    record_execution,
    record_waiting,
    service_environ,
    witness_file,
)

FIXTURE = PROJECT_ROOT / "tests" / "fixtures" / "ledger-6441331"


@dataclass
class World:
    url: str
    data_dir: Path
    attacker: Attacker

    def app(self, policies: Path | None = None) -> MaiSafety:
        return make_app(self.url, self.data_dir, policies)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """A ledger of three executions (one left waiting), every ending sealed and witnessed."""
    data_dir = tmp_path / "data"
    if request.param == "sqlite":
        path = data_dir / "ledger.sqlite"
        data_dir.mkdir()
        found = World(f"sqlite:///{path}", data_dir, Attacker("sqlite", sqlite_path=path))
    else:
        database: HardenedPostgres = request.getfixturevalue("hardened_postgres")
        found = World(database.service_url, data_dir, Attacker("postgres", owner=database.owner))
    app = found.app()
    try:
        record_execution(app, "print(1)\n")
        record_waiting(app)
        record_execution(app, "print(3)\n", samples=1)
        app.audit.flush()
        report = app.audit.verify()
        assert report.intact and report.macs == report.checked == 9, report
    finally:
        app.close()
    yield found


def _forge_assessed(attacker: Attacker) -> dict:
    """A new execution's Assessed, appended with correct chain hashes (which need no secret) and
    no MAC (which does), as someone with write access to the ledger's table would."""
    rows = attacker.events()
    assessed = rows[0]
    forged_id = str(uuid.uuid4())
    position = rows[-1]["position"] + 1
    digest = event_hash(GENESIS, assessed["topic"], forged_id, 1, assessed["state"])
    row = {
        "execution": forged_id,
        "version": 1,
        "topic": assessed["topic"],
        "state": assessed["state"],
        "position": position,
        "event_hash": digest,
        "ledger_hash": ledger_hash(rows[-1]["ledger_hash"], position, digest),
    }
    attacker.insert_event(row)
    return row


@pytest.mark.parametrize("mac", ["none", "copied"])
def test_a_forged_event_with_valid_chain_hashes_is_reported_and_never_signed(
    world: World, mac: str, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = _forge_assessed(world.attacker)
    if mac == "copied":  # the MAC of a genuine event does not fit another's position and hashes
        genuine = world.attacker.macs()[1]
        column = world.attacker.column_id(forged["execution"])
        world.attacker.execute(
            (f"UPDATE {world.attacker.events_table} SET event_mac = ? WHERE originator_id = ?", (genuine, column))
        )

    app = world.app()  # the next process of the service
    try:
        (problem,) = app.audit.verify().details
        assert (problem["kind"], problem["position"], problem["execution"]) == (
            "forged_event", forged["position"], forged["execution"]
        )
        # The next real run is recorded, but no checkpoint is signed over the forged event.
        record_execution(app, "print('after')\n")
        app.audit.flush()
        ledger = app.audit.ledger()
        newest = ledger.head().checkpoint
        assert newest is not None and newest.position < forged["position"]
        with pytest.raises(LedgerTampered, match=f"position {forged['position']}"):
            app.audit.checkpoint()
        kinds = {detail["kind"] for detail in app.audit.verify().details}
        assert "forged_event" in kinds
    finally:
        app.close()
    assert f"not sealed past position {forged['position']}" in capsys.readouterr().err


def test_a_fresh_start_keeps_no_key_in_the_ledgers_folder(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    app = make_app(f"sqlite:///{data_dir / 'ledger.sqlite'}", data_dir)
    try:
        record_execution(app)
    finally:
        app.close()
    assert not list(data_dir.rglob("*.pem")), "a key beside the ledger lets whoever can change it re-sign it"
    key = key_file(data_dir)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    witness = witness_file(data_dir)
    assert stat.S_IMODE(witness.stat().st_mode) == 0o600 and stat.S_IMODE(witness.parent.stat().st_mode) == 0o700
    entries = [json.loads(line) for line in witness.read_text().splitlines()]
    assert entries and entries[-1]["format"] == "mai-safety/witnessed-checkpoint/v1"
    assert entries[-1]["checkpoint"]["version"] == 2 and entries[-1]["checkpoint"]["macs_from"] == 1


def _cli_env(data_dir: Path, url: str, **extra: str) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": url, **service_environ(data_dir), **extra}


def test_verify_warns_when_the_key_sits_in_the_ledgers_folder(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    url = f"sqlite:///{data_dir / 'ledger.sqlite'}"
    app = make_app(url, data_dir)
    try:
        record_execution(app)
    finally:
        app.close()
    local = run_cli(["audit", "verify"], _cli_env(data_dir, url))
    assert local.returncode == 0, local.stdout + local.stderr
    assert "event MAC(s) checked" in local.stdout and "checked against checkpoint #" in local.stdout
    assert "note: local single-user mode: the ledger file's owner" in local.stdout
    assert "warning:" not in local.stdout

    # An install from before the key moved: its key in the data folder, beside the ledger.
    key_file(data_dir).rename(data_dir / "signing-key.pem")
    legacy = run_cli(["audit", "verify"], _cli_env(data_dir, url))
    assert legacy.returncode == 0, legacy.stdout + legacy.stderr
    assert f"warning: the signing key {data_dir / 'signing-key.pem'} sits in the ledger's folder" in legacy.stdout
    explicit = run_cli(["audit", "verify", "--json"], _cli_env(data_dir, url, MAI_SAFETY_SIGNING_KEY=str(data_dir / "signing-key.pem")))
    assert any(note.startswith("warning: the signing key") for note in json.loads(explicit.stdout)["notes"])


def _sqlite_copy(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as origin, sqlite3.connect(target) as copy:
        origin.backup(copy)


def test_a_restored_older_copy_of_the_sqlite_file_is_reported_against_the_witness(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    path = data_dir / "ledger.sqlite"
    url = f"sqlite:///{path}"
    app = make_app(url, data_dir)
    try:
        record_execution(app, "print(1)\n")
        app.audit.flush()
        _sqlite_copy(path, tmp_path / "older.sqlite")  # someone keeps a copy ...
        record_execution(app, "print(2)\n")
        record_execution(app, "print(3)\n")
    finally:
        app.close()  # seals and witnesses what is owed
    for leftover in data_dir.glob("ledger.sqlite*"):  # ... and later puts it back
        leftover.unlink()
    shutil.copy(tmp_path / "older.sqlite", path)

    result = run_cli(["audit", "verify", "--json"], _cli_env(data_dir, url))
    assert result.returncode == 1, result.stdout + result.stderr
    (problem,) = json.loads(result.stdout)["details"]
    assert problem["kind"] == "ledger_behind_witness" and "older copy of the ledger was put back" in problem["message"]
    text = run_cli(["audit", "verify"], _cli_env(data_dir, url))
    assert text.returncode == 1 and "ledger behind witness: the ledger ends at position 3" in text.stdout


def test_a_witness_entry_that_does_not_verify_is_reported(world: World) -> None:
    witness = witness_file(world.data_dir)
    entry = json.loads(witness.read_text().splitlines()[-1])
    entry["checkpoint"] = {**entry["checkpoint"], "sequence": 99, "position": 99}
    with witness.open("a") as handle:
        handle.write(json.dumps(entry) + "\n")
    app = world.app()
    try:
        (problem,) = app.audit.verify().details
    finally:
        app.close()
    assert problem["kind"] == "bad_signature" and "holds a checkpoint #99 for this ledger that does not verify" in problem["message"]


def test_a_witness_that_fails_never_fails_a_run_and_verify_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the witness wants a folder")
    policies = policies_with(
        tmp_path,
        ledger={
            "witnesses": [
                {"kind": "file"},
                {"kind": "file", "path": str(blocked / "checkpoints.jsonl")},
                {"kind": "http", "url": "http://127.0.0.1:9/witness", "timeout_seconds": 1},
            ]
        },
    )
    data_dir = tmp_path / "data"
    url = f"sqlite:///{data_dir / 'ledger.sqlite'}"
    app = make_app(url, data_dir, policies)
    try:
        record_execution(app)  # the run is recorded and sealed whatever the witnesses do
        app.audit.flush()
        assert app.audit.verify().intact
    finally:
        app.close()
    assert "could not be written" in capsys.readouterr().err
    result = run_cli(["audit", "verify", "--json"], _cli_env(data_dir, url, MAI_SAFETY_POLICIES=str(policies)))
    assert result.returncode == 0, result.stdout + result.stderr
    notes = json.loads(result.stdout)["notes"]
    assert any(note.startswith(f"witness file {blocked}") and "failing since" in note for note in notes), notes
    assert any(note.startswith("witness http http://127.0.0.1:9/witness") for note in notes), notes


def test_an_http_witness_receives_every_checkpoint_as_json(tmp_path: Path) -> None:
    received: list[dict] = []

    class Witness(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the standard library's name
            received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Witness)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/checkpoints"
        policies = policies_with(
            tmp_path, ledger={"witnesses": [{"kind": "http", "url": url}, {"kind": "syslog", "facility": "local3"}]}
        )
        data_dir = tmp_path / "data"
        app = make_app(f"sqlite:///{data_dir / 'ledger.sqlite'}", data_dir, policies)
        try:
            record_execution(app)
            app.audit.flush()
            newest = app.audit.ledger().head().checkpoint
        finally:
            app.close()
    finally:
        server.shutdown()
        server.server_close()
    assert newest is not None and received
    assert received[-1]["checkpoint"] == newest.to_dict() and received[-1]["ledger"] == app.audit.ledger_id()


@pytest.mark.parametrize(
    ("witnesses", "expected"),
    [
        ([{"kind": "ftp"}], "witnesses.0"),
        ([{"kind": "http", "url": "file:///etc/passwd"}], "witnesses.0.http.url"),
        ([{"kind": "http", "url": "https://w.example", "timeout_seconds": 300}], "witnesses.0.http.timeout_seconds"),
        ([{"kind": "file", "mode": "0644"}], "witnesses.0.file.mode"),
    ],
)
def test_the_witness_section_is_validated(tmp_path: Path, witnesses: list, expected: str) -> None:
    policies = policies_with(tmp_path, ledger={"witnesses": witnesses})
    with pytest.raises(ConfigurationError, match=f"key {expected}"):
        make_app(f"sqlite:///{tmp_path / 'ledger.sqlite'}", tmp_path / "data", policies)


# --- the ledger is forever ---------------------------------------------------------------------------


@pytest.fixture
def old_ledger(tmp_path: Path) -> Path:
    """A copy of the ledger commit 6441331 wrote, with its key where that release put it."""
    folder = tmp_path / "old"
    shutil.copytree(FIXTURE, folder)
    (folder / "signing-key.pem").chmod(0o600)
    return folder


def test_the_ledger_written_by_6441331_still_verifies(old_ledger: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{old_ledger / 'ledger.sqlite'}"
    here = _cli_env(old_ledger, url)  # its own key, in its data folder, as that release left it
    result = run_cli(["audit", "verify"], here)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ledger intact: 16 events, head at position 16")
    assert "2 event(s) at positions 15..16, after the newest checkpoint, carry no MAC" in result.stdout
    assert f"warning: the signing key {old_ledger / 'signing-key.pem'} sits in the ledger's folder" in result.stdout

    elsewhere = _cli_env(tmp_path / "auditor" / "data", url)  # an auditor with the public key only
    public = str(old_ledger / "public-key.pem")
    assert run_cli(["audit", "verify", "--public-key", public], elsewhere).returncode == 0
    kept = run_cli(["audit", "verify", "--public-key", public, "--checkpoint", str(old_ledger / "kept-checkpoint.json")], elsewhere)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    bundle = run_cli(["audit", "verify", "--bundle", str(old_ledger / "bundle.jsonl"), "--public-key", public], elsewhere)
    assert bundle.returncode == 0 and bundle.stdout.startswith("bundle intact: 16 events"), bundle.stdout + bundle.stderr


def test_a_ledger_from_6441331_takes_macs_from_its_next_write_and_refuses_unmaced_events_after(old_ledger: Path) -> None:
    url = f"sqlite:///{old_ledger / 'ledger.sqlite'}"
    attacker = Attacker("sqlite", sqlite_path=old_ledger / "ledger.sqlite")
    app = make_app(url, old_ledger)
    try:
        record_execution(app, "print('upgraded')\n")
        app.audit.flush()
        report = app.audit.verify()
        assert report.intact and report.macs == 3, report
        newest = app.audit.ledger().head().checkpoint
        # The first checkpoint of this release adopts the unsealed positions 15..16 of the old one
        # and declares MACs from the first event it wrote.
        assert newest is not None and (newest.version, newest.macs_from, newest.position) == (2, 17, 19)
        assert [mac is None for mac in attacker.macs().values()] == [True] * 16 + [False] * 3

        forged = _forge_assessed(attacker)  # "legacy-looking": no MAC, after MACs began
        (problem,) = app.audit.verify().details
        assert (problem["kind"], problem["position"]) == ("forged_event", forged["position"])
        assert "every event from position 17 does" in problem["message"]
    finally:
        app.close()


def test_the_waiting_execution_of_6441331_reads_as_version_2_of_its_question_without_a_recorded_request(
    old_ledger: Path,
) -> None:
    with sqlite3.connect(old_ledger / "ledger.sqlite") as old:
        (waiting,) = old.execute("SELECT originator_id FROM stored_events WHERE ledger_position = 16").fetchone()
    app = make_app(f"sqlite:///{old_ledger / 'ledger.sqlite'}", old_ledger)
    try:
        question = app.history(waiting)[1]
        assert (question["event"], question["kind"], question["request"]) == ("OverrideRequested", "confirmation", None)
        assert app.report(waiting).status == "awaiting_override"
        replay = app.audit.replay(waiting)
        assert replay.intact and replay.decisions[0]["request"] is None
    finally:
        app.close()


@pytest.mark.postgres
def test_init_postgres_upgrades_tables_made_before_macs_and_the_old_ledger_verifies(
    hardened_postgres: HardenedPostgres, tmp_path: Path, old_ledger: Path
) -> None:
    # The tables as 6441331 made them, holding the ledger it wrote.
    owner = hardened_postgres.owner
    checkpoints = f"{EVENTS_TABLE}_checkpoints"
    with psycopg.connect(**owner) as connection, connection.transaction():
        connection.execute(sql.SQL("ALTER TABLE {} DROP COLUMN event_mac").format(sql.Identifier(EVENTS_TABLE)))
        connection.execute(
            sql.SQL("ALTER TABLE {} DROP COLUMN format_version, DROP COLUMN macs_from").format(sql.Identifier(checkpoints))
        )
        with sqlite3.connect(old_ledger / "ledger.sqlite") as old:
            for row in old.execute(
                "SELECT originator_id, originator_version, topic, state, ledger_position, event_hash, ledger_hash "
                "FROM stored_events ORDER BY ledger_position"
            ):
                connection.execute(
                    sql.SQL(
                        "INSERT INTO {} (originator_id, originator_version, topic, state, ledger_position, event_hash, "
                        "ledger_hash) VALUES (%s, %s, %s, %s, %s, %s, %s)"
                    ).format(sql.Identifier(EVENTS_TABLE)),
                    (uuid.UUID(row[0]), *row[1:]),
                )
            columns = "sequence, ledger_position, ledger_hash, signed_at, reason, key_id, previous, signature"
            for row in old.execute(f"SELECT {columns} FROM stored_events_checkpoints ORDER BY sequence"):
                connection.execute(
                    sql.SQL(f"INSERT INTO {{}} ({columns}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)").format(
                        sql.Identifier(checkpoints)
                    ),
                    row,
                )

    # The service's role may not add the columns: it says what to run, and records nothing.
    with pytest.raises(ConfigurationError, match="audit init-postgres"):
        make_app(hardened_postgres.service_url, old_ledger)
    for _ in range(2):  # idempotent
        harden_ledger(hardened_postgres.owner_url, hardened_postgres.service_role)

    app = make_app(hardened_postgres.service_url, old_ledger)  # the old release's key, in its data folder
    try:
        assert app.audit.verify().intact
        record_execution(app, "print('upgraded')\n")
        app.audit.flush()
        report = app.audit.verify()
        assert report.intact and report.checked == 19 and report.macs == 3
        assert app.audit.protection() == {
            "append_only_triggers": True,
            "role_may_change_events": False,
            "role": hardened_postgres.service_role,
        }
    finally:
        app.close()
    with psycopg.connect(hardened_postgres.service_url) as connection:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute(f"UPDATE {EVENTS_TABLE} SET event_mac = NULL")
