"""The recorders are assembled from parts they hold (their reads, their tables, the index of open
executions, the servers' leases), each an object with its own state and statements, rather than
from mixins. The recorder still answers the application's ports (``Ledger``, ``OpenExecutions``,
``Leases``: the application asks the recorder); ``AnsweredBy`` hands such a method to the part."""

from __future__ import annotations

from typing import Any


class AnsweredBy:
    """A method of the recorder that one of its parts answers: ``head = AnsweredBy("reads")`` makes
    ``recorder.head`` the bound ``recorder.reads.head``."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, recorder: object, owner: type | None = None) -> Any:
        if recorder is None:
            return self
        return getattr(getattr(recorder, self.part), self.name)
