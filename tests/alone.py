"""Tests marked ``alone`` run after the others, one at a time, with the machine to themselves.

scripts/test.sh runs the suite in two phases. First every other test, in two pytest-xdist workers:
most of the suite's time is waiting (for containers, a database, a lease), which two workers share
well on two cores. Then the ``alone`` tests, in one process, once the workers and everything their
fixtures held are gone. A test is ``alone`` when its verdict depends on the whole host, not on what
it started itself: it makes the load it measures (32 CLI processes, 16 runs at once, 8 writers), so
that next to another worker's test it would judge that test's load and the other its own; or it
counts on the engine's room (the host's limit of runs at once counts every managed container on
the engine, a warm pool kept by another worker's fixture included); or it sees a limit met from
outside within a sample, under gVisor.

The phase is chosen by ``MAI_TESTS_PHASE`` (``shared`` or ``alone``); without it every selected
test runs, as pytest alone would run them.
"""

from __future__ import annotations

import os

import pytest

PHASE_VARIABLE = "MAI_TESTS_PHASE"  # not MAI_SAFETY_*: the product refuses settings of its own it does not know
PHASES = ("shared", "alone")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    phase = os.environ.get(PHASE_VARIABLE, "")
    if not phase:
        return
    if phase not in PHASES:
        raise pytest.UsageError(f"{PHASE_VARIABLE}={phase!r}: use one of {', '.join(PHASES)}, or leave it unset")
    wanted = phase == "alone"
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        (kept if (item.get_closest_marker("alone") is not None) == wanted else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
