"""Cold start under runc and under gVisor's runsc, side by side in one sitting.

For each runtime, medians (and p90) over N runs of hello world:
  * `docker run --rm` of the sandbox image with our hardening flags (the bare cold start)
  * our sandbox alone: idle container + exec of the runner, supervised, surveyed, removed
  * MaiSafety.run in-process, warm (assess + record + run + record), on SQLite
and the per-run overhead of runsc over runc for each. The machine is noisy: read the differences.

    .venv/bin/python bench/runtime_bench.py [--runs 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

import yaml

from mai_safety.domain.levels import TrustLevel
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.docker_sandbox import gvisor_status
from mai_safety.infrastructure.settings import DEFAULT_IMAGE, PROJECT_ROOT, Settings

from run_bench import HELLO, measure  # type: ignore[import-not-found]


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
    args = parser.parse_args()
    status = gvisor_status()
    runtimes = ["runc"] + (["runsc"] if status.get("available") else [])
    if len(runtimes) == 1:
        print(f"gVisor is not available ({status.get('reason')}): runc only")
    work = Path(tempfile.mkdtemp(prefix="mai-safety-runtime-bench-"))
    (work / "main.py").write_bytes(HELLO)
    (work / "main.py").chmod(0o444)
    work.chmod(0o755)

    results: dict[str, dict[str, tuple[float, float]]] = {}
    for runtime in runtimes:
        flags = [
            "docker", "run", "--rm", "--runtime", runtime, "--user", "1000:1000", "--cap-drop", "ALL",
            "--security-opt", "no-new-privileges:true", "--read-only",
            "--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=134217728,mode=1777",
            "--tmpfs", "/workspace:rw,nosuid,nodev,size=134217728,uid=1000,gid=1000,mode=0700",
            "--network", "none", "--memory", "512m", "--memory-swap", "512m", "--pids-limit", "512",
            "--cpus", "1", "--ipc", "none", "--log-driver", "none", "-v", f"{work}:/sandbox:ro",
            DEFAULT_IMAGE, "python3", "-I", "/sandbox/main.py",
        ]
        app = bootstrap(Settings.from_environment(
            environ={"MAI_SAFETY_POLICIES": str(policies_for(work, runtime))}, database_url=f"sqlite:///{work / runtime}.sqlite"
        ))
        sandbox = app.sandbox
        limits = app.gate.profile(TrustLevel.STANDARD).minimum

        def sandbox_alone() -> None:
            prepared = sandbox.prepare("bench", HELLO.decode(), limits, limits, runtime=runtime)
            try:
                outcome = sandbox.run(prepared, lambda usage: True)
                assert outcome.exit_code == 0, outcome
            finally:
                sandbox.discard(prepared)

        def in_process() -> None:
            report = app.run(HELLO)
            assert report.status == "completed", report

        results[runtime] = {
            "docker run --rm, hardening flags": summary(measure(lambda: subprocess.run(flags, check=True, capture_output=True), args.runs)),
            "our sandbox alone (create, exec, survey, remove)": summary(measure(sandbox_alone, args.runs)),
            "MaiSafety.run in-process, warm": summary(measure(in_process, args.runs)),
        }
        app.close()
    shutil.rmtree(work, ignore_errors=True)

    print(f"hello world, {args.runs} runs each after one warm-up; image {DEFAULT_IMAGE}; median (p90) in ms")
    header = f"{'':<50}" + "".join(f"{runtime:>20}" for runtime in runtimes) + ("   runsc - runc" if len(runtimes) == 2 else "")
    print(header)
    for name in results["runc"]:
        row = f"{name:<50}" + "".join(
            f"{results[r][name][0] * 1000:>11.0f} ({results[r][name][1] * 1000:>5.0f})" for r in runtimes
        )
        if len(runtimes) == 2:
            row += f"   {(results['runsc'][name][0] - results['runc'][name][0]) * 1000:+8.0f}"
        print(row)


if __name__ == "__main__":
    main()
