"""What watching a run costs and how fast a crossed limit ends it, side by side in one sitting.

  * sampling: one reading of a running container's cgroup files beside one Docker stats call
    (one-shot), and the supervisor's own CPU use while it watches a 5 s run
  * termination latency: from the moment a limit is crossed to the moment the run is over and the
    container killed, for wall time, pids, output, CPU time and disk; memory is the kernel's own
    OOM kill, reported from its counter
  * concurrency: N supervised executions started together, how many ran at the same time
  * without a supervisor: `mai-safety run --timeout 3` of a busy loop, its CLI killed with
    SIGKILL once the container runs; how long after its deadline the container ended (the keeper)

    .venv/bin/python bench/supervision_bench.py [--repeat 5] [--concurrent 8]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docker
import psutil

from mai_safety.domain.levels import TrustLevel
from mai_safety.domain.limits import RequestedLimits, fit_limits
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.sandbox.cgroups import CgroupReader
from mai_safety.infrastructure.sandbox.containers import DEADLINE_GRACE_S, LABEL_DEADLINE, LABEL_MANAGED, LABEL_SUPERVISOR, docker_time
from mai_safety.infrastructure.settings import DEFAULT_IMAGE, Settings


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.2f} ms"


def sampling_cost(client: docker.DockerClient, repeat: int) -> None:
    container = client.containers.run(DEFAULT_IMAGE, ["sleep", "60"], detach=True, labels={"mai-safety.bench": "1"})
    try:
        container.reload()
        reader = CgroupReader(int(container.attrs["State"]["Pid"]))
        cgroup, api = [], []
        for _ in range(max(repeat * 20, 100)):
            started = time.perf_counter()
            reader.read()
            cgroup.append(time.perf_counter() - started)
        for _ in range(repeat * 4):
            started = time.perf_counter()
            client.api.stats(container.id, stream=False, one_shot=True)
            api.append(time.perf_counter() - started)
        ratio = statistics.median(api) / statistics.median(cgroup)
        print(f"one reading, cgroup files            median {median_ms(cgroup)}")
        print(f"one reading, Docker stats (one-shot)  median {median_ms(api)}   ({ratio:,.0f}x the cgroup read)")
    finally:
        container.remove(force=True)


def supervisor_cpu(app) -> None:  # type: ignore[no-untyped-def]
    me = psutil.Process()
    before = me.cpu_times()
    started = time.perf_counter()
    report = app.run(b"import time\ntime.sleep(5)\n", requested=RequestedLimits(timeout_s=20))
    wall = time.perf_counter() - started
    after = me.cpu_times()
    used = (after.user - before.user) + (after.system - before.system)
    print(f"supervisor CPU while watching a 5 s run: {used:.3f} s CPU over {wall:.2f} s "
          f"({100 * used / wall:.1f}% of one core), {report.status}")


LATENCY_CASES = {
    # reason: (program, request, how the crossing time is known)
    "timeout": (b"import time\ntime.sleep(60)\n", RequestedLimits(timeout_s=2), "limit"),
    "pids": (
        b"import os, sys, time\nwhile True:\n    try:\n        os.fork() or time.sleep(60)\n"
        b"    except OSError:\n        print(time.time(), flush=True)\n        time.sleep(60)\n",
        RequestedLimits(pids=8, timeout_s=30),
        "stdout",
    ),
    "output_limit": (
        b"import sys, time\nsys.stdout.write(str(time.time()) + '\\n')\nsys.stdout.flush()\n"
        b"while True:\n    sys.stdout.write('x' * 65536)\n",
        RequestedLimits(output_bytes=64 * 1024, timeout_s=30),
        "stdout",
    ),
    "cpu_time": (b"while True:\n    pass\n", RequestedLimits(cpu_seconds=1, timeout_s=30), "violation"),
    "disk": (
        b"import time\nblock = b'x' * 1048576\nf = open('/workspace/fill', 'wb')\n"
        b"while True:\n    f.write(block)\n    f.flush()\n",
        RequestedLimits(memory_bytes=512 * 1024 * 1024, timeout_s=30),
        "violation",
    ),
    "memory": (b"x = []\nwhile True:\n    x.append(bytearray(4 * 1048576))\n", RequestedLimits(memory_bytes=96 * 1048576), "violation"),
}


def termination_latency(app, repeat: int) -> None:  # type: ignore[no-untyped-def]
    """Drives the sandbox directly (no recording), so the figure is the supervisor's own."""
    print("termination latency, limit crossed -> run over and container killed (upper bounds):")
    sandbox = app.sandbox
    interval = sandbox.sample_interval_s
    for reason, (program, requested, clock) in LATENCY_CASES.items():
        limits = fit_limits(app.policy.profile(TrustLevel.STANDARD), requested, TrustLevel.STANDARD, 0.0)
        latencies = []
        for index in range(repeat):
            prepared = sandbox.prepare(f"bench-{reason}-{index}", program.decode(), limits, limits)
            try:
                called = time.perf_counter()
                outcome = sandbox.run(prepared, lambda usage: True)
                returned_wall, returned = time.time(), time.perf_counter()
            finally:
                sandbox.discard(prepared)
            assert outcome.termination_reason == reason, (reason, outcome.termination_reason, outcome.detail)
            if clock == "stdout":  # the program printed the moment its limit was crossed
                latencies.append(returned_wall - float(outcome.stdout.split()[0]))
            elif clock == "limit":  # the wall-clock limit is the crossing; the call includes exec set-up
                latencies.append(returned - called - limits.timeout_s)
            else:  # seen at the first reading after the crossing, at most one interval late
                latencies.append(returned - called - outcome.violation["at_s"] + interval)
        print(f"  {reason:<13} median {median_ms(latencies)}   max {max(latencies) * 1000:8.2f} ms   ({repeat} runs)")


