"""``Refused``: what the thin client will not do as asked, said in one line with its exit status
(``remote`` prints it; the command modules raise it)."""

from __future__ import annotations

from .exit_codes import EXIT_BAD_INPUT


class Refused(Exception):
    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.message, self.code = message, code
