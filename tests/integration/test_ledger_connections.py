"""The connection budget on Postgres (issue 24, item 4): a CLI command holds one pooled connection
(and the work lock's own while it recovers), so 32 `mai-safety run` at once stay within Postgres'
100 connections, where each held 6 and 16 at once already met "too many clients". Each process is
named to Postgres (``PGAPPNAME``, libpq's own variable) so that its connections are counted apart
in ``pg_stat_activity`` while they run."""

from __future__ import annotations

import collections
import os
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest

from mai_safety.infrastructure.settings import PROJECT_ROOT

from .cli_helpers import CLI, STARTED_PIDS, policies_with
from .conftest import POSTGRES_IMAGE

pytestmark = [pytest.mark.postgres, pytest.mark.alone]  # alone: 32 CLI processes at once against a connection limit (tests/alone.py)

RUNS = 32
MAX_CONNECTIONS = 100  # Postgres' default, stated: the budget the runs share
PER_RUN = 2  # one pooled connection, and the work lock's own while recovery holds it


@pytest.fixture
def budget_postgres() -> Iterator[str]:
    """A Postgres of this test's own, so that no other test's connections share its budget."""
    from testcontainers.community.postgres import PostgresContainer

    container = PostgresContainer(POSTGRES_IMAGE, username="mai", password="mai-test-password", dbname="mai", driver=None)
    container.with_command(f"-c fsync=off -c synchronous_commit=off -c max_connections={MAX_CONNECTIONS}")
    container.start()
    try:
        yield f"postgresql://mai:mai-test-password@{container.get_container_host_ip()}:{container.get_exposed_port(5432)}/mai"
    finally:
        container.stop()


class ConnectionCount:
    """Samples pg_stat_activity every 50 ms: the most connections each named process held at once,
    and the most the runs held together."""

    def __init__(self, url: str) -> None:
        self._url = url
        self.per_process: collections.Counter[str] = collections.Counter()
        self.together = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> ConnectionCount:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._done.set()
        self._thread.join(10)

    def _sample(self) -> None:
        with psycopg.connect(self._url, autocommit=True) as connection:
            while not self._done.wait(0.05):
                rows = connection.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE application_name LIKE 'mai-run-%' GROUP BY application_name"
                ).fetchall()
                for name, count in rows:
                    self.per_process[name] = max(self.per_process[name], int(count))
                self.together = max(self.together, sum(int(count) for _, count in rows))


def test_thirty_two_concurrent_cli_runs_on_postgres_stay_within_its_connections(
    budget_postgres: str, tmp_path: Path
) -> None:
    """Real `mai-safety run` processes, hello world in real containers: room for all 32 (the queue
    holds them; the host runs 8 at a time on 2 cores), so that every one holds its connections
    while the others do."""
    policies = policies_with(tmp_path, limits={"host.queue": RUNS, "host.queue_wait_s": 300})
    base = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    base.update({"MAI_SAFETY_DATABASE_URL": budget_postgres, "MAI_SAFETY_POLICIES": str(policies)})
    # The first command makes the ledger's tables: the runs then race only for connections.
    first = subprocess.run(CLI + ["executions"], env=base, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr

    def one(index: int) -> subprocess.CompletedProcess[str]:
        env = dict(base, PGAPPNAME=f"mai-run-{index}")
        with subprocess.Popen(
            CLI + ["run", str(PROJECT_ROOT / "examples" / "hello.py"), "--json"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ) as process:
            STARTED_PIDS.add(process.pid)
            stdout, stderr = process.communicate(timeout=500)
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)

    with ConnectionCount(budget_postgres) as count, ThreadPoolExecutor(max_workers=RUNS) as pool:
        results = list(pool.map(one, range(RUNS)))
    print(
        f"\n{RUNS} CLI runs: at most {max(count.per_process.values(), default=0)} connection(s) per run, "
        f"{count.together} together; exits {collections.Counter(result.returncode for result in results)}"
    )
    failed = [f"exit {result.returncode}: {result.stderr.strip()[-400:]}" for result in results if result.returncode != 0]
    assert not failed, f"{len(failed)} of {RUNS} runs failed:\n" + "\n".join(failed)
    assert count.per_process, "no run's connection was seen"
    assert max(count.per_process.values()) <= PER_RUN, count.per_process
    verified = subprocess.run(CLI + ["audit", "verify"], env=base, capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_cli_command_past_postgres_connection_limit_exits_5_at_once_saying_to_try_again(tmp_path: Path) -> None:
    """Every connection taken (by another user of the database): told, not left waiting."""
    from testcontainers.community.postgres import PostgresContainer

    container = PostgresContainer(POSTGRES_IMAGE, username="mai", password="mai-test-password", dbname="mai", driver=None)
    container.with_command("-c fsync=off -c max_connections=5")
    container.start()
    held: list[psycopg.Connection[Any]] = []
    try:
        url = f"postgresql://mai:mai-test-password@{container.get_container_host_ip()}:{container.get_exposed_port(5432)}/mai"
        while True:
            try:
                held.append(psycopg.connect(url, connect_timeout=10))
            except psycopg.OperationalError as exc:
                assert "too many clients" in str(exc)
                break
        env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
        env.update({"MAI_SAFETY_DATABASE_URL": url, "MAI_SAFETY_POLICIES": str(policies_with(tmp_path))})
        told = subprocess.run(CLI + ["executions"], env=env, capture_output=True, text=True, timeout=60)
        assert told.returncode == 5, told.stdout + told.stderr
        lines = told.stderr.strip().splitlines()
        assert len(lines) == 1 and "no connection free" in lines[0] and "try again" in lines[0], told.stderr
    finally:
        for connection in held:
            connection.close()
        container.stop()
