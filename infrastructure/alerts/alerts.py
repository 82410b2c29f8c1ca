"""Which recorded events become an alert, and the alert's body: plain data, no I/O.

An alert names the ledger position of the event that caused it (``id`` is stable: a receiver that
is sent one twice, say by two processes following one ledger, can tell)."""

from __future__ import annotations

from typing import Any

from mai_safety.domain.execution import Execution

from .policy import AlertsPolicy

_MAX_LISTED = 20


def alert_for(event: Any, position: int, policy: AlertsPolicy) -> dict[str, Any] | None:
    """The alert ``event`` (recorded at ``position``) calls for under ``policy``, or None."""
    if isinstance(event, Execution.Assessed) and event.level == "BLOCKED":
        kind, details = "blocked", _blocked(event)
    elif isinstance(event, Execution.Overridden) and event.kind == "override":
        kind, details = "override", {"explanation": event.explanation, "on_behalf_of": event.on_behalf_of}
    elif isinstance(event, Execution.Terminated) and event.reason in policy.violation_reasons:
        kind, details = "violation", _violation(event)
    elif isinstance(event, Execution.Diverged):  # seen doing what its level did not predict (decision 0044)
        kind, details = "diverged", {"level": event.level, "code_sha256": event.code_sha256, "divergences": event.divergences[:_MAX_LISTED]}
    else:
        return None
    if kind not in policy.events:
        return None
    return {
        "id": f"{kind}:{position}",
        "kind": kind,
        "position": position,
        "execution_id": str(event.originator_id),
        "actor": event.actor,
        "recorded_at": event.timestamp.isoformat(),
        "details": details,
    }


def verify_failed_alert(head_position: int, checked: int, problems: list[str], actor: str, at: str) -> dict[str, Any]:
    return {
        "id": f"verify_failed:{head_position}:{at}",
        "kind": "verify_failed",
        "position": head_position,
        "execution_id": None,
        "actor": actor,
        "recorded_at": at,
        "details": {"checked": checked, "problems": problems[:_MAX_LISTED], "more_problems": max(len(problems) - _MAX_LISTED, 0)},
    }


def _blocked(event: Any) -> dict[str, Any]:
    findings = [
        {"analyzer": finding["analyzer"], "rule_id": finding["rule_id"], "level": finding["level"]}
        for finding in event.findings
        if finding["level"] == "BLOCKED"
    ]
    caller = event.caller or {}
    return {
        "level": event.level,
        "provenance": event.provenance,
        "code_sha256": event.code_sha256,
        "submitter": caller.get("principal"),
        "findings": findings[:_MAX_LISTED],
    }


def _violation(event: Any) -> dict[str, Any]:
    outcome = event.outcome or {}
    return {"reason": event.reason, "detail": outcome.get("detail"), "violation": outcome.get("violation")}
