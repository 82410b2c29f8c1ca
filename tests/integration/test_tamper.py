"""The tamper suite: an attacker with the database owner's rights changes the ledger underneath
the application, protections off, and verification names what was done and where.

Each test records the same small ledger through the application, on SQLite and on an
append-only Postgres, tampers with it one way, and checks the problem verification reports.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.executions import MaiSafety
from mai_safety.ledger.domain.chain import event_hash, ledger_hash

from .ledger_helpers import (
    Attacker,
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    make_app,
    record_execution,
    record_waiting,
)

APPROVED = "mai_safety.domain.execution:Execution.Approved"  # not an event of ours


@dataclass
class Scene:
    app: MaiSafety
    attacker: Attacker
    executions: dict[str, str]

    def rows_of(self, name: str) -> list[dict]:
        return [row for row in self.attacker.events() if row["execution"] == self.executions[name]]

    def problems(self, **options: object) -> list[dict]:
        report = self.app.audit.verify(**options)  # type: ignore[arg-type]
        assert not report.intact, "the tampering went unnoticed"
        return report.details


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def scene(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Scene]:
    if request.param == "sqlite":
        path = tmp_path / "ledger.sqlite"
        url, attacker = f"sqlite:///{path}", Attacker("sqlite", sqlite_path=path)
    else:
        database: HardenedPostgres = request.getfixturevalue("hardened_postgres")
        url, attacker = database.service_url, Attacker("postgres", owner=database.owner)
    app = make_app(url, tmp_path / "data")
    try:
        executions = {
            "first": record_execution(app, "print(1)\n"),
            "waiting": record_waiting(app),
            "third": record_execution(app, "print(3)\n"),
            "sampled": record_execution(app, "print(4)\n", samples=2),
            "last": record_execution(app, "print(5)\n"),
        }
        app.audit.flush()  # the attacker comes later: the service has sealed every ending by then
        assert app.audit.verify().intact
        yield Scene(app, attacker, executions)
    finally:
        app.close()


def _recorded_earlier(state: bytes, by: timedelta) -> bytes:
    """The same stored state, its timestamp moved back."""
    data = json.loads(state)
    when = datetime.fromisoformat(data["timestamp"]["_data_"]) - by
    data["timestamp"]["_data_"] = when.isoformat()
    return json.dumps(data, separators=(",", ":")).encode()


def _only(details: list[dict], kind: str) -> list[dict]:
    return [detail for detail in details if detail["kind"] == kind]


def test_one_changed_byte_of_one_event_is_reported_at_its_position(scene: Scene) -> None:
    started = scene.rows_of("third")[1]
    state = bytearray(started["state"])
    state[len(state) // 2] ^= 0x01
    scene.attacker.set_state(started["position"], bytes(state))

    problem = scene.problems()[0]
    assert problem["kind"] == "hash_mismatch"
    assert (problem["position"], problem["execution"], problem["version"], problem["event"]) == (
        started["position"], scene.executions["third"], 2, "Started"
    )
    assert problem["message"].startswith("event hash mismatch")


def test_changed_code_in_assessed_is_found_and_replay_shows_it(scene: Scene) -> None:
    assessed = scene.rows_of("first")[0]
    scene.attacker.set_state(assessed["position"], assessed["state"].replace(b"print(1)", b"print(9)"))

    problem = scene.problems()[0]
    assert (problem["kind"], problem["position"], problem["event"]) == ("hash_mismatch", assessed["position"], "Assessed")
    replay = scene.app.audit.replay(scene.executions["first"])
    assert not replay.intact
    assert replay.code == "print(9)\n" and replay.code_sha256_matches is False
    assert replay.timeline[0]["verified"] is False
    assert any("code hash mismatch" in line for line in replay.problems)


def test_a_deleted_event_in_the_middle_is_a_missing_position(scene: Scene) -> None:
    started = scene.rows_of("third")[1]
    scene.attacker.delete_positions(started["position"])

    details = scene.problems()
    missing = _only(details, "missing_position")[0]
    assert missing["position"] == started["position"] + 1
    assert f"position {started['position']} removed" in missing["message"]
    unexpected = _only(details, "unexpected_event")[0]
    assert (unexpected["execution"], unexpected["version"]) == (scene.executions["third"], 3)
    assert "version 2 missing" in unexpected["message"]


def test_a_deleted_execution_leaves_its_positions_missing(scene: Scene) -> None:
    rows = scene.rows_of("third")
    scene.attacker.delete_positions(*(row["position"] for row in rows))

    missing = _only(scene.problems(), "missing_position")[0]
    first, last = rows[0]["position"], rows[-1]["position"]
    assert missing["position"] == last + 1
    assert f"positions {first}..{last} removed" in missing["message"]
    with pytest.raises(ExecutionNotFound):
        scene.app.audit.verify(execution=scene.executions["third"])


def test_deleting_the_last_events_is_a_truncated_tail(scene: Scene) -> None:
    head = scene.attacker.events()[-1]["position"]
    scene.attacker.delete_positions(head, head - 1, head - 2)

    truncated = _only(scene.problems(), "tail_truncated")[0]
    assert f"signed position {head}, but the ledger ends at position {head - 3}" in truncated["message"]


def test_a_truncated_tail_whose_checkpoints_went_too_is_caught_by_a_kept_checkpoint_and_the_witness(scene: Scene) -> None:
    kept = scene.app.audit.checkpoint()
    assert kept is not None
    scene.app.audit.flush()  # the witness has recorded it
    last = scene.rows_of("last")
    covering = [cp for cp in scene.attacker.checkpoints() if cp["position"] >= last[0]["position"]]
    scene.attacker.delete_positions(*(row["position"] for row in last))
    scene.attacker.delete_checkpoints_from(covering[0]["sequence"])

    # What remains is self-consistent: only a checkpoint kept outside the database can tell, the
    # witness's (by default) or one the verifier kept.
    behind = _only(scene.problems(), "ledger_behind_witness")[0]
    assert f"(#{kept.sequence} at position {kept.position}" in behind["message"]
    assert "an older copy of the ledger was put back" in behind["message"]
    truncated = _only(scene.problems(kept=kept), "tail_truncated")[0]
    assert f"before the checkpoint you kept (#{kept.sequence} at position {kept.position})" in truncated["message"]


def test_a_forged_event_slipped_into_the_middle_is_found(scene: Scene) -> None:
    rows = scene.attacker.events()
    at = scene.rows_of("third")[0]["position"]
    scene.attacker.execute(
        *((f"UPDATE {scene.attacker.events_table} SET ledger_position = ? WHERE ledger_position = ?", (row["position"] + 1, row["position"]))
          for row in reversed(rows) if row["position"] >= at)
    )
    forged_id = "00000000-0000-4000-8000-000000000001"
    digest = event_hash(bytes(32), APPROVED, forged_id, 1, b"{}")
    previous = next(row for row in rows if row["position"] == at - 1)
    scene.attacker.insert_event(
        {
            "execution": forged_id,
            "version": 1,
            "topic": APPROVED,
            "state": b"{}",
            "position": at,
            "event_hash": digest,
            "ledger_hash": ledger_hash(previous["ledger_hash"], at, digest),
        }
    )

    details = scene.problems()
    assert details[0]["kind"] == "unexpected_event" and details[0]["position"] == at
    assert "is not an event this service writes" in details[0]["message"]
    broken = _only(details, "hash_mismatch")[0]
    assert broken["position"] == at + 1 and broken["message"].startswith("ledger hash mismatch")


def test_a_forged_ending_appended_with_valid_hashes_is_not_covered_by_any_signature(scene: Scene) -> None:
    rows = scene.attacker.events()
    waiting = scene.rows_of("waiting")
    # An ending recorded an hour ago: far older than any seal the service may still owe it.
    completed_state = _recorded_earlier(scene.rows_of("first")[-1]["state"], timedelta(hours=1))
    topic = scene.rows_of("first")[-1]["topic"]
    position = rows[-1]["position"] + 1
    digest = event_hash(waiting[-1]["event_hash"], topic, scene.executions["waiting"], 3, completed_state)
    scene.attacker.insert_event(
        {
            "execution": scene.executions["waiting"],
            "version": 3,
            "topic": topic,
            "state": completed_state,
            "position": position,
            "event_hash": digest,
            "ledger_hash": ledger_hash(rows[-1]["ledger_hash"], position, digest),
        }
    )

    forged, uncovered = scene.problems()
    assert (forged["kind"], uncovered["kind"]) == ("forged_event", "not_covered")
    for problem in (forged, uncovered):
        assert (problem["position"], problem["execution"], problem["version"], problem["event"]) == (
            position, scene.executions["waiting"], 3, "Completed"
        )
    assert "it carries no MAC" in forged["message"]
    assert "this execution ended here but the newest checkpoint" in uncovered["message"]


def test_two_swapped_events_are_found_out_of_order(scene: Scene) -> None:
    started, sample = scene.rows_of("sampled")[1:3]
    scene.attacker.execute(
        (f"UPDATE {scene.attacker.events_table} SET ledger_position = -1 WHERE ledger_position = ?", (started["position"],)),
        (f"UPDATE {scene.attacker.events_table} SET ledger_position = ? WHERE ledger_position = ?", (started["position"], sample["position"])),
        (f"UPDATE {scene.attacker.events_table} SET ledger_position = ? WHERE ledger_position = -1", (sample["position"],)),
    )

    unexpected = _only(scene.problems(), "unexpected_event")
    assert unexpected[0]["position"] == started["position"]
    assert "expected version 2 of this execution, found 3" in unexpected[0]["message"]
    assert unexpected[1]["position"] == sample["position"]
    assert "version 2 of this execution comes after version 3" in unexpected[1]["message"]


def test_a_rewritten_suffix_with_every_hash_recomputed_is_a_chain_fork(scene: Scene) -> None:
    kept = scene.app.audit.checkpoint()
    assert kept is not None
    assessed = scene.rows_of("third")[0]
    old_sha = hashlib.sha256(b"print(3)\n").hexdigest().encode()
    new_sha = hashlib.sha256(b"print(7)\n").hexdigest().encode()
    scene.attacker.set_state(
        assessed["position"], assessed["state"].replace(b"print(3)", b"print(7)").replace(old_sha, new_sha)
    )
    assert scene.attacker.recompute_hashes() > 1

    details = scene.problems()
    assert not _only(details, "hash_mismatch"), "every hash was recomputed: only the signatures and MACs can tell"
    forks = [d for d in _only(details, "chain_fork") if "was rewritten and its hashes recomputed" in d["message"]]
    first_signed_after = min(cp["position"] for cp in scene.attacker.checkpoints() if cp["position"] >= assessed["position"])
    assert forks and forks[0]["position"] == first_signed_after
    # Recomputed hashes need no secret; their MACs do: the first rewritten event is forged, and the run after it.
    forged = _only(details, "forged_event")[0]
    assert forged["position"] == assessed["position"] and "its MAC does not verify" in forged["message"]
    kept_fork = [d for d in _only(scene.problems(kept=kept), "chain_fork") if "the checkpoint you kept" in d["message"]]
    assert kept_fork and kept_fork[0]["position"] == kept.position


@pytest.mark.parametrize("which", ["newest", "middle"])
def test_a_replaced_checkpoint_signature_is_a_bad_signature(scene: Scene, which: str) -> None:
    checkpoints = scene.attacker.checkpoints()
    target = checkpoints[-1] if which == "newest" else checkpoints[len(checkpoints) // 2]
    scene.attacker.execute((f"UPDATE {scene.attacker.checkpoints_table} SET signature = ? WHERE sequence = ?", (os.urandom(64), target["sequence"])))

    (problem,) = scene.problems()
    assert (problem["kind"], problem["checkpoint"]) == ("bad_signature", target["sequence"])
    assert "signature does not verify" in problem["message"]


def test_an_old_checkpoint_put_back_after_truncating_the_tail_is_a_replay(scene: Scene) -> None:
    last = scene.rows_of("last")
    checkpoints = scene.attacker.checkpoints()
    covering = [cp for cp in checkpoints if cp["position"] >= last[0]["position"]]
    scene.attacker.delete_positions(*(row["position"] for row in last))
    scene.attacker.delete_checkpoints_from(covering[0]["sequence"])
    columns = "sequence, ledger_position, ledger_hash, signed_at, reason, key_id, previous, signature, format_version, macs_from"
    scene.attacker.execute(
        (
            f"INSERT INTO {scene.attacker.checkpoints_table} ({columns}) SELECT ?, ledger_position, ledger_hash, signed_at, reason, key_id, "
            f"previous, signature, format_version, macs_from FROM {scene.attacker.checkpoints_table} WHERE sequence = 1",
            (covering[0]["sequence"],),
        )
    )

    details = scene.problems()
    (problem,) = _only(details, "checkpoint_replayed")
    assert problem["checkpoint"] == covering[0]["sequence"]
    assert f"#{covering[0]['sequence']} signs position" in problem["message"] or "signature of checkpoint #1" in problem["message"]
    # The witness holds the newest genuine checkpoint, which the ledger no longer reaches.
    assert [detail["kind"] for detail in details] == ["checkpoint_replayed", "ledger_behind_witness"]
