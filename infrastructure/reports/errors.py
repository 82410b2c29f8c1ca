"""The reports' own error: a report that could not be written (the CLI's exit status 2)."""

from __future__ import annotations

from mai_safety.domain.errors import MaiSafetyError


class ReportNotWritten(MaiSafetyError):
    """The output file could not be written; nothing was left at its path."""
