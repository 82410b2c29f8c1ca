"""Deferred seals and closing: the ledger's connections close right after ``close`` returns, so
no timer may still be sealing then (one was, and the process died with SIGSEGV in SQLite)."""

from __future__ import annotations

import threading

from mai_safety.application.sealing import DeferredSeals


class _SlowLedger:
    """Holds its seal until the test releases it."""

    def __init__(self) -> None:
        self.sealing = threading.Event()
        self.release = threading.Event()
        self.seals: list[int] = []

    def seal_written(self, reason: str, through: int) -> None:
        self.sealing.set()
        self.release.wait(10)
        self.seals.append(through)


def test_close_waits_for_a_seal_the_timer_has_under_way() -> None:
    ledger = _SlowLedger()
    seals = DeferredSeals(ledger, delay=0.02)  # type: ignore[arg-type]
    seals.ending_saved(7)
    assert ledger.sealing.wait(5), "the timer never sealed"
    closed = threading.Event()
    closer = threading.Thread(target=lambda: (seals.close(), closed.set()))
    closer.start()
    assert not closed.wait(0.3), "close returned while the timer was still sealing"
    ledger.release.set()
    assert closed.wait(5)
    closer.join(5)
    assert ledger.seals == [7]


def test_nothing_is_armed_after_close() -> None:
    ledger = _SlowLedger()
    ledger.release.set()
    seals = DeferredSeals(ledger, delay=0.02)  # type: ignore[arg-type]
    seals.close()
    seals.ending_saved(3)
    assert not ledger.sealing.wait(0.2), "a timer sealed after close"
