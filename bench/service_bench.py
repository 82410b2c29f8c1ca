"""Hello world through the HTTP service, beside the fastest hardened bare path, in one sitting.

  * the bare path: the Docker API's create, start, wait, remove of the sandbox image with our
    hardening and networking disabled (runtime_bench.py's row of the same name)
  * `POST /v1/executions` of hello world to a warm `mai-safety serve` (a real uvicorn on loopback,
    a real httpx client, a submitter's token), with a warm pool of 2 and with no pool; each request
    answers with the finished execution (assessed, recorded, run, recorded). The same code each
    time (after the first, its verdict is the one kept by its hash), and new code each time
    (`print('hello world', N)`: assessed afresh)
  * 8 clients at once for --load-seconds against the pooled service: executions per second and the
    p95 of a request; the service's memory (its process and its children) at idle and under load;
    the read models' lag behind the ledger (events, from /v1/status once a second) under that load

Between two timed requests the bench waits --gap seconds (time for the pool to refill, as requests a
second apart would leave it). The ledger is SQLite in a temporary folder; the bench keeps its key
and witness in a temporary home. The machine is noisy: read the ratios.

    .venv/bin/python bench/service_bench.py [--runs 15] [--gap 1.0] [--load-seconds 60]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import docker
import httpx
import psutil

from mai_safety.infrastructure.settings import DEFAULT_IMAGE

from run_bench import HELLO  # type: ignore[import-not-found]
from runtime_bench import measure, pooled_policies, summary  # type: ignore[import-not-found]

CLI = str(Path(sys.executable).with_name("mai-safety"))
HARDENING = dict(
    user="1000:1000", cap_drop=["ALL"], security_opt=["no-new-privileges:true"], read_only=True,
    tmpfs={"/tmp": "rw,nosuid,nodev,noexec,size=134217728,mode=1777"},
    mem_limit="256m", memswap_limit="256m", pids_limit=64, nano_cpus=10**9, ipc_mode="none",
    log_config={"type": "none"},
)


def bare_api(client: docker.DockerClient) -> None:
    container = client.containers.create(
        DEFAULT_IMAGE, ["python3", "-I", "-c", HELLO.decode()], network_disabled=True, detach=True, **HARDENING
    )
    try:
        container.start()
        assert container.wait()["StatusCode"] == 0
    finally:
        container.remove(force=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Service:
    """One `mai-safety serve` with its own ledger, home and policies (pool size per profile)."""

    def __init__(self, work: Path, pool: int) -> None:
        home = work / f"home-{pool}"
        policies = pooled_policies(work, pool)
        self.env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
        self.env.update(
            MAI_SAFETY_DATABASE_URL=f"sqlite:///{work / f'ledger-{pool}.sqlite'}", MAI_SAFETY_POLICIES=str(policies),
            XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"), XDG_DATA_HOME=str(home / "data"),
        )
        created = subprocess.run([CLI, "tokens", "create", "bench", "--role", "submitter"], env=self.env,
                                 capture_output=True, text=True, check=True)
        self.token = created.stdout.split()[0]
        self.url = f"http://127.0.0.1:{free_port()}"
        self.process = subprocess.Popen([CLI, "serve", "--port", self.url.rsplit(":", 1)[1]], env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.http = httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.token}"}, timeout=120)
        try:
            self._wait_until_ready(pool)
        except BaseException:
            self.close()  # a service that never became ready is stopped, not left holding its pool
            raise

    def _wait_until_ready(self, pool: int) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.http.get("/v1/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("the service did not answer within 60 s")
            time.sleep(0.2)
        if pool:
            while self.http.get("/v1/status").json().get("pool", {}).get("standard", {}).get("waiting", 0) < pool:
                if time.monotonic() > deadline:
                    raise SystemExit("the pool did not fill within 60 s")
                time.sleep(0.2)

    def hello(self, code: str = HELLO.decode()) -> dict:
        answer = self.http.post("/v1/executions", json={"code": code})
        answer.raise_for_status()
        body = answer.json()
        assert body["status"] == "completed", body
        return body

    def pooled(self, execution_id: str) -> bool:
        """Whether the run took a pool container, as its Started event records."""
        events = self.http.get(f"/v1/executions/{execution_id}/events").json()
        events = events.get("events", events) if isinstance(events, dict) else events
        started = next(event for event in events if event["event"] == "Started")
        return bool(started["sizing"]["host"].get("pooled"))

    def memory_bytes(self) -> int:
        process = psutil.Process(self.process.pid)
        total = 0
        for member in [process, *process.children(recursive=True)]:
            try:
                total += member.memory_info().rss
            except psutil.NoSuchProcess:
                continue  # a child that ended between the listing and the reading
        return total

    def cpu_s(self) -> float:
        """CPU time of the service's process and its children, those alive and those it reaped."""
        process = psutil.Process(self.process.pid)
        times = process.cpu_times()
        total = times.user + times.system + times.children_user + times.children_system
        for member in process.children(recursive=True):
            try:
                child = member.cpu_times()
                total += child.user + child.system
            except psutil.NoSuchProcess:
                continue
        return total

    def close(self) -> None:
        self.http.close()
        self.process.terminate()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()


