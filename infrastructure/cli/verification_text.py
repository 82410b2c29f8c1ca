"""What ``audit verify`` prints, from the verification report as plain data
(``VerificationReport.to_dict()``, which is also what ``GET /v1/audit/verify`` answers): the local
CLI and the thin client print the same lines and exit with the same status, and importing this
imports nothing of the application's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .exit_codes import EXIT_CANNOT_CHECK, EXIT_OK, EXIT_TAMPERED


def verification_status(report: Mapping[str, Any]) -> int:
    """0 intact, 1 tampered, 2 intact as far as it could check but not everything could be."""
    if not report["intact"]:
        return EXIT_TAMPERED
    return EXIT_OK if report.get("complete", True) else EXIT_CANNOT_CHECK


def verification_text(report: Mapping[str, Any], what: str) -> str:
    newest = report.get("newest_checkpoint")
    signed = (
        f"; {report.get('checkpoints', 0)} checkpoint(s), newest #{newest['sequence']} at position {newest['position']} "
        f"signed {newest['signed_at']}, {report.get('signatures', 0)} signature(s) checked"
        if newest
        else "; no checkpoint"
    )
    if report.get("awaiting_seal") is not None:
        signed += f"; the ending at position {report['awaiting_seal']} was recorded moments ago and awaits its checkpoint"
    if report.get("macs"):
        signed += f"; {report['macs']} event MAC(s) checked"
    witnessed = report.get("witnessed")
    if witnessed is not None:
        signed += f"; checked against checkpoint #{witnessed['sequence']} held by {witnessed['witness']}"
    if report["intact"] and report.get("complete", True):
        return (
            f"{what} intact: {report['checked']} events, head at position {report['head_position']} "
            f"({report['head_hash'][:16]}...){signed}"
        )
    if report["intact"]:
        lines = [f"{what}: no problem found in {report['checked']} events{signed}, but not everything could be checked:"]
        return "\n".join([*lines, *(f"  {reason}" for reason in report.get("unchecked") or [])])
    problems = report.get("problems") or []
    lines = [f"{what} TAMPERED: {len(problems)} problem(s) in {report['checked']} events"]
    return "\n".join([*lines, *(f"  {problem}" for problem in problems)])


def note_lines(report: Mapping[str, Any]) -> list[str]:
    """What is not tampering, one line each: a warning as it is, anything else as a note."""
    return [note if note.startswith("warning: ") else f"note: {note}" for note in report.get("notes") or []]
