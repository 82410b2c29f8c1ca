"""Cold and pooled start under runc and under gVisor's runsc, side by side in one sitting.

For each runtime, medians (and p90) over N runs of hello world:
  * `docker run --rm` of the sandbox image with our hardening flags
  * the Docker API's create, start, wait, remove with the same hardening and networking disabled:
    the fastest hardened bare path (the program's output is not read)
  * our sandbox alone: a container made for the run (pool 0), or taken from a warm pool of 2
    (docs/decisions/0015); exec of the runner, supervised, surveyed, removed
  * MaiSafety.run in-process, warm (assess + record + run + record), on SQLite, pool 0 and pool 2
with ratios to the bare API path of the same runtime, and the per-run overhead of runsc over runc.
Between two runs of any row the bench waits --gap seconds, untimed (1 s: time for the pool to
refill, as in a service whose requests come a second apart; 0 runs them back to back, and then a
run may find the pool empty and take the cold path: the pooled share is printed). The machine is
noisy: read the ratios.

    .venv/bin/python bench/runtime_bench.py [--runs 10] [--gap 1.0]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import docker
import yaml

from mai_safety.domain.levels import TrustLevel
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.sandbox import gvisor_status
from mai_safety.infrastructure.settings import DEFAULT_IMAGE, PROJECT_ROOT, Settings

from run_bench import HELLO  # type: ignore[import-not-found]

BARE_API = "Docker API create/start/wait/remove, no network"


def measure(action: Callable[[], object], runs: int, gap_s: float) -> list[float]:
    action()  # warm-up
    timings = []
    for _ in range(runs):
        time.sleep(gap_s)
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return timings


def pooled_policies(work: Path, standard: int) -> Path:
    """The shipped policies, with ``standard`` pool containers for standard runs and none for the others."""
    folder = work / f"policies-pool-{standard}"
    shutil.copytree(PROJECT_ROOT / "policies", folder)
    data = yaml.safe_load((folder / "limits.yaml").read_text())
    data.setdefault("pool", {})["sizes"] = {"trusted": 0, "standard": standard, "untrusted": 0}
    (folder / "limits.yaml").write_text(yaml.safe_dump(data))
    return folder


def policies_for(work: Path, runtime: str) -> Path:
    folder = work / f"policies-{runtime}"
    shutil.copytree(PROJECT_ROOT / "policies", folder)
    data = yaml.safe_load((folder / "limits.yaml").read_text())
    for profile in data["profiles"].values():
        profile["runtime"] = runtime
    (folder / "limits.yaml").write_text(yaml.safe_dump(data))
    return folder


def summary(timings: list[float]) -> tuple[float, float]:
    return statistics.median(timings), sorted(timings)[int(0.9 * (len(timings) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--gap", type=float, default=1.0)
    args = parser.parse_args()
    status = gvisor_status()
    runtimes = ["runc"] + (["runsc"] if status.get("available") else [])
    if len(runtimes) == 1:
        print(f"gVisor is not available ({status.get('reason')}): runc only")
    work = Path(tempfile.mkdtemp(prefix="mai-safety-runtime-bench-"))
    (work / "main.py").write_bytes(HELLO)
    (work / "main.py").chmod(0o444)
    work.chmod(0o755)
    client = docker.from_env()

    results: dict[str, dict[str, tuple[float, float]]] = {}
    pooled_share: dict[str, dict[str, str]] = {}
    for runtime in runtimes:
        hardening = dict(
            user="1000:1000", cap_drop=["ALL"], security_opt=["no-new-privileges:true"], read_only=True,
            tmpfs={"/tmp": "rw,nosuid,nodev,noexec,size=134217728,mode=1777",
                   "/workspace": "rw,nosuid,nodev,size=134217728,uid=1000,gid=1000,mode=0700"},
            mem_limit="512m", memswap_limit="512m", pids_limit=512, nano_cpus=10**9, ipc_mode="none",
            log_config={"type": "none"}, volumes={str(work): {"bind": "/sandbox", "mode": "ro"}}, runtime=runtime,
        )
        flags = [
            "docker", "run", "--rm", "--runtime", runtime, "--user", "1000:1000", "--cap-drop", "ALL",
            "--security-opt", "no-new-privileges:true", "--read-only",
            "--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=134217728,mode=1777",
            "--tmpfs", "/workspace:rw,nosuid,nodev,size=134217728,uid=1000,gid=1000,mode=0700",
            "--network", "none", "--memory", "512m", "--memory-swap", "512m", "--pids-limit", "512",
            "--cpus", "1", "--ipc", "none", "--log-driver", "none", "-v", f"{work}:/sandbox:ro",
            DEFAULT_IMAGE, "python3", "-I", "/sandbox/main.py",
        ]

        def bare_api() -> None:
            container = client.containers.create(
                DEFAULT_IMAGE, ["python3", "-I", "/sandbox/main.py"], network_disabled=True, detach=True, **hardening
            )
            try:
                container.start()
                assert container.wait()["StatusCode"] == 0
            finally:
                container.remove(force=True)

        policies = policies_for(work, runtime)
        rows: dict[str, tuple[float, float]] = {
            "docker run --rm, hardening flags": summary(
                measure(lambda: subprocess.run(flags, check=True, capture_output=True), args.runs, args.gap)
            ),
            BARE_API: summary(measure(bare_api, args.runs, args.gap)),
        }
        shares: dict[str, str] = {}
        for pool in (0, 2):
            app = bootstrap(
                Settings.from_environment(
                    environ={"MAI_SAFETY_POLICIES": str(policies)}, database_url=f"sqlite:///{work / runtime}-{pool}.sqlite"
                ),
                pool={"standard": pool},
            )
            sandbox = app.sandbox
            limits = app.policy.profile(TrustLevel.STANDARD).minimum
            taken: list[bool] = []
            executions: list[str] = []
            if pool:
                deadline = time.monotonic() + 60
                while sandbox.pool_status()["standard"]["waiting"] < pool and time.monotonic() < deadline:
                    time.sleep(0.1)

            def sandbox_alone() -> None:
                prepared = sandbox.prepare("bench", HELLO.decode(), limits, limits, runtime=runtime)
                taken.append(bool(prepared.host.get("pooled")))
                try:
                    outcome = sandbox.run(prepared, lambda usage: True)
                    assert outcome.exit_code == 0, outcome
                finally:
                    sandbox.discard(prepared)

            def in_process() -> None:
                report = app.run(HELLO)
                assert report.status == "completed", report
                executions.append(report.execution_id)

            label = f"pool {pool}"
            rows[f"our sandbox alone, {label}"] = summary(measure(sandbox_alone, args.runs, args.gap))
            rows[f"MaiSafety.run in-process, {label}"] = summary(measure(in_process, args.runs, args.gap))
            if pool:
                started = [next(e for e in app.history(x) if e["event"] == "Started") for x in executions[1:]]
                shares["sandbox"] = f"{sum(taken[1:])}/{len(taken) - 1}"
                shares["run"] = f"{sum(bool(e['sizing']['host'].get('pooled')) for e in started)}/{len(started)}"
            app.close()
        results[runtime] = rows
        pooled_share[runtime] = shares
    shutil.rmtree(work, ignore_errors=True)
    client.close()

    print(
        f"hello world, {args.runs} runs each after one warm-up, {args.gap:g} s between runs; image {DEFAULT_IMAGE}; "
        f"median (p90) in ms, and the median over the bare API path's of the same runtime"
    )
    header = f"{'':<50}" + "".join(f"{runtime:>24}" for runtime in runtimes) + ("   runsc - runc" if len(runtimes) == 2 else "")
    print(header)
    for name in results["runc"]:
        row = f"{name:<50}"
        for r in runtimes:
            median, p90 = results[r][name]
            row += f"{median * 1000:>8.0f} ({p90 * 1000:>5.0f}) {median / results[r][BARE_API][0]:5.2f}x"
        if len(runtimes) == 2:
            row += f"   {(results['runsc'][name][0] - results['runc'][name][0]) * 1000:+8.0f}"
        print(row)
    for r in runtimes:
        cold, warm = results[r]["MaiSafety.run in-process, pool 0"][0], results[r]["MaiSafety.run in-process, pool 2"][0]
        alone = results[r]["our sandbox alone, pool 0"][0] - results[r]["our sandbox alone, pool 2"][0]
        print(
            f"{r}: MaiSafety.run pool 2 / pool 0 = {warm / cold:.2f} ({(cold - warm) * 1000:+.0f} ms saved); "
            f"sandbox alone saves {alone * 1000:.0f} ms; runs that took a pooled container: "
            f"sandbox {pooled_share[r].get('sandbox')}, MaiSafety.run {pooled_share[r].get('run')}"
        )


if __name__ == "__main__":
    main()
