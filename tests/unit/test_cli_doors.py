"""Which door a command line takes with MAI_SAFETY_URL set (decided before anything is imported),
and the pieces the thin client's reading commands share with the local ones."""

from __future__ import annotations

import pytest

from mai_safety.application.audit_report import AuditReport, DayFigures, FindingCount, LedgerAnchor, Percentiles
from mai_safety.domain.execution import ExecutionStatus
from mai_safety.domain.levels import RiskLevel
from mai_safety.infrastructure.cli import entry, remote, remote_views
from mai_safety.infrastructure.reports.text import report_text


@pytest.mark.parametrize(
    "args",
    [["run", "x.py"], ["executions", "--json"], ["pending"], ["report", "--format", "html"], ["audit", "verify"],
     ["audit", "verify", "--json"], ["audit", "export", "--output", "b.jsonl"], ["status"], ["policy", "apply", "p/"],
     ["policy", "show", "--json"]],
)
def test_the_services_commands_go_to_the_service(args: list[str]) -> None:
    assert entry.goes_to_the_service(args)


@pytest.mark.parametrize(
    "args",
    [[], ["--help"], ["tokens", "create", "mai", "--role", "submitter"], ["tokens", "list"],
     ["recover"], ["projections", "rebuild"], ["serve"], ["audit"], ["audit", "replay", "ID"], ["audit", "checkpoint"],
     ["audit", "public-key"], ["audit", "init-postgres", "--print-sql", "--service-role", "r"], ["audit", "archive"],
     ["audit", "verify", "--bundle", "b.jsonl"], ["audit", "verify", "--bundle=b.jsonl", "--json"],
     ["--database-url", "sqlite:///x", "executions"]],
)
def test_the_operators_commands_and_a_bundle_stay_local(args: list[str]) -> None:
    assert not entry.goes_to_the_service(args)


def test_the_deciding_list_is_the_clients_list() -> None:
    assert set(entry.CLIENT_COMMANDS) | {"audit"} == set(remote.COMMANDS)


def test_the_clients_filters_are_the_domains_statuses_and_levels() -> None:
    assert remote_views.STATUSES == tuple(status.value for status in ExecutionStatus)
    assert remote_views.LEVELS == tuple(level.value for level in RiskLevel)


def test_a_report_read_back_from_its_json_is_the_same_report_and_prints_the_same_text() -> None:
    report = AuditReport(
        since="2026-11-01", until=None, generated_at="2026-11-02T00:00:00+00:00",
        ledger=LedgerAnchor(head_position=9, checkpoint_sequence=2, checkpoint_position=9, verified=True, verification_summary="ok"),
        executions=2, by_level={"LOW": 1, "HIGH": 1}, per_day=[DayFigures("2026-11-01", {"LOW": 1}, {"completed": 1})],
        top_findings=[FindingCount("bandit", "B602", 1)], resources={"duration_s": Percentiles(0.5, 0.9, 1.0)},
    )
    assert AuditReport.from_dict(report.to_dict()) == report
    text = report_text(report.to_dict())
    assert "head at position 9; checkpoint 2 at position 9" in text and "audit verify passed" in text
    assert "  duration_s         0.5 / 0.9 / 1" in text and "  2026-11-01  LOW 1  |  completed 1" in text
