"""How long one hardened run costs, side by side with what we compare against, in one sitting.

Prints medians (and p90) over N runs of hello world for:
  * `docker run --rm` of the sandbox image with the same hardening flags (the bare baseline)
  * a hardened one-shot container through the Docker API, as our sandbox creates it
  * MaiSafety.run in-process, warm (assess with Bandit + record + run + record), on SQLite
  * the `mai-safety run` command end to end (a fresh process each time), on SQLite
The machine is noisy: read the ratios, not the absolute figures.

    .venv/bin/python bench/run_bench.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mai_safety.domain.levels import TrustLevel
from mai_safety.domain.limits import RequestedLimits
from mai_safety.domain.network import NetworkMode
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.settings import DEFAULT_IMAGE, Settings

HELLO = b'print("hello, world")\n'


def measure(action: Callable[[], object], runs: int) -> list[float]:
    action()  # warm-up
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return timings


def describe(name: str, timings: list[float], baseline: float | None) -> str:
    median = statistics.median(timings)
    p90 = sorted(timings)[int(0.9 * (len(timings) - 1))]
    ratio = f"{median / baseline:5.2f}x" if baseline else "  1.00x"
    return f"{name:<52} median {median * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms   {ratio}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mai-safety-bench-"))
    program = work / "hello.py"
    program.write_bytes(HELLO)
    program.chmod(0o444)
    work.chmod(0o755)
    ledger = f"sqlite:///{work / 'ledger.sqlite'}"

    docker_flags = [
        "docker", "run", "--rm", "--user", "1000:1000", "--cap-drop", "ALL",
        "--security-opt", "no-new-privileges:true", "--read-only",
        "--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=134217728,mode=1777",
        "--tmpfs", "/workspace:rw,nosuid,nodev,size=134217728,uid=1000,gid=1000,mode=0700",
        "--network", "none", "--memory", "512m", "--memory-swap", "512m", "--pids-limit", "128",
        "--cpus", "1", "--ipc", "none", "--log-driver", "none", "-v", f"{work}:/sandbox:ro",
        DEFAULT_IMAGE, "python3", "-I", "/sandbox/main.py",
    ]
    (work / "main.py").write_bytes(HELLO)
    (work / "main.py").chmod(0o444)

    def bare_docker_run() -> None:
        subprocess.run(docker_flags, check=True, capture_output=True)

    app = bootstrap(Settings.from_environment(database_url=ledger))
    sandbox = app.sandbox
    limits = app.policy.profile(TrustLevel.STANDARD).minimum

    def api_container() -> None:
        prepared = sandbox.prepare("bench", HELLO.decode(), limits, limits)
        try:
            sandbox.run(prepared, lambda usage: True)
        finally:
            sandbox.discard(prepared)

    def in_process() -> None:
        report = app.run(HELLO, requested=RequestedLimits())
        assert report.status == "completed", report

    def in_process_with_egress() -> None:
        report = app.run(HELLO, network=NetworkMode.DEPS)
        assert report.status == "completed", report

    def cli() -> None:
        subprocess.run(
            [str(Path(sys.executable).with_name("mai-safety")), "--database-url", ledger, "run", str(program)],
            check=True, capture_output=True,
        )

    print(f"hello world, {args.runs} runs each (after one warm-up); image {DEFAULT_IMAGE}")
    baseline = measure(bare_docker_run, args.runs)
    print(describe("docker run --rm, same hardening flags (baseline)", baseline, None))
    base = statistics.median(baseline)
    print(describe("our sandbox alone: idle container + exec, supervised", measure(api_container, args.runs), base))
    print(describe("MaiSafety.run in-process, warm (assess+record+run)", measure(in_process, args.runs), base))
    print(describe("MaiSafety.run with --network deps (egress proxy)", measure(in_process_with_egress, args.runs), base))
    print(describe("mai-safety run, a fresh process each time", measure(cli, args.runs), base))
    app.close()


if __name__ == "__main__":
    main()
