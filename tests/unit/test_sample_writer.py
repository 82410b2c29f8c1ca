"""The sample writer: the loop that enforces limits never waits for the ledger."""

from __future__ import annotations

import threading

from mai_safety.application.sample_writer import SampleWriter


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_stalled_ledger_never_blocks_the_offer_and_stops_the_run_after_the_stall_limit() -> None:
    release = threading.Event()
    clock = _Clock()
    writer = SampleWriter(lambda sample: release.wait(5) or True, capacity=2, stall_s=10, clock=clock)
    assert writer.offer({"n": 1}) is True
    for _ in range(200):  # until the writer holds the first sample, waiting on the ledger
        if writer.stalled() is False and writer._waiting_since is not None:
            break
        threading.Event().wait(0.01)
    for n in range(2, 20):
        assert writer.offer({"n": n}) is True  # never waits: a full queue drops
    assert writer.dropped > 0
    clock.now = 11.0
    assert writer.offer({"n": 99}) is False and writer.stalled_out
    release.set()
    assert writer.close(5)


def test_a_failing_ledger_counts_as_stalled_from_its_first_failure() -> None:
    clock = _Clock()

    def failing(sample: dict) -> bool:
        raise ConnectionError("database is down")

    writer = SampleWriter(failing, stall_s=10, clock=clock)
    writer.offer({"n": 1})
    for _ in range(100):
        if writer.last_error is not None:
            break
        threading.Event().wait(0.01)
    assert isinstance(writer.last_error, ConnectionError)
    assert writer.offer({"n": 2}) is True
    clock.now = 10.5
    assert writer.offer({"n": 3}) is False
    assert writer.close(2)


def test_an_execution_ended_elsewhere_stops_the_run() -> None:
    writer = SampleWriter(lambda sample: False)
    writer.offer({"n": 1})
    assert writer.ended_elsewhere.wait(2)
    assert writer.offer({"n": 2}) is False
    assert writer.close(2)


def test_samples_are_saved_as_the_actor_who_started_the_run() -> None:
    from mai_safety.domain.execution import actor_context

    seen: list[str] = []
    saved = threading.Event()

    def save(sample: object) -> bool:
        seen.append(actor_context.get())
        saved.set()
        return True

    token = actor_context.set("alice@host")
    try:
        writer = SampleWriter(save)
    finally:
        actor_context.reset(token)
    writer.offer({"at_s": 0.5})  # type: ignore[typeddict-item]
    assert saved.wait(5)
    assert writer.close(5)
    assert seen == ["alice@host"]


def test_a_writer_offered_no_sample_starts_no_thread_and_closes_at_once() -> None:
    """A short run offers no sample: its path neither starts nor joins the writer's thread."""
    before = {thread.name for thread in threading.enumerate()}
    writer = SampleWriter(lambda sample: True)
    assert "mai-safety-samples" not in {thread.name for thread in threading.enumerate()} - before
    assert writer.close(0) is True
