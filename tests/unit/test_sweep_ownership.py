"""Which containers a sweep may remove (infrastructure/sandbox/cleanup.py ``of_ledger``): its own
ledger's, and unlabelled ones only when they serve no execution."""

from __future__ import annotations

from types import SimpleNamespace

from mai_safety.infrastructure.sandbox.cleanup import of_ledger
from mai_safety.infrastructure.sandbox.containers import LABEL_EXECUTION, LABEL_LEDGER, LABEL_POOL

OURS, THEIRS = "a" * 64, "b" * 64
EXECUTION = "0b6c6d2e-5a43-4c1b-9a57-2f0f3f2a9d11"


def container(labels: dict[str, str], name: str = "/mai-safety-x") -> SimpleNamespace:
    return SimpleNamespace(labels=labels, attrs={"Name": name})


def test_a_sweep_removes_its_own_ledgers_container() -> None:
    assert of_ledger(container({LABEL_LEDGER: OURS, LABEL_EXECUTION: EXECUTION}), OURS)


def test_a_sweep_leaves_another_ledgers_container() -> None:
    assert not of_ledger(container({LABEL_LEDGER: THEIRS, LABEL_EXECUTION: EXECUTION}), OURS)
    assert not of_ledger(container({LABEL_LEDGER: THEIRS, LABEL_POOL: "slot"}), OURS)


def test_an_empty_ledger_owns_no_labelled_container() -> None:
    assert not of_ledger(container({LABEL_LEDGER: THEIRS, LABEL_EXECUTION: EXECUTION}), None)


def test_an_unlabelled_container_serving_an_execution_is_left_to_that_executions_recovery() -> None:
    assert not of_ledger(container({LABEL_EXECUTION: EXECUTION}), OURS)
    taken = container({LABEL_POOL: "slot"}, name=f"/mai-safety-run-{EXECUTION}-until-1700000000.0")
    assert not of_ledger(taken, OURS)


def test_an_unlabelled_container_serving_no_execution_is_swept() -> None:
    assert of_ledger(container({LABEL_POOL: "slot"}), OURS)
    assert of_ledger(container({LABEL_POOL: "slot"}), None)
