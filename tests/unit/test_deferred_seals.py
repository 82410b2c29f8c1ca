"""Deferred seals and closing: the ledger's connections close right after ``close`` returns, so
no timer may still be sealing then (one was, and the process died with SIGSEGV in SQLite)."""

from __future__ import annotations

import threading

from mai_safety.ledger.application.sealing import DeferredSeals

from .fakes import ManualTimers


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


def _seals_on_manual_timers() -> tuple[DeferredSeals, _SlowLedger, ManualTimers]:
    """Deferred seals over a ledger that seals at once, on timers that fire when the test says."""
    ledger = _SlowLedger()
    ledger.release.set()
    timers = ManualTimers()
    return DeferredSeals(ledger, delay=10.0, start_timer=timers), ledger, timers  # type: ignore[arg-type]


def test_a_seal_falls_due_halfway_through_the_interval_and_is_made_at_its_end_if_no_append_took_it() -> None:
    seals, ledger, timers = _seals_on_manual_timers()
    seals.ending_saved(4)
    seals.ending_saved(7)  # the same interval: one timer, one seal for both
    assert [timer.delay for timer in timers.pending] == [5.0]
    assert not seals.take_due()

    timers.fire_next()  # halfway: the next append may seal in its own transaction
    assert seals.take_due() and not seals.take_due()
    assert ledger.seals == []

    timers.fire_next()  # the end of the interval: what is owed is sealed now
    assert ledger.seals == [7]
    assert timers.pending == []


def test_closing_seals_what_is_owed_and_cancels_the_timer() -> None:
    seals, ledger, timers = _seals_on_manual_timers()
    seals.ending_saved(3)

    seals.close()

    assert ledger.seals == [3] and timers.pending == []
