"""The application's side of the ledger: sealing as it saves, verification, export and bundles,
with fake keys and an in-memory chained ledger."""

from __future__ import annotations

import hashlib
import io
import json
import uuid

import pytest

from mai_safety.ledger.application.bundles import verify_bundle
from mai_safety.ledger.application.sealing import LedgerPolicy
from mai_safety.application.errors import CannotVerify
from mai_safety.application.ports import KeyStore, PublicKey, Signer
from mai_safety.application.executions import MaiSafety
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.ledger.domain.checkpoint import CheckpointRule
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits, TrustRule

from .fakes import FakeAssessor, FakeSandbox

PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
GATE = ExecutionPolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
)


class FakePublicKey(PublicKey):
    """Checks a keyed hash standing in for a signature."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self.key_id = "sha256:" + hashlib.sha256(secret).hexdigest()

    def verify(self, message: bytes, signature: bytes) -> bool:
        return signature == hashlib.sha512(self._secret + message).digest()

    def to_pem(self) -> str:
        return self._secret.hex()


class FakeSigner(Signer):
    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self.public_key = FakePublicKey(secret)

    def sign(self, message: bytes) -> bytes:
        return hashlib.sha512(self._secret + message).digest()

    def mac_key(self) -> bytes:
        return hashlib.sha256(b"mac key of " + self._secret).digest()


class FakeKeyStore(KeyStore):
    def __init__(self, secret: bytes = b"service key") -> None:
        self._signer = FakeSigner(secret)
        self.created = False

    def signer(self) -> Signer:
        self.created = True
        return self._signer

    def public_key(self) -> PublicKey | None:
        return self._signer.public_key if self.created else None

    def public_key_from_pem(self, pem: str, source: str) -> PublicKey:
        return FakePublicKey(bytes.fromhex(pem))


def _app(keys: KeyStore | None = None, every_events: int = 1000, *, sealed: bool = True) -> MaiSafety:
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    policy = LedgerPolicy(CheckpointRule(every_events, 3600), keys or FakeKeyStore()) if sealed else None
    return MaiSafety(assessor=FakeAssessor(), sandbox=FakeSandbox(), policy=GATE, env=env, ledger=policy)


def _lines(app: MaiSafety, **options: object) -> list[str]:
    out = io.StringIO()
    assert app.audit.export(out, **options).intact  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_a_finished_execution_is_sealed_in_the_same_transaction_as_its_end() -> None:
    app = _app()
    report = app.run(b"print(1)\n")
    checkpoint = app.audit.checkpoint(seal=False)
    assert checkpoint is not None and (checkpoint.position, checkpoint.reason) == (3, "execution ended")
    assert app.audit.verify().intact and report.status == "completed"


def test_a_waiting_execution_is_sealed_by_the_every_n_rule_only() -> None:
    app = _app(every_events=3)
    app.assessor = FakeAssessor(RiskLevel.HIGH)
    app.run(b"import os\n")  # Assessed and OverrideRequested: the first events are sealed at once
    app.run(b"import sys\n")
    checkpoint = app.audit.checkpoint(seal=False)
    assert app.verify().head_position == 4 and checkpoint is not None and checkpoint.position == 2
    app.run(b"import io\n")
    checkpoint = app.audit.checkpoint(seal=False)
    assert checkpoint is not None and (checkpoint.position, checkpoint.reason) == (6, "4 events")


def test_an_application_without_a_ledger_policy_seals_nothing_and_still_verifies_its_chains() -> None:
    app = _app(sealed=False)
    app.run(b"print(1)\n")
    report = app.verify()
    assert report.intact and report.complete and report.checkpoints == 0 and report.checked == 3


def test_checkpoints_whose_key_is_missing_leave_verification_incomplete() -> None:
    keys = FakeKeyStore()
    app = _app(keys)
    app.run(b"print(1)\n")
    keys.created = False  # as on a machine without the private key
    report = app.audit.verify()
    assert report.intact and not report.complete and "--public-key" in report.unchecked[0]
    assert app.audit.verify(public_key=FakePublicKey(b"service key")).complete


def test_an_exported_execution_verifies_alone_with_other_executions_as_hashes_only() -> None:
    app = _app()
    first = app.run(b"print(1)\n").execution_id
    app.assessor = FakeAssessor(RiskLevel.HIGH)
    app.run(b"import os\n")  # waits, after the first execution has ended
    app.assessor = FakeAssessor()
    app.run(b"print(3)\n")
    lines = _lines(app, execution=first)
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[0] == "header" and kinds[-1] == "end" and "redacted" not in kinds  # nothing interleaved
    report = verify_bundle(lines, FakeKeyStore())
    assert report.intact and report.checked == 3 and report.scope["key_source"] == "bundle"
    assert json.loads(lines[0])["scope"]["execution"] == first


def test_an_execution_interleaved_with_others_exports_their_hashes_but_not_their_content() -> None:
    app = _app()
    app.assessor = FakeAssessor(RiskLevel.HIGH)
    waiting = app.run(b"import os\n").execution_id
    app.assessor = FakeAssessor()
    app.run(b"print('other')\n")
    app.approve(waiting, "fine")
    lines = _lines(app, execution=waiting)
    redacted = [json.loads(line) for line in lines if json.loads(line)["type"] == "redacted"]
    assert len(redacted) == 3 and not any("print('other')" in line for line in lines)
    assert verify_bundle(lines, FakeKeyStore()).intact


def test_a_bundle_with_one_changed_event_or_a_foreign_key_fails() -> None:
    app = _app()
    app.run(b"print(1)\n")
    lines = _lines(app)
    event = json.loads(lines[1])
    event["version"] = 7
    changed = [lines[0], json.dumps(event), *lines[2:]]
    problems = verify_bundle(changed, FakeKeyStore()).details
    assert problems[0]["kind"] == "unexpected_event" and problems[0]["position"] == 1
    foreign = verify_bundle(lines, FakeKeyStore(), FakePublicKey(b"someone else"))
    assert not foreign.intact and foreign.details[0]["kind"] == "bad_signature"


def test_a_file_that_is_not_a_bundle_cannot_be_checked() -> None:
    with pytest.raises(CannotVerify, match="not a mai-safety ledger bundle"):
        verify_bundle(['{"type": "something else"}'], FakeKeyStore())
    with pytest.raises(CannotVerify, match="line 1 of the bundle is not JSON"):
        verify_bundle(["not json"], FakeKeyStore())


def test_a_range_exports_with_its_anchor_and_verifies_on_its_own() -> None:
    app = _app()
    for number in range(3):
        app.run(f"print({number})\n".encode())
    lines = _lines(app, from_position=4, to_position=6)
    header = json.loads(lines[0])
    assert header["anchor"]["position"] == 3 and header["previous_checkpoint"]["position"] == 3
    report = verify_bundle(lines, FakeKeyStore())
    assert report.intact and report.checked == 3
