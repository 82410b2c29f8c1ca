"""What the observed record costs (decision 0044): a pooled hello world under gVisor, traced
(``runsc-observed``) and not (``runsc``), side by side in one sitting.

For each mode, the median and p90 over N runs of ``MaiSafety.run`` in-process, warm, on SQLite,
with a warm pool of 2 standard containers under runsc; between two runs the bench waits --gap
seconds, untimed, so that the pool refills. "not traced" is the same service with the observed
runtime reported unavailable. The machine is noisy: read the difference.

    flock /tmp/mai-docker.lock .venv/bin/python bench/observed_bench.py [--runs 10] [--gap 1.0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from mai_safety.infrastructure import bootstrap as bootstrapping
from mai_safety.infrastructure.sandbox import runtimes
from mai_safety.infrastructure.settings import Settings

from run_bench import HELLO  # type: ignore[import-not-found]
from runtime_bench import measure, policies_for, summary  # type: ignore[import-not-found]


def run_mode(work: Path, traced: bool, runs: int, gap: float) -> tuple[float, float, str]:
    real = runtimes.observed_status
    if not traced:
        runtimes.observed_status = lambda found: {"available": False, "reason": "off for the bench"}  # type: ignore[assignment]
    try:
        app = bootstrapping.bootstrap(
            Settings.from_environment(
                environ={"MAI_SAFETY_POLICIES": str(policies_for(work / ("traced" if traced else "plain"), "runsc"))},
                database_url=f"sqlite:///{work}/{'traced' if traced else 'plain'}.sqlite",
            ),
            pool={"standard": 2},
        )
        try:
            deadline = time.monotonic() + 60
            while app.sandbox.pool_status()["standard"]["waiting"] < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            executions: list[str] = []

            def in_process() -> None:
                report = app.run(HELLO)
                assert report.status == "completed", report
                executions.append(report.execution_id)

            median, p90 = summary(measure(in_process, runs, gap))
            pooled = sum(
                bool(event["sizing"]["host"].get("pooled"))
                for execution in executions
                for event in app.history(execution)
                if event["event"] == "Started"
            )
            ending = [event for event in app.history(executions[-1]) if event["event"] == "Completed"][0]
            observed = ending.get("observed") or {}
            return median, p90, f"pooled {pooled}/{len(executions)}, observed record: {observed.get('source', 'none')}"
        finally:
            app.close()
    finally:
        runtimes.observed_status = real  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--gap", type=float, default=1.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "traced").mkdir()
        (work / "plain").mkdir()
        rows = {label: run_mode(work, traced, args.runs, args.gap) for label, traced in (("runsc, not traced", False), ("runsc-observed, traced", True))}
    for label, (median, p90, note) in rows.items():
        print(f"{label:<26} median {median * 1000:7.1f} ms  p90 {p90 * 1000:7.1f} ms  ({note})")
    plain, traced = rows["runsc, not traced"][0], rows["runsc-observed, traced"][0]
    print(f"the observed record costs {(traced - plain) * 1000:+.1f} ms a pooled run ({traced / plain:.2f}x)")


if __name__ == "__main__":
    main()