def concurrency(app, count: int) -> None:  # type: ignore[no-untyped-def]
    program = b"import time\ntime.sleep(2)\n"
    peak = [0]

    def one(_: int):  # type: ignore[no-untyped-def]
        return app.run(program)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=count) as pool:
        reports = list(pool.map(one, range(count)))
    wall = time.perf_counter() - started
    spans = []
    for report in reports:
        events = app.history(report.execution_id)
        spans.append((events[1]["timestamp"], events[-1]["timestamp"]))
    for start, _ in spans:
        peak[0] = max(peak[0], sum(1 for other_start, other_end in spans if other_start <= start < other_end))
    statuses = {report.status for report in reports}
    print(f"concurrency: {count} executions of a 2 s program in {wall:.2f} s; at most {peak[0]} at once; statuses {statuses}")


def unsupervised_deadline(client: docker.DockerClient, work: Path, repeat: int) -> None:
    """The keeper's deadline after the supervisor is gone: seconds from the run's deadline label to
    the container's end, with the CLI that supervised it killed by SIGKILL."""
    program = work / "busy.py"
    program.write_text("while True:\n    pass\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_DATABASE_URL"] = f"sqlite:///{work / 'unsupervised.sqlite'}"
    lateness = []
    for _ in range(repeat):
        cli = subprocess.Popen([sys.executable, "-m", "mai_safety.infrastructure.cli", "run", str(program), "--timeout", "3"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        container = None
        for _ in range(600):
            found = [c for c in client.containers.list(filters={"label": f"{LABEL_MANAGED}=1"})
                     if c.labels.get(LABEL_SUPERVISOR, "").split("/")[1:2] == [str(cli.pid)]]
            if found:
                container = found[0]
                break
            time.sleep(0.05)
        cli.send_signal(signal.SIGKILL)
        cli.wait()
        if container is None:
            print("unsupervised: the run never started")
            continue
        deadline = float(container.labels[LABEL_DEADLINE])
        while True:
            container.reload()
            if container.status != "running":
                break
            time.sleep(0.05)
        finished = docker_time(container.attrs["State"]["FinishedAt"]) or time.time()
        lateness.append(finished - deadline)
        container.remove(force=True)
    subprocess.run([sys.executable, "-m", "mai_safety.infrastructure.cli", "recover"], env=env, capture_output=True)
    if lateness:
        print(f"without a supervisor: a busy loop with --timeout 3 ended {statistics.median(lateness):+.2f} s from the keeper's "
              f"deadline (the container's start + timeout + {DEADLINE_GRACE_S:g} s; median of {len(lateness)}, "
              f"latest {max(lateness):+.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--concurrent", type=int, default=8)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mai-safety-bench-"))
    app = bootstrap(Settings.from_environment(database_url=f"sqlite:///{work / 'ledger.sqlite'}"))
    client = docker.from_env()
    try:
        sampling_cost(client, args.repeat)
        supervisor_cpu(app)
        termination_latency(app, args.repeat)
        concurrency(app, args.concurrent)
        unsupervised_deadline(client, work, args.repeat)
    finally:
        app.close()
        client.close()


if __name__ == "__main__":
    main()
