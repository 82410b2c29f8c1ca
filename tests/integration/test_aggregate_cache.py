"""The application keeps aggregates it read in eventsourcing's cache (MaiSafety.env), fast-forwarded
from the ledger at each read: what another process appended is seen at once, and a command's
changes that were never saved are not."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from mai_safety.domain.execution import Execution

from .ledger_helpers import make_app, record_waiting


def test_a_read_sees_what_another_process_appended_and_never_what_was_not_saved(tmp_path: Path) -> None:
    url, data = f"sqlite:///{tmp_path / 'ledger.sqlite'}", tmp_path / "data"
    mine, theirs = make_app(url, data), make_app(url, data)
    try:
        assert mine.repository.cache is not None, "the aggregate cache is off: MaiSafety.env sets its size"
        waiting = record_waiting(mine)
        assert mine.report(waiting).status == "awaiting_override"  # read once: now in the cache
        theirs.deny(waiting, "not this one")
        assert mine.report(waiting).status == "rejected"  # fast-forwarded from the ledger
        unsaved = mine.repository.get(UUID(waiting))
        assert isinstance(unsaved, Execution)
        unsaved.status = None  # a command's copy, changed and never saved
        assert mine.report(waiting).status == "rejected"
    finally:
        mine.close()
        theirs.close()
