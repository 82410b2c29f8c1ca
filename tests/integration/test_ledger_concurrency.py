"""Concurrent writers, threads and processes, form one straight chain and lose nothing: the
writers' lock is taken before the head is read, in the very transaction that appends."""

from __future__ import annotations

import multiprocessing
import threading
from collections import Counter
from pathlib import Path

import pytest

from .ledger_helpers import (
    Attacker,
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    make_app,
    write_as_one_process,
    write_with_threads,
)

PROCESSES, THREADS = 3, 2  # three processes of two writers each, and two writers in this process
EXECUTIONS = 416  # per writer: 416 finished (3 events each) and one waiting (2): 1,250 events
WRITERS = (PROCESSES + 1) * THREADS

pytestmark = pytest.mark.alone  # eight writers at once (tests/alone.py)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Attacker]:
    if request.param == "sqlite":
        path = tmp_path / "ledger.sqlite"
        return f"sqlite:///{path}", Attacker("sqlite", sqlite_path=path)
    database: HardenedPostgres = request.getfixturevalue("hardened_postgres")
    return database.service_url, Attacker("postgres", owner=database.owner)


def test_ten_thousand_events_from_eight_concurrent_writers_verify_clean_with_nothing_lost(
    ledger: tuple[str, Attacker], tmp_path: Path
) -> None:
    url, reader = ledger
    data_dir = tmp_path / "data"  # one signing key for all: made by whichever writer seals first
    context = multiprocessing.get_context("spawn")
    go, results = context.Event(), context.Queue()
    readies = [context.Event() for _ in range(PROCESSES)]
    processes = [
        context.Process(
            target=write_as_one_process, args=(url, str(data_dir), THREADS, EXECUTIONS, ready, go, results)
        )
        for ready in readies
    ]
    for process in processes:
        process.start()
    try:
        for ready in readies:
            assert ready.wait(120), "a writer process did not start"
        go.set()  # every writer starts now, these two as well
        here = write_with_threads(url, data_dir, THREADS, EXECUTIONS, threading.Event(), go)
        shares = [results.get(timeout=600) for _ in processes]
    finally:
        for process in processes:
            process.join(timeout=60)
            if process.is_alive():
                process.kill()
    assert all(kind == "ids" for kind, _ in shares), shares
    ids = here + [found for _, share in shares for found in share]

    assert len(ids) == len(set(ids)) == WRITERS * (EXECUTIONS + 1)
    app = make_app(url, data_dir)
    try:
        report = app.audit.verify()
    finally:
        app.close()
    assert report.intact, report.problems[:5]
    assert report.checked == report.head_position == WRITERS * (EXECUTIONS * 3 + 2) == 10_000
    # Every writer sealed what it wrote before it stopped: the last ending lies under a checkpoint
    # (not merely young enough to be awaiting one).
    assert report.awaiting_seal is None and report.newest_checkpoint is not None
    stored = Counter(row["execution"] for row in reader.events())
    assert set(stored) == set(ids)
    assert Counter(stored.values()) == {3: WRITERS * EXECUTIONS, 2: WRITERS}
