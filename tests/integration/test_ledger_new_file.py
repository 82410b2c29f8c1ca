"""Processes that open a new SQLite ledger at the same moment all open it. The library switches
each new connection to WAL; on a new file, two processes doing so at once can be refused without
waiting (before this was handled, about one round in ten of sixteen processes lost one, as one of sixteen
CLI runs started together did in CI)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from eventsourcing.sqlite import SQLiteDatastore

from mai_safety.ledger.infrastructure.sqlite_connections import StatementCachingPool

PROCESSES, ROUNDS = 16, 40


def _open(path: str, barrier: multiprocessing.synchronize.Barrier, answers: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    datastore = SQLiteDatastore(path)  # held: the datastore closes its pool when collected
    pool = StatementCachingPool.adopt(datastore.pool)
    barrier.wait()
    try:
        pool.get_connection(is_writer=False).close()
        answers.put("")
    except Exception as exc:  # noqa: BLE001 - the answer is what went wrong, to be shown
        answers.put(f"{type(exc).__name__}: {exc}")


@pytest.mark.alone  # sixteen processes at once (tests/alone.py)
def test_sixteen_processes_opening_a_new_ledger_at_once_all_open_it(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")  # the imports are done once, here
    failures = []
    for round_ in range(ROUNDS):
        path = str(tmp_path / f"ledger-{round_}.sqlite")
        barrier, answers = context.Barrier(PROCESSES), context.Queue()
        processes = [context.Process(target=_open, args=(path, barrier, answers)) for _ in range(PROCESSES)]
        for process in processes:
            process.start()
        try:
            failures += [answer for answer in (answers.get(timeout=60) for _ in processes) if answer]
        finally:
            for process in processes:
                process.join(10)
                if process.is_alive():
                    process.kill()
    assert not failures, failures
