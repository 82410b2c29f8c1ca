"""Removals after a run (infrastructure/sandbox/removal.py): at once for a one-shot process, on one
thread of their own for the service, and every queued one done by close."""

from __future__ import annotations

import threading

from mai_safety.infrastructure.sandbox.removal import Removals


def test_at_once_when_not_in_background() -> None:
    done: list[str] = []
    Removals(background=False).remove(lambda: done.append("x"))
    assert done == ["x"]


def test_in_background_the_caller_does_not_wait_and_close_waits_for_all() -> None:
    release = threading.Event()
    done: list[int] = []
    removals = Removals(background=True)

    def slow(index: int) -> None:
        release.wait(5)
        done.append(index)

    for index in range(3):
        removals.remove(lambda index=index: slow(index))  # type: ignore[misc]
    assert done == [], "remove() waited for the removal"  # each blocks until released
    release.set()
    removals.close()
    assert done == [0, 1, 2]


def test_a_failed_removal_does_not_stop_the_next() -> None:
    done: list[str] = []
    removals = Removals(background=True)

    def broken() -> None:
        raise RuntimeError("engine said no")

    removals.remove(broken)
    removals.remove(lambda: done.append("after"))
    removals.close()
    assert done == ["after"]
