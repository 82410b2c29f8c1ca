"""What `run` pays before it assesses, on a young ledger and on one of 10,000 executions.

Every `run`, `approve` and `recover` first recovers: which executions are running with their
supervisor gone, which containers of this ledger are orphans. Asking which are running used to
read every Started, Completed and Terminated notification ever written; the ledger now keeps an
index of open executions in the same transaction as those events (docs/decisions/0019).

For each store (SQLite; Postgres from the mai-safety/postgres:15 image, removed at the end) and
each size (0 and --executions recorded executions, each Assessed, Started, Completed, plus 3
running and 2 awaiting an answer), in one sitting:

- ``start-up``: what the CLI does before assessing: wire the application as the CLI does
  (``bootstrap``, with the real Docker sandbox), ``recover()``, close; median of --repeats;
- ``index``: the open sets (running and awaiting) from the index, in a process that has read
  them through before (the once-per-ledger read-through is printed on its own);
- ``scan``: the same sets read from the notifications, as before the index.

    .venv/bin/python bench/startup_bench.py [--executions 10000] [--repeats 7] [--stores sqlite,postgres]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from bench_postgres import conninfo, postgres_server  # noqa: E402 - beside this script
from ledger_bench import LIMITS, fill, new_execution  # noqa: E402 - beside this script
from mai_safety.application.open_sets import AWAITING, RUNNING, scan_open_ids
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.levels import TrustLevel
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.settings import PROJECT_ROOT, Settings

sys.path.insert(0, str(PROJECT_ROOT))
from tests.integration.ledger_helpers import record_waiting  # noqa: E402 - the bench borrows the test helpers
from tests.unit.fakes import FakeAssessor, FakeSandbox  # noqa: E402


def settings(url: str, home: Path) -> Settings:
    environ = {
        "MAI_SAFETY_POLICIES": str(PROJECT_ROOT / "policies"),
        "MAI_SAFETY_DATA_DIR": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    return Settings.from_environment(environ=environ, database_url=url)


def open_now(app: MaiSafety) -> None:
    """Three running (their supervisor, this process, alive: recovery leaves them) and two waiting."""
    for number in range(3):
        execution = new_execution(number)
        execution.start(container_id=f"r{number}", image="mai-safety/sandbox:1", limits=LIMITS, trust=TrustLevel.STANDARD)
        app.save(execution)
    for _ in range(2):
        record_waiting(app)


def timed(action: Callable[[], object], repeats: int) -> float:
    spent = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        spent.append(time.perf_counter() - started)
    return statistics.median(spent) * 1000


def start_up(url: str, home: Path) -> None:
    app = bootstrap(settings(url, home), warm_semgrep=False, pool=False)
    try:
        app.recover()
    finally:
        app.close()


def measure(store: str, url: str, home: Path, executions: int, repeats: int) -> dict[str, float]:
    writer = bootstrap(settings(url, home), assessor=FakeAssessor(), sandbox=FakeSandbox())
    try:
        fill(writer, 3 * executions)  # ended executions (Assessed, Started, Completed), a hundred per save
        open_now(writer)
    finally:
        writer.close()
    reader = bootstrap(settings(url, home), assessor=FakeAssessor(), sandbox=FakeSandbox())
    try:
        first = timed(lambda: (reader.running_ids(), reader.awaiting_ids()), 1)
        running, awaiting = reader.running_ids(), reader.awaiting_ids()
        assert (len(running), len(awaiting)) == (3, 2), (running, awaiting)
        assert set(running) == scan_open_ids(reader.recorder, RUNNING)
        assert set(awaiting) == scan_open_ids(reader.recorder, AWAITING)
        index = timed(lambda: (reader.running_ids(), reader.awaiting_ids()), repeats * 3)
        scan = timed(lambda: (scan_open_ids(reader.recorder, RUNNING), scan_open_ids(reader.recorder, AWAITING)), repeats)
    finally:
        reader.close()
    start_up(url, home)  # warm-up: imports, the key, the policy files
    started = timed(lambda: start_up(url, home), repeats)
    figures = {"start-up": started, "index": index, "scan": scan, "read-through": first}
    print(
        f"{store:<8} {executions:>6} executions   start-up {started:7.1f} ms   open sets: index {index:6.2f} ms, "
        f"scan {scan:8.2f} ms   (first read-through of this ledger {first:7.1f} ms, once)",
        flush=True,
    )
    return figures


@contextmanager
def ledger_urls(stores: list[str], folder: Path) -> Iterator[dict[str, Callable[[], str]]]:
    makers: dict[str, Callable[[], str]] = {}
    if "sqlite" in stores:
        makers["sqlite"] = lambda: f"sqlite:///{folder / (uuid.uuid4().hex + '.sqlite')}"
    if "postgres" not in stores:
        yield makers
        return
    with postgres_server("bridge") as server:

        def fresh_postgres() -> str:
            name = f"bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(conninfo(server, "bench"), autocommit=True) as connection:
                connection.execute(f'CREATE DATABASE "{name}"')
            return f"postgresql://{server['user']}:{server['password']}@{server['host']}:{server['port']}/{name}"

        makers["postgres"] = fresh_postgres
        yield makers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--executions", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--stores", default="sqlite,postgres")
    args = parser.parse_args()
    stores = [store.strip() for store in args.stores.split(",") if store.strip()]
    with tempfile.TemporaryDirectory(prefix="mai-startup-bench-") as temporary:
        folder = Path(temporary)
        with ledger_urls(stores, folder) as makers:
            for store, fresh in makers.items():
                results = {}
                for size in (0, args.executions):
                    home = folder / f"{store}-{size}"
                    results[size] = measure(store, fresh(), home, size, args.repeats)
                young, old = results[0], results[args.executions]
                print(
                    f"{store:<8} {args.executions} executions / 0: start-up ×{old['start-up'] / young['start-up']:.2f}, "
                    f"index ×{old['index'] / young['index']:.2f}, scan ×{old['scan'] / young['scan']:.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
