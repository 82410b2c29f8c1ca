"""Service mode's access rules in the application: tokens on the ledger, roles, separation of duties."""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timezone
from typing import Any

import pytest

from mai_safety.application.errors import ExecutionNotFound, IdempotencyConflict, NotAuthenticated
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.access import ApiToken, Principal, Role
from mai_safety.domain.errors import InvalidTransition
from mai_safety.domain.gate import GateRules, NotPermitted
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.domain.limits import HostBusy

from .fakes import FakeAssessor, FakeSandbox
from .test_application import GATE

OPEN_GATE = GATE.__class__(**{**GATE.__dict__, "rules": GateRules(confirmers=("*",), overriders=("*",), answer_within=GATE.rules.answer_within)})


class BusySandbox(FakeSandbox):
    """No room on the host while ``busy``."""

    busy = False

    def prepare(self, *args: Any, **kwargs: Any) -> Any:
        if self.busy:
            raise HostBusy("no room (fake)")
        return super().prepare(*args, **kwargs)


def _app(level: RiskLevel = RiskLevel.LOW, dbname: str | None = None) -> MaiSafety:
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": dbname or f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    app = MaiSafety(assessor=FakeAssessor(level), sandbox=BusySandbox(), policy=OPEN_GATE, env=env)
    app.roles_decide = True
    return app


def _principal(name: str, *roles: Role) -> Principal:
    return Principal(name=name, roles=frozenset(roles))


MAI = _principal("mai", Role.SUBMITTER)
OTHER = _principal("other-bot", Role.SUBMITTER)
APPROVER = _principal("alice", Role.APPROVER)
OFFICER = _principal("sec", Role.SECURITY_OFFICER)
AUDITOR = _principal("audit", Role.AUDITOR)
ADMIN = _principal("root", Role.ADMIN)


def _submit(app: MaiSafety, principal: Principal = MAI, **options: object) -> str:
    with acting_as("ignored", principal):
        return app.run(b"import os\n", **options).execution_id  # type: ignore[arg-type]


def test_a_granted_token_authenticates_as_its_principal_and_a_revoked_one_is_refused_at_once() -> None:
    app = _app()
    issued = app.grant_token("mai", [Role.SUBMITTER, Role.SUBMITTER])
    assert issued.roles == ["submitter"]
    principal = app.authenticate(issued.token)
    assert (principal.name, principal.roles) == ("mai", frozenset({Role.SUBMITTER}))
    app.revoke_tokens("mai")
    with pytest.raises(NotAuthenticated):
        app.authenticate(issued.token)


@pytest.mark.parametrize(
    "presented",
    ["", "Bearer x", "mst_" + "0" * 32 + "_x", "mst_zz" + "0" * 30 + "_abc", "x" * 5000],
)
def test_a_token_that_is_not_ours_is_refused(presented: str) -> None:
    app = _app()
    app.grant_token("mai", [Role.SUBMITTER])
    with pytest.raises(NotAuthenticated):
        app.authenticate(presented)


def test_a_token_with_the_right_id_and_a_wrong_secret_is_refused() -> None:
    app = _app()
    issued = app.grant_token("mai", [Role.SUBMITTER])
    forged = issued.token[:-4] + ("AAAA" if not issued.token.endswith("AAAA") else "BBBB")
    with pytest.raises(NotAuthenticated):
        app.authenticate(forged)


def test_an_execution_id_presented_as_a_token_id_is_refused() -> None:
    app = _app()
    execution_id = _submit(app)
    with pytest.raises(NotAuthenticated):
        app.authenticate(f"mst_{uuid.UUID(execution_id).hex}_secret")


def test_only_the_hash_of_a_token_is_on_the_ledger(tmp_path: object) -> None:
    app = _app()
    issued = app.grant_token("mai", [Role.SUBMITTER])
    stored = b"".join(record.state for record in app.recorder.select_notifications(start=None, limit=100))
    assert issued.token.encode() not in stored
    secret = issued.token.split("_", 2)[2]  # the secret itself may hold "_"
    assert len(secret) >= 40 and secret.encode() not in stored


