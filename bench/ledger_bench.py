"""What the tamper-evident ledger costs, side by side with plain eventsourcing, in one sitting.

Append throughput: the same application writes executions one event per save, as a live service
does (Assessed, Started, samples, Completed; every ending covered by a signed checkpoint in ours),
into plain eventsourcing recorders (``eventsourcing.postgres``, ``eventsourcing.sqlite``: no
chain) and into ours, on a Postgres started here from the mai-safety/postgres:15 image (removed
at the end) and on SQLite. Ours runs with the shipped policy (policies/ledger.yaml: endings
sealed within a bound, one signature for the endings of each interval) and with every ending
sealed in its own transaction. Rounds interleave plain and ours execution by execution; medians are printed.
Executions without samples are the worst case for us: an ending every three events.

Verification throughput: a ledger of --verify-events events is verified whole (both chains,
every checkpoint, one signature), three times (median), then reading the rows alone and hashing
them alone, to show what bounds it (on Postgres the next page is read while this one is hashed,
so a walk costs about the slower of the two). Postgres is reached at its container's address on
Docker's bridge, or with --postgres-via port through a published port (docker-proxy copies every
byte: a third busy process on 2 cores).

    .venv/bin/python bench/ledger_bench.py [--events 1000] [--rounds 11] [--verify-events 60000]
        [--stores sqlite,postgres] [--parts appends,verify] [--postgres-via bridge|port]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import psycopg

from bench_postgres import conninfo, postgres_server  # noqa: E402 - beside this script
from mai_safety.ledger.application.sealing import LedgerPolicy
from mai_safety.application.executions import MaiSafety
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.ledger.domain.chain import ChainVerifier
from mai_safety.ledger.domain.checkpoint import CheckpointRule
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits
from mai_safety.ledger import blob_store_of
from mai_safety.ledger.infrastructure.policy import load_ledger_policy
from mai_safety.infrastructure.signing import KeyFile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.unit.fakes import FakeAssessor, FakeSandbox  # noqa: E402 - the bench borrows the test fakes

LIMITS = ResourceLimits(cpus=1, memory_bytes=2**27, pids=64, timeout_s=10, output_bytes=2**16, tmpfs_bytes=2**20)
GATE = ExecutionPolicy(profiles={trust: LIMITS for trust in TrustLevel}, trust_rules=(), max_code_bytes=1 << 20)
OUTCOME = {"exit_code": 0, "stdout": "hello, world\n", "stderr": "", "duration_s": 0.12}


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


#: The shipped policy's checkpoint rule (policies/ledger.yaml): endings sealed within a bound.
SHIPPED_RULE = load_ledger_policy(Path(__file__).resolve().parents[1] / "policies", Path("."), KeyFile(Path("unused"))).policy.rule
#: The same rule, but each ending sealed in its own transaction.
AT_ONCE_RULE = replace(SHIPPED_RULE, endings_within=0.0)


def application(env: dict[str, str], keys: KeyFile | None, rule: CheckpointRule = SHIPPED_RULE) -> MaiSafety:
    ledger = LedgerPolicy(rule, keys) if keys else None
    # Wired as bootstrap wires it: output blobs beside our ledgers (None for plain eventsourcing).
    return MaiSafety(
        assessor=FakeAssessor(), sandbox=FakeSandbox(), policy=GATE, env=env, ledger=ledger, blob_store=blob_store_of
    )


def new_execution(number: int) -> Execution:
    submission = Submission.from_bytes(f"print('hello', {number})\n".encode(), Provenance.MAI, 1 << 20)
    return Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("bandit",)))


def write_execution(app: MaiSafety, number: int, samples: int) -> int:
    """One execution, saving each event as it happens: Assessed, Started, ``samples``
    ResourceSampled, Completed. Returns how many events it wrote."""
    execution = new_execution(number)
    app.save(execution)
    execution.start(container_id=f"c{number}", image="mai-safety/sandbox:1", limits=LIMITS, trust=TrustLevel.STANDARD)
    app.save(execution)
    for sample in range(samples):
        execution.record_sample({"cpu": 0.4, "memory_bytes": 50_000_000 + sample, "pids": 3})
        app.save(execution)
    execution.complete(OUTCOME)
    app.save(execution)
    return 3 + samples


def write_interleaved(apps: dict[str, MaiSafety], events: int, samples: int, first: int) -> dict[str, float]:
    """Events per second of each application, writing one execution to each in turn (the order
    rotating from ``first``), so that the disk's and the machine's moods fall on all alike."""
    labels = list(apps)
    spent = dict.fromkeys(labels, 0.0)
    written = 0
    number = 0
    clock = time.perf_counter
    while written < events:
        turn = (first + number) % len(labels)
        for label in labels[turn:] + labels[:turn]:
            started = clock()
            count = write_execution(apps[label], number, samples)
            spent[label] += clock() - started
        written += count
        number += 1
    return {label: written / spent[label] for label in labels}


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
) -> dict[str, float]:
    """Rounds of executions written to plain and ours in turn, one execution each (the order
    rotating), each into its own growing ledger, so that a busy machine and a moody disk slow
    all alike; the spread of the per-round ratio shows how much they still disturbed it. Ours runs twice: with the shipped policy (endings sealed within its bound, one
    signature for the endings of each interval) and with each ending sealed in its own
    transaction (``endings_within_seconds: 0``)."""
    apps = {
        "plain": application(fresh(plain_module), None),
        "ours": application(fresh(our_module), keys, SHIPPED_RULE),
        "at-once": application(fresh(our_module), keys, AT_ONCE_RULE),
    }
    figures: dict[str, list[float]] = {label: [] for label in apps}
    ratios: dict[str, list[float]] = {"ours": [], "at-once": []}
    reports = {}
    try:
        write_interleaved(apps, 300, samples, 0)  # warm-up: connections, prepared statements, the key
        for round_number in range(args.rounds):
            for label, rate in write_interleaved(apps, args.events, samples, round_number).items():
                figures[label].append(rate)
            for label in ratios:
                ratios[label].append(figures[label][-1] / figures["plain"][-1])
        for label in ratios:
            apps[label].audit.close()  # seal what is owed, as a stopping service does
            reports[label] = apps[label].audit.verify()
            assert reports[label].intact, reports[label].problems[:3]
    finally:
        for app in apps.values():
            app.close()
    medians = {label: statistics.median(values) for label, values in figures.items()}
    line = f"{name:<9} {3 + samples:>2}-event executions  plain {medians['plain']:6.0f} ev/s (best {max(figures['plain']):5.0f})"
    for label, description in (("ours", f"ours, endings sealed within {SHIPPED_RULE.endings_within:g} s"), ("at-once", "ours, each ending sealed at once")):
        line += (
            f"\n          {description:<40} {medians[label]:6.0f} ev/s (best {max(figures[label]):5.0f})   "
            f"ours/plain: medians {medians[label] / medians['plain']:6.1%}, bests {max(figures[label]) / max(figures['plain']):6.1%}, "
            f"per round {min(ratios[label]):.0%}..{max(ratios[label]):.0%}, median {statistics.median(ratios[label]):.0%}   "
            f"[{reports[label].checked} events, {reports[label].checkpoints} checkpoints, verified]"
        )
    print(line + f"   ({args.rounds} rounds)")
    return medians


def measure_verification(name: str, env: dict[str, str], keys: KeyFile, events: int, repeats: int = 3) -> float:
    app = application(env, keys)
    try:
        fill(app, events)
        app.audit.verify()  # warm-up
        rates = []
        for _ in range(repeats):
            started = time.perf_counter()
            report = app.audit.verify()
            rates.append(report.checked / (time.perf_counter() - started))
            assert report.intact, report.problems[:3]
        recorder = app.audit.ledger()
        started = time.perf_counter()
        records = list(recorder.iter_chain())
        reading = time.perf_counter() - started
        started = time.perf_counter()
        ChainVerifier().check_all(records)
        hashing = time.perf_counter() - started
    finally:
        app.close()
    print(
        f"{name:<9} verify {statistics.median(rates):8.0f} ev/s (median of {repeats}; {min(rates):.0f}..{max(rates):.0f}) "
        f"over {report.checked} events, {report.checkpoints} checkpoints, {report.signatures} signature(s): "
        f"reading rows alone {report.checked / reading:8.0f} ev/s, hashing both chains alone {report.checked / hashing:8.0f} ev/s"
    )
    return float(statistics.median(rates))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1000, help="events per burst")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--verify-events", type=int, default=60000)
    parser.add_argument("--stores", default="sqlite,postgres", help="which stores to measure (comma-separated)")
    parser.add_argument("--parts", default="appends,verify", help="which measures to take (comma-separated)")
    parser.add_argument(
        "--postgres-via", choices=("bridge", "port"), default="bridge",
        help="reach Postgres at its container's address (bridge) or through a published port (docker-proxy)",
    )
    args = parser.parse_args()
    args.stores = set(args.stores.split(","))
    args.parts = set(args.parts.split(","))
    folder = Path(tempfile.mkdtemp(prefix="mai-safety-ledger-bench-"))
    try:
        run(folder, args)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(folder: Path, args: argparse.Namespace) -> None:
    keys = KeyFile(folder / "signing-key.pem")
    appends, verify = "appends" in args.parts, "verify" in args.parts
    if appends:
        print(
            "one event per save; every execution's end covered by a signed checkpoint in ours: 3-event executions "
            "(Assessed, Started, Completed) are the worst case, 8-event ones (5 samples: a run of some seconds) typical"
        )
    if "sqlite" in args.stores and appends:
        for samples in (0, 5):
            measure_appends(
                "sqlite", lambda module: fresh_sqlite(folder, module), "eventsourcing.sqlite",
                "mai_safety.ledger.infrastructure.sqlite", keys, args, samples,
            )
    if "postgres" in args.stores:
        print(f"postgres reached via {args.postgres_via}")
        with postgres_server(args.postgres_via) as server:
            for samples in (0, 5) if appends else ():
                measure_appends(
                    "postgres", lambda module: fresh_postgres(server, module), "eventsourcing.postgres",
                    "mai_safety.ledger.infrastructure.postgres", keys, args, samples,
                )
            if verify:
                measure_verification(
                    "postgres", fresh_postgres(server, "mai_safety.ledger.infrastructure.postgres"), keys, args.verify_events
                )
    if "sqlite" in args.stores and verify:
        measure_verification("sqlite", fresh_sqlite(folder, "mai_safety.ledger.infrastructure.sqlite"), keys, args.verify_events)


if __name__ == "__main__":
    main()
