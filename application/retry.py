"""The one unit of work for "retry a concurrent write": read, decide, save; when another writer
saved the same aggregate first (eventsourcing's ``IntegrityError``: its version was taken), read
again and decide again. Every command that writes an aggregate someone else may write meanwhile
(a cancel while the supervisor records a sample, the sweep while an answer comes) goes through
``retry_concurrent_writes``; when every attempt met another writer, the caller is told so
(``WriteContended``), never left to think its write was kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from eventsourcing.persistence import IntegrityError

from .errors import WriteContended

T = TypeVar("T")

#: How many times a command reads again before it gives up: each conflict means another writer
#: made progress, so ten in a row is a fight, not bad luck.
ATTEMPTS = 10


def retry_concurrent_writes(attempt: Callable[[], T], what: str, *, attempts: int = ATTEMPTS) -> T:
    """``attempt()`` reads what it writes afresh each time, decides, and saves (or returns without
    saving: the decision may change once it reads what the other writer did). Its answer is
    returned; WriteContended names ``what`` when all ``attempts`` met a concurrent write (nothing
    of it was kept: each failed save wrote nothing)."""
    for _attempt in range(attempts):
        try:
            return attempt()
        except IntegrityError:
            continue  # another writer got there first: read again
    raise WriteContended(
        f"{what} was not recorded: another writer changed it at each of {attempts} attempts; "
        "nothing of it was kept: read it again and retry"
    )


__all__ = ["ATTEMPTS", "retry_concurrent_writes"]
