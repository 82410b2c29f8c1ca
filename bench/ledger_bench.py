"""What the tamper-evident ledger costs, side by side with plain eventsourcing, in one sitting.

Append throughput: the same application writes executions one event per save, as a live service
does (Assessed, Started, samples, Completed; every ending sealed by a signed checkpoint in ours),
into plain eventsourcing recorders (``eventsourcing.postgres``, ``eventsourcing.sqlite``: no
chain) and into ours, on a Postgres started here from the mai-safety/postgres:15 image (removed
at the end) and on SQLite. Short bursts alternate plain and ours; medians are printed. Executions
without samples are the worst case for us: a signature for every three events.

Verification throughput: a ledger of --verify-events events is verified whole (both chains,
every checkpoint, one signature), with the time split into reading rows and hashing them, to
show what bounds it.

    .venv/bin/python bench/ledger_bench.py [--events 1000] [--rounds 11] [--verify-events 60000]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import docker
import psycopg
from psycopg.conninfo import make_conninfo

from mai_safety.application.audit import LedgerPolicy
from mai_safety.application.service import GatePolicy, MaiSafety
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.chain import ChainVerifier
from mai_safety.domain.checkpoint import CheckpointRule
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits
from mai_safety.infrastructure.signing import KeyFile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.unit.fakes import FakeAssessor, FakeSandbox  # noqa: E402 - the bench borrows the test fakes

POSTGRES_IMAGE = "mai-safety/postgres:15"
LIMITS = ResourceLimits(cpus=1, memory_bytes=2**27, pids=64, timeout_s=10, output_bytes=2**16, tmpfs_bytes=2**20)
GATE = GatePolicy(profiles={trust: LIMITS for trust in TrustLevel}, trust_rules=(), max_code_bytes=1 << 20)
OUTCOME = {"exit_code": 0, "stdout": "hello, world\n", "stderr": "", "duration_s": 0.12}


@contextmanager
def postgres_server() -> Iterator[dict[str, str]]:
    client = docker.from_env()
    container = client.containers.run(
        POSTGRES_IMAGE,
        detach=True,
        environment={"POSTGRES_USER": "bench", "POSTGRES_PASSWORD": "bench", "POSTGRES_DB": "bench"},
        ports={"5432/tcp": ("127.0.0.1", None)},
        labels={"mai-safety.bench": "1"},
    )
    try:
        container.reload()
        port = container.ports["5432/tcp"][0]["HostPort"]
        server = {"host": "127.0.0.1", "port": port, "user": "bench", "password": "bench"}
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(conninfo(server, "bench"), connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield server
    finally:
        container.remove(force=True)
        client.close()


def conninfo(server: dict[str, str], database: str) -> str:
    return make_conninfo(dbname=database, **server)


def fresh_postgres(server: dict[str, str], module: str) -> dict[str, str]:
    name = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(conninfo(server, "bench"), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return {
        "PERSISTENCE_MODULE": module,
        "POSTGRES_DBNAME": name,
        "POSTGRES_HOST": server["host"],
        "POSTGRES_PORT": server["port"],
        "POSTGRES_USER": server["user"],
        "POSTGRES_PASSWORD": server["password"],
    }


def fresh_sqlite(folder: Path, module: str) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": module, "SQLITE_DBNAME": str(folder / f"{uuid.uuid4().hex}.sqlite")}


def application(env: dict[str, str], keys: KeyFile | None) -> MaiSafety:
    ledger = LedgerPolicy(CheckpointRule(1000, 60), keys) if keys else None
    return MaiSafety(assessor=FakeAssessor(), sandbox=FakeSandbox(), gate=GATE, env=env, ledger=ledger)


def new_execution(number: int) -> Execution:
    submission = Submission.from_bytes(f"print('hello', {number})\n".encode(), Provenance.MAI, 1 << 20)
    return Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("bandit",)))


def write_one_event_per_save(app: MaiSafety, events: int, samples: int = 0) -> float:
    """Events per second, saving each event as it happens: Assessed, Started, ``samples``
    ResourceSampled, Completed."""
    started = time.perf_counter()
    written = 0
    number = 0
    while written < events:
        execution = new_execution(number)
        app.save(execution)
        execution.start(container_id=f"c{number}", image="mai-safety/sandbox:1", limits=LIMITS, trust=TrustLevel.STANDARD)
        app.save(execution)
        for sample in range(samples):
            execution.record_sample({"cpu": 0.4, "memory_bytes": 50_000_000 + sample, "pids": 3})
            app.save(execution)
        execution.complete(OUTCOME)
        app.save(execution)
        written += 3 + samples
        number += 1
    return written / (time.perf_counter() - started)


def fill(app: MaiSafety, events: int) -> None:
    """Many executions per save: quick to fill, and the chain and checkpoints are the same kind."""
    number = 0
    while number * 3 < events:
        batch = []
        for _ in range(100):
            execution = new_execution(number)
            execution.start(container_id=f"c{number}", image="mai-safety/sandbox:1", limits=LIMITS, trust=TrustLevel.STANDARD)
            execution.complete(OUTCOME)
            batch.append(execution)
            number += 1
        app.save(*batch)


def measure_appends(
    name: str,
    fresh: Callable[[str], dict[str, str]],
    plain_module: str,
    our_module: str,
    keys: KeyFile,
    args: argparse.Namespace,
    samples: int,
) -> tuple[float, float]:
    """Short bursts, plain and ours in turn (the order alternating), each into its own growing
    ledger, so that a busy machine slows both alike; the spread of the per-round ratio shows how
    busy it was. Best-of figures are the least disturbed."""
    plain_app = application(fresh(plain_module), None)
    our_app = application(fresh(our_module), keys)
    plain: list[float] = []
    ours: list[float] = []
    ratios: list[float] = []
    try:
        for app in (plain_app, our_app):
            write_one_event_per_save(app, 300, samples)  # warm-up: connections, prepared statements, the key
        for round_number in range(args.rounds):
            pair = [(plain_app, plain), (our_app, ours)]
            for app, figures in pair if round_number % 2 == 0 else reversed(pair):
                figures.append(write_one_event_per_save(app, args.events, samples))
            ratios.append(ours[-1] / plain[-1])
        report = our_app.audit.verify()
        assert report.intact, report.problems[:3]
    finally:
        plain_app.close()
        our_app.close()
    plain_median, ours_median = statistics.median(plain), statistics.median(ours)
    print(
        f"{name:<9} {3 + samples:>2}-event executions  plain {plain_median:6.0f} ev/s (best {max(plain):5.0f})   "
        f"ours {ours_median:6.0f} ev/s (best {max(ours):5.0f})   ours/plain: medians {ours_median / plain_median:6.1%}, "
        f"bests {max(ours) / max(plain):6.1%}, per round {min(ratios):.0%}..{max(ratios):.0%}   "
        f"[{len(ratios)} rounds; ours held {report.checked} events, {report.checkpoints} checkpoints, verified]"
    )
    return plain_median, ours_median


def measure_verification(name: str, env: dict[str, str], keys: KeyFile, events: int) -> float:
    app = application(env, keys)
    try:
        fill(app, events)
        app.audit.verify()  # warm-up
        started = time.perf_counter()
        report = app.audit.verify()
        total = time.perf_counter() - started
        assert report.intact, report.problems[:3]
        recorder = app.audit._require_ledger()  # noqa: SLF001 - the bench looks inside on purpose
        started = time.perf_counter()
        records = list(recorder.iter_chain())
        reading = time.perf_counter() - started
        started = time.perf_counter()
        ChainVerifier().check_all(records)
        hashing = time.perf_counter() - started
    finally:
        app.close()
    print(
        f"{name:<9} verify {report.checked / total:8.0f} ev/s over {report.checked} events, "
        f"{report.checkpoints} checkpoints, {report.signatures} signature(s): "
        f"reading rows {report.checked / reading:8.0f} ev/s, hashing both chains {report.checked / hashing:8.0f} ev/s"
    )
    return float(report.checked / total)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1000, help="events per burst")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--verify-events", type=int, default=60000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mai-safety-ledger-bench-"))
    try:
        run(folder, args)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(folder: Path, args: argparse.Namespace) -> None:
    keys = KeyFile(folder / "signing-key.pem")
    print(
        "one event per save; every execution's end sealed by a signed checkpoint in ours: 3-event executions "
        "(Assessed, Started, Completed) are the worst case, 8-event ones (5 samples: a run of some seconds) typical"
    )
    for samples in (0, 5):
        measure_appends(
            "sqlite", lambda module: fresh_sqlite(folder, module), "eventsourcing.sqlite",
            "mai_safety.infrastructure.ledger.sqlite", keys, args, samples,
        )
    with postgres_server() as server:
        for samples in (0, 5):
            measure_appends(
                "postgres", lambda module: fresh_postgres(server, module), "eventsourcing.postgres",
                "mai_safety.infrastructure.ledger.postgres", keys, args, samples,
            )
        measure_verification(
            "postgres", fresh_postgres(server, "mai_safety.infrastructure.ledger.postgres"), keys, args.verify_events
        )
    measure_verification("sqlite", fresh_sqlite(folder, "mai_safety.infrastructure.ledger.sqlite"), keys, args.verify_events)


if __name__ == "__main__":
    main()
