"""The Session aggregate and the gate's judgement in context: pure, no I/O (issue #27)."""

from __future__ import annotations

import json

import pytest
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, JSONTranscoder, Mapper, StoredEvent, UUIDAsHex
from eventsourcing.utils import get_topic

from mai_safety.application.topics import LEDGER_TOPICS
from mai_safety.domain.assessment import Assessment, Finding
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.session import (
    MANIFEST_BY_INTERPRETER,
    EndReason,
    Session,
    SessionClosed,
    SessionLimits,
    SessionStatus,
    judge_in_context,
    EarlierCells,
)


def opened(**limits: float) -> Session:
    return Session.open(
        owner="mai", container_id="c0ffee", holder="host/1/2.0", image="mai-safety/sandbox:1", runtime="runsc",
        network="none", trust="untrusted", limits={"memory_bytes": 1}, session_limits=SessionLimits(**limits),  # type: ignore[arg-type]
    )


def replayed(session: Session) -> Session:
    copy = None
    for item in session.collect_events():
        copy = item.mutate(copy)
    assert isinstance(copy, Session)
    return copy


def test_a_session_records_who_opened_it_its_cells_their_manifests_and_why_it_ended() -> None:
    session = opened()
    session.add_cell("e1", RiskLevel.LOW, waits=False)
    session.cell_ended("e1", ran=True, manifest=[{"name": "kept.txt", "size": 4, "sha256": "ab"}])
    session.interpreter_restarted("killed by signal 9", "e2")
    session.end(EndReason.CALLER, "ended by mai")
    copy = replayed(session)
    assert copy.owner == "mai" and copy.container_id == "c0ffee" and copy.session_limits == SessionLimits()
    assert copy.ran_cells == ["e1"] and copy.manifest == [{"name": "kept.txt", "size": 4, "sha256": "ab"}]
    assert copy.restarts == [{"cause": "killed by signal 9", "execution_id": "e2"}]
    assert copy.status is SessionStatus.ENDED and copy.ended_reason == "caller"


def test_a_cell_that_waits_for_a_person_makes_the_session_wait_until_it_ends() -> None:
    session = opened()
    session.add_cell("e1", RiskLevel.HIGH, waits=True)
    assert session.status is SessionStatus.WAITING
    with pytest.raises(SessionClosed, match="waits for a person"):
        session.add_cell("e2", RiskLevel.LOW, waits=False)
    session.cell_ended("e1", ran=False, manifest=[])
    assert session.status is SessionStatus.OPEN and session.ran_cells == []


def test_an_ended_session_takes_no_cell_and_does_not_end_twice() -> None:
    session = opened()
    session.end(EndReason.IDLE)
    with pytest.raises(SessionClosed):
        session.add_cell("e1", RiskLevel.LOW, waits=False)
    with pytest.raises(SessionClosed):
        session.end(EndReason.CALLER)


def test_a_session_takes_no_more_cells_than_its_limit() -> None:
    session = opened(max_cells=1)
    session.add_cell("e1", RiskLevel.LOW, waits=False)
    with pytest.raises(SessionClosed, match="its 1 cells"):
        session.add_cell("e2", RiskLevel.LOW, waits=False)


def test_a_session_is_past_its_limit_once_it_has_run_its_cells_or_used_its_total_cpu() -> None:
    session = opened(max_cells=2, total_cpu_s=10)
    assert session.past_limit(None) is None and session.past_limit(9.9) is None
    assert "10.0 s of CPU" in (session.past_limit(10.0) or "")
    session.add_cell("e1", RiskLevel.LOW, waits=False)
    session.cell_ended("e1", ran=True, manifest=[])
    session.add_cell("e2", RiskLevel.HIGH, waits=True)
    assert session.past_limit(None) is None  # its last cell waits for a person
    session.cell_ended("e2", ran=True, manifest=[])
    assert session.past_limit(None) == "it has run its 2 cells"
    session.end(EndReason.LIMIT, "limit")
    assert session.past_limit(99.0) is None


def test_idle_and_lifetime_end_a_session_but_a_waiting_one_is_not_idle() -> None:
    session = opened(idle_s=10, lifetime_s=100)
    assert session.ends_for(idle_s=5, age_s=50) is None
    assert session.ends_for(idle_s=11, age_s=50) is EndReason.IDLE
    assert session.ends_for(idle_s=1, age_s=100) is EndReason.LIFETIME
    session.add_cell("e1", RiskLevel.HIGH, waits=True)
    assert session.ends_for(idle_s=50, age_s=50) is None


