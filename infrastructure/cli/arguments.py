"""How both doors of the CLI read a ledger position and a time: the local commands and the thin
client's, so that ``--from 3`` or ``--since 2026-11-25`` means one thing whichever door a command
takes. Standard library only: the thin client imports it."""

from __future__ import annotations

import argparse
from datetime import datetime, timezone

#: What a refused time is told to look like.
TIME_HINT = "write it as 2026-11-25 or 2026-11-25T14:30:00"


def ledger_position(text: str) -> int:
    """An argparse type: a ledger position, a whole number from 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a ledger position (a whole number from 1)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a ledger position (they count from 1)")
    return value


def utc_text(text: str) -> str:
    """An ISO 8601 time (or day) as the UTC text the views compare; a naive one is UTC.
    ValueError when it is not a time."""
    moment = datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat()
