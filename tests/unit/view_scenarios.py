"""Executions of every kind, recorded through the application with the fakes: what the read
models' tests project. Also the figures counted straight from the ledger's events, with no view
code, for the report's tests to compare with."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.application.ports import RunOutcome
from mai_safety.domain.execution import Execution
from mai_safety.domain.gate import GateRules
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.supervision import Usage

from .fakes import FakeAssessor, FakeSandbox

OPEN_RULES = GateRules(confirmers=("*",), overriders=("*",), answer_within=timedelta(hours=1))
#: Two readings a window apart (the first is always recorded; the second a second later): the CPU
#: share is taken between them, never from zero, where the container's counter began before the code.
SAMPLES = (Usage(0.1, 0.2, 2**20, 2**20, 2, 0, False, 4), Usage(1.1, 0.7, 2**20, 2**21, 3, 0, False, 10))
#: A run whose ending brings the supervisor's own CPU share, over its window (domain.supervision.Peaks).
PEAKED = RunOutcome(0, "hello\n", "", 6, False, 1.5, peaks={"samples": 6, "cpu_seconds": 1.1, "cpu_percent": 75.0, "cpu_percent_window_s": 1.0})


def record_mix(app: MaiSafety, executions: int, *, start: int = 0) -> None:
    """``executions`` executions cycling through: LOW run (sampled), MEDIUM run, HIGH confirmed
    and run, BLOCKED overridden and run, HIGH denied, BLOCKED left waiting, HIGH cancelled."""
    assessor, sandbox = app.assessor, app.sandbox
    assert isinstance(assessor, FakeAssessor) and isinstance(sandbox, FakeSandbox)
    for number in range(start, start + executions):
        kind = number % 7
        sandbox.samples = SAMPLES if kind == 0 else ()
        sandbox.outcome = PEAKED if kind == 1 else FakeSandbox().outcome
        assessor.level = [RiskLevel.LOW, RiskLevel.MEDIUM, RiskLevel.HIGH, RiskLevel.BLOCKED, RiskLevel.HIGH, RiskLevel.BLOCKED, RiskLevel.HIGH][kind]
        with acting_as(f"mai-{number % 3}"):
            report = app.run(f"print({number})\n".encode())
        with acting_as(f"approver-{number % 2}"):
            if kind in (2, 3):
                app.approve(report.execution_id, "checked by hand")
            elif kind == 4:
                app.deny(report.execution_id, "not today")
            elif kind == 6:
                app.cancel(report.execution_id)


def counted_from_events(app: MaiSafety) -> dict[str, Counter[str]]:
    """Per figure, the counts read straight from every event of the ledger (no projection)."""
    counts: dict[str, Counter[str]] = {}
    started: set[Any] = set()
    for notification in app.recorder.select_notifications(start=1, limit=1 << 30):
        event = app.mapper.to_domain_event(notification)
        figure = None
        if isinstance(event, Execution.Assessed):
            counts.setdefault("level", Counter())[event.level] += 1
            for finding in event.findings:
                counts.setdefault("finding", Counter())[f"{finding['analyzer']}/{finding['rule_id']}"] += 1
        elif isinstance(event, Execution.Overridden):
            figure = event.kind
        elif isinstance(event, Execution.Started):
            started.add(event.originator_id)
        elif isinstance(event, Execution.Completed):
            counts.setdefault("outcome", Counter())["completed"] += 1
        elif isinstance(event, Execution.Terminated):
            outcome = "terminated" if event.originator_id in started else "rejected"
            counts.setdefault("outcome", Counter())[outcome] += 1
            counts.setdefault("termination", Counter())[event.reason] += 1
            if event.reason == "denied":
                figure = "denial"
        if figure is not None:
            counts.setdefault(figure, Counter())[event.actor] += 1
    return counts
