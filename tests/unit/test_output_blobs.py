"""Output kept out of the event (docs/decisions/0014): the threshold, the preview, the blob
written before the event that names it, and every reader getting the whole output back; with a
fake blob store and an in-memory chained ledger."""

from __future__ import annotations

import io
import json
import uuid

import pytest

from mai_safety.ledger.application.bundles import verify_bundle
from mai_safety.ledger.application.sealing import LedgerPolicy
from mai_safety.ledger.application.verification import LedgerAudit
from mai_safety.application.ports import RunOutcome
from mai_safety.application.executions import MaiSafety
from mai_safety.ledger.domain.checkpoint import CheckpointRule
from mai_safety.domain.output import BlobReference, MalformedReference, blob_sha256, references_in_state, split_output

from .fakes import FakeAssessor, FakeBlobStore, FakeSandbox
from .test_checkpoint_audit import GATE, FakeKeyStore

INLINE = 64
NOISY = "".join(f"line {number}: ünïcode\n" for number in range(200))  # about 4.6 kB, multi-byte characters


def _app(outcome: RunOutcome, blobs: FakeBlobStore | None = None, keys: FakeKeyStore | None = None) -> MaiSafety:
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    policy = LedgerPolicy(CheckpointRule(1000, 3600), keys or FakeKeyStore(), inline_output_bytes=INLINE)
    return MaiSafety(
        assessor=FakeAssessor(),
        sandbox=FakeSandbox(outcome),
        policy=GATE,
        env=env,
        ledger=policy,
        blob_store=(lambda _recorder: blobs) if blobs is not None else None,
    )


def _outcome(stdout: str, stderr: str = "", reason: str | None = None) -> RunOutcome:
    size = len(stdout.encode()) + len(stderr.encode())
    return RunOutcome(0 if reason is None else None, stdout, stderr, size, False, 0.5, termination_reason=reason)


def _ending(app: MaiSafety, execution_id: str) -> dict:
    """The ending's outcome exactly as stored in the ledger, blobs not read back."""
    record = app.audit.ledger().select_execution(execution_id)[-1]
    assert record.state is not None
    return json.loads(record.state)["outcome"]


def test_output_within_the_inline_size_stays_in_the_event_and_no_blob_is_written() -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome("x" * INLINE, "e" * INLINE), blobs)
    report = app.run(b"print(1)\n")
    stored = _ending(app, report.execution_id)
    assert stored["stdout"] == "x" * INLINE and stored["stderr"] == "e" * INLINE
    assert "stdout_blob" not in stored and "stderr_blob" not in stored
    assert blobs.puts == []


def test_output_beyond_the_inline_size_is_a_blob_and_the_event_keeps_a_preview_and_its_sha256() -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome(NOISY, "short\n"), blobs)
    report = app.run(b"print(1)\n")
    stored = _ending(app, report.execution_id)
    data = NOISY.encode()
    assert stored["stdout_blob"] == {"sha256": blob_sha256(data), "bytes": len(data)}
    assert NOISY.startswith(stored["stdout"]) and len(stored["stdout"].encode()) <= INLINE
    assert stored["stderr"] == "short\n" and "stderr_blob" not in stored
    assert blobs.blobs == {blob_sha256(data): data}
    assert len(app.audit.ledger().select_execution(report.execution_id)[-1].state) < 1024


def test_history_and_the_report_give_the_whole_output_from_the_blob() -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome(NOISY, NOISY[::-1]), blobs)
    report = app.run(b"print(1)\n")
    assert report.stdout == NOISY and report.stderr == NOISY[::-1]
    completed = app.history(report.execution_id)[-1]
    assert completed["event"] == "Completed"
    assert completed["outcome"]["stdout"] == NOISY and completed["outcome"]["stderr"] == NOISY[::-1]
    assert completed["outcome"]["stdout_blob"]["bytes"] == len(NOISY.encode())
    assert app.verify().intact


def test_a_run_ended_by_a_limit_keeps_its_long_output_as_a_blob_too() -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome(NOISY, reason="output_limit"), blobs)
    report = app.run(b"print(1)\n")
    assert report.status == "terminated" and report.termination_reason == "output_limit"
    assert "stdout_blob" in _ending(app, report.execution_id)
    assert report.stdout == NOISY


def test_the_blob_is_committed_before_the_event_that_names_it() -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome(NOISY), blobs)
    ledger_then: list[list[str]] = []
    blobs.before_put = lambda _data: ledger_then.append(
        [record.event_name for record in app.audit.ledger().select_chain(0, 100)]
    )
    report = app.run(b"print(1)\n")
    assert ledger_then == [["Assessed", "Started"]]  # nothing names the blob yet when it is stored
    assert [event["event"] for event in app.history(report.execution_id)] == ["Assessed", "Started", "Completed"]


def test_a_blob_that_cannot_be_written_leaves_no_event_naming_it() -> None:
    blobs = FakeBlobStore()
    blobs.failing = OSError("the database went away")
    app = _app(_outcome(NOISY), blobs)
    with pytest.raises(OSError, match="went away"):
        app.run(b"print(1)\n")
    assert [record.event_name for record in app.audit.ledger().select_chain(0, 100)] == ["Assessed", "Started"]


def test_without_a_blob_store_output_stays_inline_as_before() -> None:
    app = _app(_outcome(NOISY))
    report = app.run(b"print(1)\n")
    stored = _ending(app, report.execution_id)
    assert stored["stdout"] == NOISY and "stdout_blob" not in stored
    assert report.stdout == NOISY


