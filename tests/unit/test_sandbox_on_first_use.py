"""The sandbox a one-shot command holds (infrastructure/sandbox/on_first_use.py): built only when
the engine is needed, handed the ledger's identity when it is, and closed only if built."""

from __future__ import annotations

from typing import Any

from mai_safety.infrastructure.sandbox.on_first_use import SandboxOnFirstUse
from mai_safety.infrastructure.sandbox.supervisors import supervisor_gone, supervisor_label


class Built:
    """Stands for the Docker sandbox: records what it was asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.client = "the engine's client"

    def use_ledger(self, identity: Any) -> None:
        self.calls.append(("use_ledger", identity()))

    def remove_leftovers(self) -> int:
        self.calls.append(("remove_leftovers", None))
        return 3

    def close(self) -> None:
        self.calls.append(("close", None))


def lazy() -> tuple[SandboxOnFirstUse, list[Built]]:
    made: list[Built] = []

    def build() -> Any:
        made.append(Built())
        return made[-1]

    return SandboxOnFirstUse(build), made


def test_who_supervises_is_answered_without_building_the_sandbox() -> None:
    sandbox, made = lazy()
    assert sandbox.supervisor_id == supervisor_label()
    assert not sandbox.is_orphaned(sandbox.supervisor_id)
    sandbox.use_ledger(lambda: "ledger-1")
    sandbox.close()
    assert made == [] and not sandbox.built


def test_the_first_call_that_needs_the_engine_builds_it_once_with_the_ledger_it_was_given() -> None:
    sandbox, made = lazy()
    sandbox.use_ledger(lambda: "ledger-1")
    assert sandbox.remove_leftovers() == 3
    assert sandbox.client == "the engine's client"  # what only the Docker sandbox has is asked of it
    assert sandbox.remove_leftovers() == 3
    assert len(made) == 1
    assert made[0].calls == [("use_ledger", "ledger-1"), ("remove_leftovers", None), ("remove_leftovers", None)]
    sandbox.close()
    assert made[0].calls[-1] == ("close", None)


def test_a_label_of_another_process_that_is_gone_is_orphaned() -> None:
    host, _pid, started = supervisor_label().split("/")
    assert supervisor_gone(f"{host}/999999999/{started}")
    assert supervisor_gone("not a label")
    assert not supervisor_gone(f"another-host/1/{started}")  # not ours to judge