def test_limits_asked_for_are_capped_by_the_policys() -> None:
    asked = SessionLimits(idle_s=9999, lifetime_s=60, max_cells=5)
    assert asked.within(SessionLimits()) == SessionLimits(idle_s=300, lifetime_s=60, max_cells=5)


def test_a_manifest_is_recorded_with_who_listed_it_and_an_older_ledgers_reads_as_self_reported() -> None:
    session = opened()
    session.add_cell("e1", RiskLevel.LOW, waits=False)
    session.cell_ended("e1", ran=True, manifest=[{"name": "kept.txt", "size": 4, "sha256": "ab"}])
    ended = session.collect_events()[-1]
    assert isinstance(ended, Session.CellEnded) and ended.manifest_by == MANIFEST_BY_INTERPRETER
    assert "self-reported" in MANIFEST_BY_INTERPRETER
    transcoder = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DatetimeAsISO(), DecimalAsStr()):
        transcoder.register(transcoding)
    mapper = Mapper(transcoder=transcoder)
    stored = mapper.to_stored_event(ended)
    state = json.loads(stored.state)
    del state["manifest_by"]  # as main wrote it before version 2
    state["class_version"] = 1
    older = StoredEvent(stored.originator_id, stored.originator_version, stored.topic, json.dumps(state).encode())
    read = mapper.to_domain_event(older)
    assert isinstance(read, Session.CellEnded) and read.manifest_by == MANIFEST_BY_INTERPRETER


def test_the_sessions_events_are_known_to_the_ledgers_verification() -> None:
    assert {get_topic(Session.Opened), get_topic(Session.CellAdded), get_topic(Session.Ended)} <= LEDGER_TOPICS


def finding(level: RiskLevel, line: int, rule: str = "rule") -> Finding:
    return Finding(analyzer="ast", rule_id=rule, level=level, message=f"{rule} at {line}", line=line)


def test_a_cell_that_completes_a_dangerous_whole_is_rated_for_the_whole() -> None:
    alone = Assessment(level=RiskLevel.LOW, findings=())
    whole = Assessment(level=RiskLevel.HIGH, findings=(finding(RiskLevel.HIGH, 4, "command"), finding(RiskLevel.MEDIUM, 1, "import")))
    verdict = judge_in_context(alone, whole, first_line=4, line_count=1)
    assert verdict.level is RiskLevel.HIGH
    assert [(f.rule_id, f.line) for f in verdict.findings] == [("command", 1)]  # at the cell's own line


def test_a_whole_worse_than_the_cells_lines_says_what_the_earlier_cells_gave() -> None:
    alone = Assessment(level=RiskLevel.LOW)
    whole = Assessment(level=RiskLevel.BLOCKED, findings=(finding(RiskLevel.BLOCKED, 2, "reverse-shell"),))
    verdict = judge_in_context(alone, whole, first_line=5, line_count=2)
    assert verdict.level is RiskLevel.BLOCKED
    assert verdict.findings[-1].rule_id == "session-context" and "line 2 of the session" in verdict.findings[-1].message


def test_a_cell_is_never_rated_below_its_own_verdict() -> None:
    alone = Assessment(level=RiskLevel.HIGH, findings=(finding(RiskLevel.HIGH, 1, "own"),))
    verdict = judge_in_context(alone, Assessment(level=RiskLevel.LOW), first_line=3, line_count=1)
    assert verdict.level is RiskLevel.HIGH and [f.rule_id for f in verdict.findings] == ["own"]


def test_the_program_judged_is_the_earlier_lines_then_the_cell_on_lines_of_its_own() -> None:
    earlier = EarlierCells(("import os as w", "x = 1"), ((1, 1), (3, 2)))
    assert earlier.program("w.system(x)") == ("import os as w\nx = 1\nw.system(x)\n", 3, 1)
    assert earlier.where(2) == "cell 3, line 2" and earlier.where(9) == "line 9 of the program judged"


def test_a_whole_worse_than_the_cells_lines_names_the_cell_and_line_the_earlier_part_came_from() -> None:
    earlier = EarlierCells(("import socket as s", "c = s.socket()"), ((1, 1), (4, 3)))
    whole = Assessment(level=RiskLevel.BLOCKED, findings=(finding(RiskLevel.BLOCKED, 2, "reverse-shell"),))
    verdict = judge_in_context(Assessment(level=RiskLevel.LOW), whole, 3, 1, earlier.where)
    assert "cell 4, line 3: reverse-shell at 2" in verdict.findings[-1].message
