"""The environment given to the processes that read submitted code (Semgrep's engine, Bandit's own
process): the owner's, without our settings (``MAI_SAFETY_*``: the ledger's URL carries its
password) or libpq's (``PG*``). They parse code nobody trusts, with parsers we did not write, and
need neither."""

from __future__ import annotations

import os

_SECRET_PREFIXES = ("MAI_SAFETY_", "PG")


def environment_without_secrets() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if not name.startswith(_SECRET_PREFIXES)}
