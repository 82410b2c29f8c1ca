"""The queries that read the views (``executions``, ``pending``, ``report``) and the commands that
keep them (catch up, rebuild), as the CLI and the service call them.

Without a server every reader first catches the views up (``fresh=True``); the service's
follower keeps them current and its routes read them as they are. Who sees what follows
domain.access: a submitter lists only its own executions; the waiting ones and the report need a
role that may read any execution (approver, security officer, auditor) and verify (auditor).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, Mapper

from mai_safety.domain.access import Action, check_acting_principal_may, principal_context
from mai_safety.domain.execution import ExecutionStatus
from mai_safety.domain.levels import RiskLevel

from .audit_figures import build_report, period_bounds
from .audit_report import AuditReport, LedgerAnchor, PolicyChange, RunFiles
from .errors import InvalidQuery
from .projections import catch_up, lag
from .views import ExecutionFilter, ExecutionRow, ExecutionViews


#: The newest runs of a report's period whose files it lists (docs/decisions/0035).
REPORT_FILE_RUNS = 200


class ReadModels:
    def __init__(self, recorder: ApplicationRecorder, mapper: Mapper[Any], views: ExecutionViews) -> None:
        self.recorder = recorder
        self.mapper = mapper
        self.views = views

    def catch_up(self) -> int:
        """Apply what the ledger holds beyond the views' position; how many events were read."""
        return catch_up(self.recorder, self.mapper, self.views)

    def rebuild(self) -> int:
        """Drop the views and read them again from the whole ledger."""
        self.views.drop()
        return self.catch_up()

    def lag(self) -> dict[str, int]:
        return lag(self.recorder, self.views)

    def executions(self, query: ExecutionFilter, *, fresh: bool = True) -> list[ExecutionRow]:
        check_filter(query)
        principal = principal_context.get()
        if principal is not None and not principal.may(Action.READ_ANY):
            principal.check_may(Action.SUBMIT)
            query = replace(query, submitter=principal.name)  # a submitter sees only its own
        if fresh:
            self.catch_up()
        return self.views.executions(query)

    def pending(self, now: datetime, *, fresh: bool = True) -> list[dict[str, Any]]:
        """What waits for an answer, oldest first, with the seconds left to answer (None: no deadline)."""
        check_acting_principal_may(Action.READ_ANY)
        if fresh:
            self.catch_up()
        waiting = []
        for row in self.views.pending():
            left = (datetime.fromisoformat(row.answer_by) - now).total_seconds() if row.answer_by else None
            waiting.append({**row.to_dict(), "seconds_left": round(left, 1) if left is not None else None})
        return waiting

    def summary(self) -> dict[str, Any]:
        """For the status: the lag, how many wait for an answer and since when the oldest."""
        waiting = self.views.pending()
        return {**self.lag(), "pending": len(waiting), "oldest_pending_since": waiting[0].requested_at if waiting else None}

    def report(
        self,
        anchor: LedgerAnchor,
        since: date | None,
        until: date | None,
        now: datetime,
        *,
        fresh: bool = True,
        policy_changes: Callable[[str | None, str | None], list[PolicyChange]] | None = None,
        run_files: Callable[[list[str]], list[RunFiles]] | None = None,
        diverged: Callable[[], list[dict[str, Any]]] | None = None,
    ) -> AuditReport:
        """``policy_changes``: the versions applied between two ISO 8601 times (PolicyCommands');
        ``run_files``: the files of the given executions (FileQueries'), asked for the newest
        REPORT_FILE_RUNS in the period; ``diverged``: the executions recorded as diverged, newest
        first (application.divergence), of which those recorded in the period are kept."""
        self.check_report(since, until)
        if fresh:
            self.catch_up()
        report = build_report(self.views, anchor, since, until, now)
        start, end = period_bounds(since, until)
        if policy_changes is not None:
            report = replace(report, policy_changes=policy_changes(start, end))
        if run_files is not None:
            newest = self.views.executions(ExecutionFilter(since=start, until=end, limit=REPORT_FILE_RUNS))
            report = replace(report, run_files=run_files([row.execution_id for row in newest]))
        if diverged is not None:
            in_period = [row for row in diverged() if (start is None or row["recorded_at"] >= start) and (end is None or row["recorded_at"] < end)]
            report = replace(report, diverged=in_period)
        return report

    def check_report(self, since: date | None, until: date | None) -> None:
        """Before the ledger is verified for a report: the role (auditor) and the period."""
        check_acting_principal_may(Action.VERIFY)
        if since is not None and until is not None and since > until:
            raise InvalidQuery(f"the period ends ({until}) before it begins ({since})", "until")


def check_filter(query: ExecutionFilter) -> None:
    """One clear error for a filter no execution could match, naming the filter."""
    statuses, levels = [status.value for status in ExecutionStatus], [level.value for level in RiskLevel]
    if query.status is not None and query.status not in statuses:
        raise InvalidQuery(f"no status {query.status!r}: one of {', '.join(statuses)}", "status")
    if query.level is not None and query.level not in levels:
        raise InvalidQuery(f"no level {query.level!r}: one of {', '.join(levels)}", "level")
    if query.since is not None and query.until is not None and query.since >= query.until:
        raise InvalidQuery(f"the period ends ({query.until}) before it begins ({query.since})", "until")
    if query.limit < 1 or query.page < 1:
        raise InvalidQuery("limit and page count from 1", "limit" if query.limit < 1 else "page")