def cpu_split(service: Service) -> dict[str, float]:
    """CPU seconds so far: the whole machine's busy time, the service's, this process's (the clients)."""
    machine = psutil.cpu_times()
    busy = sum(machine) - machine.idle - getattr(machine, "iowait", 0.0)
    own = psutil.Process().cpu_times()
    daemons = 0.0
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in ("dockerd", "containerd"):
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                daemons += times.user + times.system
    return {"machine": busy, "service": service.cpu_s(), "clients": own.user + own.system, "daemons": daemons}


def load(service: Service, clients: int, seconds: float) -> dict[str, float]:
    """``clients`` threads, each with its own connection, posting hello world back to back."""
    latencies: list[float] = []
    failures = [0]
    peak = [service.memory_bytes()]
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def one_client() -> None:
        with httpx.Client(base_url=service.url, headers={"Authorization": f"Bearer {service.token}"}, timeout=120) as http:
            while time.monotonic() < stop:
                started = time.perf_counter()
                answer = http.post("/v1/executions", json={"code": HELLO.decode()})
                elapsed = time.perf_counter() - started
                with lock:
                    if answer.status_code == 200 and answer.json().get("status") == "completed":
                        latencies.append(elapsed)
                    else:
                        failures[0] += 1

    threads = [threading.Thread(target=one_client) for _ in range(clients)]
    cpu_before = cpu_split(service)
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    lags: list[int] = []
    while any(thread.is_alive() for thread in threads):
        peak[0] = max(peak[0], service.memory_bytes())
        lags.append(int(service.http.get("/v1/status").json()["projections"]["lag"]))
        time.sleep(1.0)
    wall = time.perf_counter() - began
    cpu = {part: (after - before) for (part, after), before in zip(cpu_split(service).items(), cpu_before.values())}
    ordered = sorted(latencies)
    return {
        # CPU seconds per completed execution over the load: the service (with Semgrep's engine),
        # the bench's own clients, and the rest of the machine (the engine, the shims, the sandboxes).
        **{f"cpu_{part}": seconds / max(len(latencies), 1) for part, seconds in cpu.items()},
        "busy": cpu["machine"] / (wall * (psutil.cpu_count() or 1)),
        "completed": len(latencies), "failed": failures[0], "per_second": len(latencies) / wall,
        "p50": statistics.median(ordered) if ordered else 0.0, "p95": ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0,
        "peak_memory": peak[0],
        "lag_p50": statistics.median(lags) if lags else 0, "lag_max": max(lags, default=0),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--gap", type=float, default=1.0)
    parser.add_argument("--load-seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mai-safety-service-bench-"))
    client = docker.from_env()
    rows: dict[str, tuple[float, float]] = {}
    try:
        rows["Docker API create/start/wait/remove, no network"] = summary(measure(lambda: bare_api(client), args.runs, args.gap))
        idle: dict[int, int] = {}
        loaded: dict[str, float] | None = None
        shares: dict[int, str] = {}
        for pool in (0, 2):
            service = Service(work, pool)
            try:
                executions: list[str] = []

                def hello() -> None:
                    executions.append(service.hello()["execution_id"])

                rows[f"POST /v1/executions, pool {pool}"] = summary(measure(hello, args.runs, args.gap))
                fresh = iter(range(10**6))

                def hello_new_code() -> None:
                    # Code the service has not assessed yet: no verdict kept by its hash to reuse.
                    executions.append(service.hello(f"print('hello world', {next(fresh)})\n")["execution_id"])

                rows[f"POST /v1/executions, pool {pool}, new code"] = summary(measure(hello_new_code, args.runs, args.gap))
                idle[pool] = service.memory_bytes()
                shares[pool] = f"{sum(service.pooled(execution) for execution in executions[1:])}/{len(executions) - 1}"
                if pool and args.load_seconds > 0:
                    loaded = load(service, args.clients, args.load_seconds)
            finally:
                service.close()
    finally:
        client.close()
        shutil.rmtree(work, ignore_errors=True)
    bare = rows["Docker API create/start/wait/remove, no network"][0]
    print(f"hello world, {args.runs} timed runs each after one warm-up, {args.gap:g} s apart; median (p90) in ms, and the median over the bare path's")
    for name, (median, p90) in rows.items():
        print(f"{name:<52}{median * 1000:>8.0f} ({p90 * 1000:>5.0f}) {median / bare:5.2f}x")
    for pool, size in idle.items():
        print(f"pool {pool}: runs that took a pooled container {shares[pool]}; service memory at idle "
              f"{size / 2**20:.0f} MiB (the process and its children, Semgrep's waiting engine among them)")
    if loaded is not None:
        print(
            f"{args.clients} clients for {args.load_seconds:g} s, pool 2: {loaded['completed']} completed, {loaded['failed']} not, "
            f"{loaded['per_second']:.2f} executions/s, p50 {loaded['p50'] * 1000:.0f} ms, p95 {loaded['p95'] * 1000:.0f} ms; "
            f"service memory at most {loaded['peak_memory'] / 2**20:.0f} MiB; read models behind the ledger by "
            f"{loaded['lag_p50']:.0f} events (median) and at most {loaded['lag_max']} (sampled once a second)"
        )


if __name__ == "__main__":
    main()
