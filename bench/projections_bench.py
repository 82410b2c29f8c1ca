"""What the read models cost (docs/decisions/0021): rebuilding them from a ledger of 100,000
events, and ``report`` over 10,000 executions.

For each store (SQLite; Postgres from the mai-safety/postgres:15 image, removed at the end), one
ledger of --executions executions of 10 events each (Assessed, Started, 7 ResourceSampled,
Completed; every tenth HIGH, confirmed, then run), written a hundred executions per save:

- ``rebuild``: ``projections rebuild`` (drop the views, read every event again), median of --repeats;
- ``catch-up``: a catch-up with nothing new (what every CLI reader pays first), median;
- ``report``: the audit report built from the views (figures, percentiles, what waits), median;
- ``verify``: ``audit verify``, which ``mai-safety report`` runs to anchor the report, once.

    .venv/bin/python bench/projections_bench.py [--executions 10000] [--repeats 3] [--stores sqlite,postgres]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ledger_bench import LIMITS  # noqa: E402 - beside this script
from startup_bench import ledger_urls, settings, timed  # noqa: E402 - beside this script
from mai_safety.application.audit_figures import anchor_from
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.execution import Execution
from mai_safety.domain.gate import GateRules
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.infrastructure.bootstrap import bootstrap, read_models
from mai_safety.infrastructure.settings import PROJECT_ROOT

sys.path.insert(0, str(PROJECT_ROOT))
from tests.unit.fakes import FakeAssessor, FakeSandbox  # noqa: E402 - the bench borrows the test fakes

SAMPLES = 7
RULES = GateRules(confirmers=("*",), overriders=("*",), answer_within=timedelta(hours=1))
OUTCOME = {"exit_code": 0, "stdout": "hello\n", "stderr": "", "output_bytes": 6, "duration_s": 0.8,
           "peaks": {"cpu_seconds": 0.5, "memory_peak_bytes": 60_000_000, "pids": 4}}


def one_execution(number: int) -> Execution:
    """Ten events: a LOW run with seven samples; every tenth is HIGH, confirmed, then run with
    five samples (Assessed, OverrideRequested, Overridden, Started, 5 samples, Completed)."""
    submission = Submission.from_bytes(f"print('hello', {number})\n".encode(), Provenance.MAI, 1 << 20)
    samples = SAMPLES
    if number % 10 == 9:
        finding = Finding("bandit", "B602", RiskLevel.HIGH, "subprocess with shell=True")
        execution = Execution.assess(submission, Assessment(RiskLevel.HIGH, findings=(finding,), analyzers=("bandit",)))
        execution.request_override("HIGH code needs the user's confirmation", datetime(2099, 1, 1, tzinfo=timezone.utc))
        execution.override("checked", RULES, "approver", datetime.now(timezone.utc))
        samples -= 2
    else:
        execution = Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("bandit",)))
    execution.start(container_id=f"c{number}", image="mai-safety/sandbox:1", limits=LIMITS, trust=TrustLevel.STANDARD)
    for sample in range(samples):
        elapsed = 0.1 * (sample + 1)
        execution.record_sample({
            "elapsed_s": elapsed, "cpu_seconds": elapsed * 0.6, "memory_bytes": 50_000_000, "memory_peak_bytes": 50_000_000 + sample,
            "pids": 3, "disk_bytes": 0, "disk_full": False, "output_bytes": sample,
        })
    execution.complete(OUTCOME)  # type: ignore[arg-type]
    return execution


def fill(app: MaiSafety, executions: int) -> None:
    for first in range(0, executions, 100):
        app.save(*(one_execution(number) for number in range(first, min(first + 100, executions))))


def measure(store: str, url: str, home: Path, executions: int, repeats: int) -> None:
    app = bootstrap(settings(url, home), assessor=FakeAssessor(), sandbox=FakeSandbox(), pool=False, warm_semgrep=False)
    try:
        fill(app, executions)
        models = read_models(app)
        head = app.recorder.max_notification_id() or 0
        rebuild = timed(models.rebuild, repeats)
        assert models.lag()["lag"] == 0
        idle = timed(models.catch_up, repeats * 5)
        started = time.perf_counter()
        anchor = anchor_from(app.verify())
        verify = time.perf_counter() - started
        now = datetime.now(timezone.utc)
        report = timed(lambda: models.report(anchor, None, None, now, fresh=False), repeats)
        built = models.report(anchor, None, None, now, fresh=False)
        assert built.executions == executions and anchor.verified, (built.executions, anchor)
    finally:
        app.close()
    print(
        f"{store:<8} {head:>7} events, {executions} executions   rebuild {rebuild / 1000:7.2f} s ({head / rebuild * 1000:,.0f} events/s)   "
        f"catch-up with nothing new {idle:6.2f} ms   report {report:7.1f} ms   audit verify {verify:6.2f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--executions", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--stores", default="sqlite,postgres")
    args = parser.parse_args()
    stores = args.stores.split(",")
    with tempfile.TemporaryDirectory() as folder, ledger_urls(stores, Path(folder)) as urls:
        for store in stores:
            measure(store, urls[store](), Path(folder) / store, args.executions, args.repeats)


if __name__ == "__main__":
    main()