def test_grants_and_revocations_replay_from_the_ledger_as_of_any_moment(tmp_path: object) -> None:
    dbname = f"{tmp_path}/ledger.sqlite"
    app = _app(dbname=dbname)
    with acting_as("operator@host"):
        app.grant_token("sec", [Role.SECURITY_OFFICER])
        time.sleep(0.01)
        between = datetime.now(timezone.utc)
        time.sleep(0.01)
        app.revoke_tokens("sec", "left the team")
    app.close()
    again = _app(dbname=dbname)
    try:
        (now,) = again.tokens()
        assert (now.principal, now.active, now.revoked_by, now.revoked_because) == ("sec", False, "operator@host", "left the team")
        (then,) = again.tokens(as_of=between)
        assert (then.active, then.roles, then.granted_by) == (True, ["security-officer"], "operator@host")
        assert again.tokens(as_of=datetime(2000, 1, 1, tzinfo=timezone.utc)) == []
        assert again.verify().intact
    finally:
        again.close()


def test_a_submitter_cannot_confirm_its_own_high_execution_even_with_the_approver_role() -> None:
    app = _app(RiskLevel.HIGH)
    both = _principal("mai", Role.SUBMITTER, Role.APPROVER)
    execution_id = _submit(app, both)
    with acting_as("security-officer", both), pytest.raises(NotPermitted, match="separation of duties"):
        app.approve(execution_id)
    with acting_as("alice", APPROVER):
        report = app.approve(execution_id, kind="confirmation")
    assert report.status == "completed"
    overridden = [event for event in app.history(execution_id) if event["event"] == "Overridden"]
    assert overridden[0]["actor"] == "alice"


def test_a_submitter_only_principal_cannot_answer_the_gate_nor_answer_up_front() -> None:
    app = _app(RiskLevel.BLOCKED)
    with acting_as("security-officer", MAI), pytest.raises(NotPermitted):
        app.run(b"import os\n", override="I say so")
    execution_id = _submit(app)
    with acting_as("x", MAI), pytest.raises(NotPermitted):
        app.approve(execution_id, "I say so")
    with acting_as("x", OFFICER):
        assert app.approve(execution_id, "reviewed: harmless", kind="override").status == "completed"


def test_roles_decide_in_service_mode_not_the_policys_names() -> None:
    app = _app(RiskLevel.HIGH)  # the policy lets "*" confirm and override
    execution_id = _submit(app)
    for principal in (OFFICER, AUDITOR):
        with acting_as("x", principal), pytest.raises(NotPermitted):
            app.approve(execution_id)
    with pytest.raises(NotPermitted):  # service mode without a principal: nobody answers
        app.approve(execution_id)


def test_another_submitters_execution_does_not_exist_for_a_submitter() -> None:
    app = _app(RiskLevel.HIGH)
    execution_id = _submit(app)
    for action in (app.report, app.history, app.cancel, app.approve, app.deny):
        with acting_as("x", OTHER), pytest.raises(ExecutionNotFound):
            action(execution_id)
    with acting_as("x", ADMIN), pytest.raises(ExecutionNotFound):
        app.report(execution_id)
    for principal in (APPROVER, OFFICER, AUDITOR):
        with acting_as("x", principal):
            assert app.report(execution_id).submitted_by == "mai"


def test_the_wrong_answer_kind_is_a_transition_the_execution_does_not_allow() -> None:
    app = _app(RiskLevel.HIGH)
    execution_id = _submit(app)
    with acting_as("x", OFFICER), pytest.raises(InvalidTransition):
        app.approve(execution_id, "why", kind="override")


def test_the_same_execution_id_records_one_execution_and_other_code_is_a_conflict() -> None:
    app = _app()
    chosen = uuid.uuid4()
    with acting_as("x", MAI):
        first = app.run(b"print(1)\n", execution_id=chosen)
        again = app.run(b"print(1)\n", execution_id=chosen)
        assert first == again
        with pytest.raises(IdempotencyConflict):
            app.run(b"print(2)\n", execution_id=chosen)
    assert len(app.history(str(chosen))) == 3


def test_the_callers_labels_are_recorded_beside_the_principal() -> None:
    app = _app()
    with acting_as("x", MAI):
        report = app.run(b"print(1)\n", caller={"task_id": "t-1", "session_id": "", "on_behalf_of": "bob"})
    assert (report.submitted_by, report.caller) == ("mai", {"task_id": "t-1", "on_behalf_of": "bob"})
    assessed = app.history(report.execution_id)[0]
    assert assessed["actor"] == "mai" and assessed["caller"]["principal"] == "mai"