def test_the_same_output_twice_is_one_blob() -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome(NOISY), blobs)
    first, second = app.run(b"print(1)\n"), app.run(b"print(2)\n")
    assert len(blobs.blobs) == 1 and len(blobs.puts) == 2
    assert _ending(app, first.execution_id)["stdout_blob"] == _ending(app, second.execution_id)["stdout_blob"]


@pytest.mark.parametrize(("change", "kind"), [("remove", "blob_missing"), ("alter", "blob_mismatch"), ("grow", "blob_mismatch")])
def test_verify_reports_a_missing_or_altered_blob_naming_the_execution_and_event(change: str, kind: str) -> None:
    blobs = FakeBlobStore()
    app = _app(_outcome(NOISY), blobs)
    report = app.run(b"print(1)\n")
    (sha256,) = blobs.blobs
    if change == "remove":
        del blobs.blobs[sha256]
    elif change == "alter":
        blobs.blobs[sha256] = blobs.blobs[sha256].replace(b"line 7", b"line 8")
    else:
        blobs.blobs[sha256] += b"more"
    verification = app.verify()
    assert not verification.intact
    (problem,) = verification.details
    assert (problem["kind"], problem["execution"], problem["version"], problem["event"]) == (
        kind, report.execution_id, 3, "Completed"
    )
    assert "stdout" in problem["message"]
    # The whole output is never served from a blob that is not the one named: the preview stays.
    shown = app.history(report.execution_id)[-1]["outcome"]
    assert shown["stdout"] != NOISY and NOISY.startswith(shown["stdout"])
    assert kind.replace("_", " ") in shown["stdout_blob"]["unavailable"]


def test_export_carries_each_blob_once_and_the_bundle_checks_it() -> None:
    blobs, keys = FakeBlobStore(), FakeKeyStore()
    app = _app(_outcome(NOISY), blobs, keys)
    app.run(b"print(1)\n")
    app.run(b"print(2)\n")  # the same output: the same blob
    out = io.StringIO()
    assert app.audit.export(out).intact
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    carried = [line for line in lines if line["type"] == "blob"]
    assert len(carried) == 1 and carried[0]["bytes"] == len(NOISY.encode())
    assert lines[-1]["blobs"] == 1
    assert lines.index(carried[0]) < next(
        number for number, line in enumerate(lines) if line["type"] == "event" and line["topic"].endswith("Completed")
    )
    assert verify_bundle(out.getvalue().splitlines(), keys).intact

    changed = out.getvalue().replace(carried[0]["data"], carried[0]["data"][:-8] + "AAAAAAA=")
    report = verify_bundle(changed.splitlines(), keys)
    assert not report.intact and {detail["kind"] for detail in report.details} == {"blob_mismatch"}
    assert len(report.details) == 2  # both executions name it

    without = [line for line in out.getvalue().splitlines() if '"type":"blob"' not in line]
    report = verify_bundle(without, keys)
    assert {detail["kind"] for detail in report.details} >= {"blob_missing"}


def test_an_outcome_without_a_blob_key_holds_its_output_inline() -> None:
    state = json.dumps({"outcome": {"stdout": "all of it\n", "stderr": ""}}).encode()
    assert references_in_state(state) == []
    assert references_in_state(b"not json") == []


def test_a_reference_spelt_with_json_escapes_is_still_found() -> None:
    escaped = b'{"outcome":{"stdout\\u005fblob":{"sha256":"' + b"ab" * 32 + b'","bytes":1}}}'
    assert references_in_state(escaped) == [("stdout", BlobReference("ab" * 32, 1))]


def test_the_preview_is_cut_at_a_character_boundary() -> None:
    preview, data = split_output("é" * 10, 5)  # two bytes each
    assert preview == "éé" and data == ("é" * 10).encode()
    assert split_output("abc", 3) == ("abc", None)
    assert split_output("", 0) == ("", None)


@pytest.mark.parametrize(
    "entry",
    [
        {"sha256": "AB" * 32, "bytes": 1},
        {"sha256": "ab" * 31, "bytes": 1},
        {"sha256": "ab" * 32, "bytes": -1},
        {"sha256": "ab" * 32, "bytes": True},
        {"sha256": "ab" * 32},
        "ab" * 32,
    ],
)
def test_a_reference_that_is_not_ours_is_refused(entry: object) -> None:
    with pytest.raises(MalformedReference):
        BlobReference.from_dict(entry)


def test_references_that_cannot_be_checked_leave_verification_incomplete() -> None:
    app = _app(_outcome(NOISY), FakeBlobStore())
    app.run(b"print(1)\n")
    elsewhere = LedgerAudit(app.recorder, app.mapper, None)  # the same ledger, no blob store at hand
    report = elsewhere.verify()
    assert report.intact and not report.complete
    assert any("output blobs: 1 reference(s)" in reason for reason in report.unchecked)


def test_an_export_keeps_an_altered_blob_as_evidence_and_reports_it() -> None:
    blobs, keys = FakeBlobStore(), FakeKeyStore()
    app = _app(_outcome(NOISY), blobs, keys)
    app.run(b"print(1)\n")
    (sha256,) = blobs.blobs
    blobs.blobs[sha256] = blobs.blobs[sha256].replace(b"line 7", b"line 8")
    out = io.StringIO()
    report = app.audit.export(out)
    assert not report.intact and [detail["kind"] for detail in report.details] == ["blob_mismatch"]
    assert sum(1 for line in out.getvalue().splitlines() if '"type":"blob"' in line) == 1
    checked = verify_bundle(out.getvalue().splitlines(), keys)
    assert [detail["kind"] for detail in checked.details] == ["blob_mismatch"]
