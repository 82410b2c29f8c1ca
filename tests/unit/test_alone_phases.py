"""The suite's phases (tests/alone.py): each test runs in exactly one of them, the other is told
what it left out, and a phase the script does not know is refused, not taken as "everything"."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.alone import PHASE_VARIABLE, pytest_collection_modifyitems


class _Item:
    def __init__(self, name: str, alone: bool) -> None:
        self.name, self.alone = name, alone

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "alone" and self.alone else None


def _phase(monkeypatch: pytest.MonkeyPatch, phase: str | None) -> tuple[list[str], list[str]]:
    if phase is None:
        monkeypatch.delenv(PHASE_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(PHASE_VARIABLE, phase)
    items: list[Any] = [_Item("a", False), _Item("b", True), _Item("c", False), _Item("d", True)]
    deselected: list[str] = []
    config: Any = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: deselected.extend(i.name for i in items)))
    pytest_collection_modifyitems(config, items)
    return [item.name for item in items], deselected


def test_each_test_runs_in_exactly_one_phase_and_the_other_reports_it_deselected(monkeypatch: pytest.MonkeyPatch) -> None:
    shared, left_by_shared = _phase(monkeypatch, "shared")
    alone, left_by_alone = _phase(monkeypatch, "alone")
    assert (shared, left_by_shared) == (["a", "c"], ["b", "d"])
    assert (alone, left_by_alone) == (["b", "d"], ["a", "c"])


def test_without_a_phase_every_test_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _phase(monkeypatch, None) == (["a", "b", "c", "d"], [])


def test_an_unknown_phase_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(pytest.UsageError, match="use one of shared, alone"):
        _phase(monkeypatch, "Alone")
