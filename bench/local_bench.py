"""Issue #29's table in one sitting: hello world by every path, side by side, in shuffled rounds
(each path checked for its output), as ratios to the Docker API's bare path.

  * Docker API create/start/wait/remove, hardened, no network (service_bench.bare_api)
  * `docker run --rm` with the same hardening
  * `POST /v1/executions` to a warm `mai-safety serve` with a pool of 2: the same code, and new code each time
  * the same, the profiles' runtime runsc (gVisor), pooled
  * `mai-safety run hello.py` (the console script, no MAI_SAFETY_URL): with the per-user service
    warm; `--no-service` (in-process, as before #29); and the first command after the service's
    idle exit (it starts the service: fewer rounds)
  * 8 clients back to back against the pooled service: executions per second and p95
  * the engine's floor: the CPU time dockerd, containerd and the shims spend on one bare container,
    and the executions per second two cores give at that cost

    .venv/bin/python bench/local_bench.py [--rounds 10] [--gap 1.0] [--load-seconds 30] [--idle-rounds 3]

Run it under the suite's Docker lock on a shared machine. The ledgers, homes and runtime folders
are temporary; every service it starts is stopped at its end.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import docker
import psutil
import yaml

sys.path.insert(0, str(Path(__file__).parent))
import service_bench  # noqa: E402 - the bench folder's own modules
from runtime_bench import pooled_policies  # noqa: E402
from service_bench import CLI, HELLO, Service, bare_api, load  # noqa: E402

from mai_safety.infrastructure.cli import user_service  # noqa: E402
from mai_safety.infrastructure.settings import DEFAULT_IMAGE  # noqa: E402

DOCKER_RUN = [
    "docker", "run", "--rm", "--network", "none", "--user", "1000:1000", "--cap-drop", "ALL",
    "--security-opt", "no-new-privileges:true", "--read-only", "--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=134217728,mode=1777",
    "--memory", "256m", "--memory-swap", "256m", "--pids-limit", "64", "--cpus", "1", "--ipc", "none", "--log-driver", "none",
    DEFAULT_IMAGE, "python3", "-I", "-c", HELLO.decode(),
]
ENGINE = ("dockerd", "containerd", "containerd-shim", "containerd-shim-runc-v2", "runc", "runsc", "runsc-sandbox", "runsc-gofer")


def docker_run() -> None:
    done = subprocess.run(DOCKER_RUN, capture_output=True, text=True, check=True)
    assert "hello" in done.stdout, done.stdout


class LocalCli:
    """The console script with the owner's settings of its own: a ledger, home, runtime folder."""

    def __init__(self, work: Path, name: str, policies: Path, idle_s: float = 300.0) -> None:
        home = work / name
        runtime = Path(tempfile.mkdtemp(prefix="lb-", dir="/tmp"))
        self.runtime = runtime
        self.env = {key: value for key, value in os.environ.items() if not key.startswith(("MAI_SAFETY_", "XDG_"))}
        self.env.update(
            MAI_SAFETY_DATA_DIR=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
            XDG_RUNTIME_DIR=str(runtime), MAI_SAFETY_POLICIES=str(policies), MAI_SAFETY_LOCAL_SERVICE_IDLE_S=f"{idle_s:g}",
        )
        self.file = home / "hello.py"
        home.mkdir(parents=True, exist_ok=True)
        self.file.write_text(HELLO.decode() + "\n")

    def run(self, *extra: str) -> None:
        done = subprocess.run([CLI, "run", str(self.file), *extra], env=self.env, capture_output=True, text=True, check=False)
        assert done.returncode == 0 and "hello" in done.stdout, (done.returncode, done.stdout, done.stderr)

    def service_pid(self) -> int | None:
        for path in (self.runtime / "mai-safety").glob("*.sock"):
            try:
                return int(user_service.OwnerConnection(path, "").local("GET", "", timeout=2.0)["pid"])
            except Exception:  # noqa: BLE001 - gone meanwhile
                return None
        return None

    def wait_for_idle_exit(self, pid: int | None, within_s: float = 120.0) -> None:
        """Until the service ``pid`` has exited by itself (watched from outside: asking it would keep it up)."""
        deadline = time.monotonic() + within_s
        while pid is not None and _alive(pid):
            if time.monotonic() > deadline:
                raise SystemExit(f"the per-user service {pid} did not exit within {within_s:g} s of idling")
            time.sleep(0.1)

    def close(self) -> None:
        for path in (self.runtime / "mai-safety").glob("*.sock"):
            pid = self.service_pid()
            try:
                user_service.stop(path)
            except OSError:
                continue
            while pid is not None and _alive(pid):
                time.sleep(0.2)
        shutil.rmtree(self.runtime, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def runsc_service(work: Path) -> Service:
    """A pooled service whose profiles all run under gVisor."""

    def pooled_runsc(folder: Path, pool: int) -> Path:
        policies = pooled_policies(folder, pool)
        data = yaml.safe_load((policies / "limits.yaml").read_text())
        for profile in data["profiles"].values():
            profile["runtime"] = "runsc"
        (policies / "limits.yaml").write_text(yaml.safe_dump(data))
        return policies

    original = service_bench.pooled_policies
    service_bench.pooled_policies = pooled_runsc
    try:
        return Service(work / "runsc", 2)
    finally:
        service_bench.pooled_policies = original


def engine_cpu_s() -> float:
    total = 0.0
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in ENGINE:
            try:
                times = process.cpu_times()
                total += times.user + times.system + times.children_user + times.children_system
            except psutil.Error:
                continue
    return total


def rounds(paths: dict[str, Callable[[], object]], count: int, gap_s: float) -> dict[str, list[float]]:
    """Each round runs every path once, in a shuffled order (after one warm-up each)."""
    for action in paths.values():
        action()
    timings: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(count):
        order = list(paths)
        random.shuffle(order)
        for name in order:
            time.sleep(gap_s)
            started = time.perf_counter()
            paths[name]()
            timings[name].append(time.perf_counter() - started)
    return timings


def after_idle_exit(cli: LocalCli, count: int) -> list[float]:
    timings = []
    for _ in range(count):
        cli.wait_for_idle_exit(cli.service_pid())
        started = time.perf_counter()
        cli.run()
        timings.append(time.perf_counter() - started)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--gap", type=float, default=1.0)
    parser.add_argument("--load-seconds", type=float, default=30.0)
    parser.add_argument("--idle-rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=8)
    options = parser.parse_args()
    client = docker.from_env()
    work = Path(tempfile.mkdtemp(prefix="mai-safety-local-bench-"))
    opened: list[Service | LocalCli] = []
    try:
        pooled = Service(work, 2)
        opened.append(pooled)
        gvisor = runsc_service(work)
        opened.append(gvisor)
        warm = LocalCli(work, "warm", pooled_policies(work / "cli", 2))
        opened.append(warm)
        counter = iter(range(10**9))
        paths: dict[str, Callable[[], object]] = {
            "Docker API create/start/wait/remove, hardened, no network": lambda: bare_api(client),
            "`docker run --rm`, same hardening": docker_run,
            "`POST /v1/executions`, warm service, pool of 2, same code": pooled.hello,
            "the same, new code each time": lambda: pooled.hello(f"print('hello world', {next(counter)})"),
            "the same under gVisor (runsc), pooled": gvisor.hello,
            "`mai-safety run` (no MAI_SAFETY_URL), per-user service warm": warm.run,
            "`mai-safety run --no-service` (in-process, as before #29)": lambda: warm.run("--no-service"),
        }
        timings = rounds(paths, options.rounds, options.gap)
        gvisor.close()
        opened.remove(gvisor)
        idle = LocalCli(work, "idle", pooled_policies(work / "idle", 2), idle_s=2.0)
        opened.append(idle)
        idle.run()
        timings["`mai-safety run`, the first command after the idle exit"] = after_idle_exit(idle, options.idle_rounds)
        before, runs = engine_cpu_s(), 10
        for _ in range(runs):
            bare_api(client)
        floor_cpu_s = (engine_cpu_s() - before) / runs
        loaded = load(pooled, options.clients, options.load_seconds)
        report(timings, loaded, floor_cpu_s, options)
    finally:
        for item in reversed(opened):
            item.close()
        shutil.rmtree(work, ignore_errors=True)


def report(timings: dict[str, list[float]], loaded: dict[str, float], floor_cpu_s: float, options: argparse.Namespace) -> None:
    bare = statistics.median(next(iter(timings.values())))
    docker_run_s = statistics.median(timings["`docker run --rm`, same hardening"])
    print(f"\nhello world, {options.rounds} shuffled rounds (gap {options.gap:g} s); the first command after the idle exit: {options.idle_rounds} rounds")
    print("| path | median | × Docker API bare path | × `docker run --rm` |")
    print("|---|---:|---:|---:|")
    for name, values in timings.items():
        median = statistics.median(values)
        print(f"| {name} | {median * 1000:,.0f} ms | {median / bare:.2f} | {median / docker_run_s:.2f} |")
    cores = psutil.cpu_count() or 1
    print(
        f"| {options.clients} clients back to back, pooled, {options.load_seconds:g} s | {loaded['per_second']:.1f} executions/s, "
        f"p95 {loaded['p95'] * 1000:,.0f} ms ({loaded['failed']} failed) | | |"
    )
    print(
        f"| the engine's floor: CPU of one bare container (dockerd, containerd, shims, runc) | {floor_cpu_s * 1000:,.0f} ms CPU: "
        f"at most {cores / floor_cpu_s:.1f} containers/s on {cores} cores | | |"
    )
    service_ms, clients_ms, daemons_ms, machine_ms = (loaded[f"cpu_{part}"] * 1000 for part in ("service", "clients", "daemons", "machine"))
    rest_ms = machine_ms - service_ms - clients_ms - daemons_ms
    print(
        f"| CPU per execution under that load (the machine {loaded['busy']:.0%} busy) | the service {service_ms:,.0f} ms "
        f"(one process: at most {1000 / service_ms:.1f}/s), the bench's clients {clients_ms:,.0f} ms, dockerd and containerd "
        f"{daemons_ms:,.0f} ms, the shims, runc and the sandboxes' own processes {rest_ms:,.0f} ms: "
        f"at most {cores * 1000 / machine_ms:.1f}/s on {cores} cores with these clients, "
        f"{cores * 1000 / (machine_ms - clients_ms):.1f}/s without them | | |"
    )


if __name__ == "__main__":
    main()