def test_roles_gate_each_action() -> None:
    app = _app()
    for principal in (APPROVER, OFFICER, AUDITOR, ADMIN):
        with acting_as("x", principal), pytest.raises(NotPermitted):
            app.run(b"print(1)\n")
        with acting_as("x", principal), pytest.raises(NotPermitted):
            app.assess(b"print(1)\n")
    for principal in (MAI, APPROVER, OFFICER, ADMIN):
        with acting_as("x", principal), pytest.raises(NotPermitted):
            app.verify()
    with acting_as("x", AUDITOR):
        assert app.verify().intact


@pytest.mark.parametrize("name", ["", "-x", "a b", "mai-safety-service", "mai-safety", "x" * 65, "é"])
def test_a_principal_name_that_could_be_mistaken_is_refused(name: str) -> None:
    with pytest.raises(InvalidTransition):
        _app().grant_token(name, [Role.SUBMITTER])


def test_a_token_needs_a_role() -> None:
    with pytest.raises(InvalidTransition):
        _app().grant_token("mai", [])


def test_a_retry_after_a_refusal_for_want_of_room_is_a_new_attempt_under_the_same_key() -> None:
    app = _app()
    chosen = uuid.uuid4()
    app.sandbox.busy = True  # type: ignore[attr-defined]
    with acting_as("x", MAI), pytest.raises(HostBusy):
        app.run(b"print(1)\n", execution_id=chosen)
    assert app.report(str(chosen)).termination_reason == "host_busy"
    app.sandbox.busy = False  # type: ignore[attr-defined]
    with acting_as("x", MAI):
        retried = app.run(b"print(1)\n", execution_id=chosen)
        assert retried.status == "completed" and retried.execution_id != str(chosen)
        assert app.run(b"print(1)\n", execution_id=chosen) == retried


def test_the_sweeper_ends_overdue_waits_once_and_reads_on_from_where_it_stopped() -> None:
    from datetime import timedelta

    app = _app(RiskLevel.HIGH)
    app.policy = app.policy.__class__(**{**app.policy.__dict__, "rules": GateRules(("*",), ("*",), timedelta(0))})
    first = _submit(app)
    assert app.expire_overdue() == [first]
    assert app.expire_overdue() == []
    second = _submit(app)
    assert app.expire_overdue() == [second]
    report = app.report(first)
    assert (report.status, report.termination_reason) == ("rejected", "no_answer")


def test_a_plain_submitter_token_may_not_claim_the_users_provenance_and_nothing_is_recorded() -> None:
    app = _app()
    plain = app.authenticate(app.grant_token("mai", [Role.SUBMITTER]).token)
    before = app.recorder.max_notification_id()
    for attempt in (lambda: _submit(app, plain, provenance=Provenance.USER), lambda: _assess(app, plain, Provenance.USER)):
        with pytest.raises(NotPermitted, match="provenance 'user'"):
            attempt()
    assert app.recorder.max_notification_id() == before
    assert _submit(app, plain, provenance=Provenance.MAI) and _submit(app, plain, provenance=Provenance.EXTERNAL)


def test_a_token_granted_the_users_provenance_may_claim_it() -> None:
    app = _app()
    issued = app.grant_token("ide", [Role.SUBMITTER], [Provenance.USER])
    assert issued.provenances == ["user"]
    granted = app.authenticate(issued.token)
    assert granted.provenances == frozenset({Provenance.USER, Provenance.EXTERNAL})
    assert _submit(app, granted, provenance=Provenance.USER)
    with pytest.raises(NotPermitted, match="provenance 'mai'"):
        _submit(app, granted, provenance=Provenance.MAI)
    (report,) = app.tokens()
    assert report.provenances == ["user"]


def test_a_token_granted_before_provenances_were_granted_claims_only_the_default() -> None:
    state: dict[str, object] = {"principal": "mai", "roles": ["submitter"], "token_sha256": "0" * 64}
    ApiToken.TokenGranted.upcast_v1_v2(state)
    assert state["provenances"] == ["mai"]


def test_locally_the_machines_owner_says_who_wrote_the_code() -> None:
    app = _app()
    with acting_as("owner@host"):
        assert app.run(b"print(1)\n", provenance=Provenance.USER).execution_id


def _assess(app: MaiSafety, principal: Principal, provenance: Provenance) -> object:
    with acting_as("ignored", principal):
        return app.assess(b"print(1)\n", provenance=provenance)
