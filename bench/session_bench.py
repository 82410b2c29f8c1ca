"""Sessions (issue #27) through the HTTP service, in one sitting.

  * a warm cell: ``x + 1`` in a session whose interpreter is up (after ``x = 1``), --cells times
    through ``POST /v1/sessions/{id}/executions`` to a warm `mai-safety serve`: the median and p95
    of a request (goal: median at most 20 ms). Each cell is assessed alone (the same text: its
    verdict is kept by its hash) and as the end of the program of the earlier statements it
    reaches (``x = 1``), assessed afresh each time;
  * memory over 400 cells, each new code (a list made, used and deleted): the service's process,
    its children (Semgrep's waiting engine) and the session container's (its cgroup's usage as the
    engine reports it), after the 10th cell and every 100th: both must stay flat (each cell is
    judged with the earlier statements it reaches, decision 0049, not the whole session);
  * 8 sessions at once (two principals, four each: the bound per principal), a cell in each at the
    same moment: how many answered, and the median and slowest of those requests.

The ledger is SQLite in a temporary folder; the bench keeps its key and witness in a temporary home.

    .venv/bin/python bench/session_bench.py [--cells 50] [--long 200]
"""

from __future__ import annotations

import argparse
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

CLI = str(Path(sys.executable).with_name("mai-safety"))
GOAL_MEDIAN_MS = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Service:
    """One `mai-safety serve` with its own ledger and home, and a submitter token per principal."""

    def __init__(self, work: Path, principals: tuple[str, ...]) -> None:
        self.env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
        self.env.update(
            MAI_SAFETY_DATABASE_URL=f"sqlite:///{work / 'ledger.sqlite'}",
            XDG_CONFIG_HOME=str(work / "config"), XDG_STATE_HOME=str(work / "state"), XDG_DATA_HOME=str(work / "data"),
        )
        self.tokens = {}
        for name in principals:
            created = subprocess.run([CLI, "tokens", "create", name, "--role", "submitter"], env=self.env,
                                     capture_output=True, text=True, check=True)
            self.tokens[name] = created.stdout.split()[0]
        self.url = f"http://127.0.0.1:{free_port()}"
        self.process = subprocess.Popen([CLI, "serve", "--port", self.url.rsplit(":", 1)[1]], env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("the service did not answer within 60 s")
            time.sleep(0.2)

    def http(self, principal: str) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.tokens[principal]}"}, timeout=120)

    def memory_bytes(self) -> tuple[int, int]:
        """The service's own process, and its children (Semgrep's engine waiting for the next scan,
        started afresh after each: how far it got loading its rules when read varies by tens of MiB)."""
        process = psutil.Process(self.process.pid)
        children = 0
        for member in process.children(recursive=True):
            try:
                children += member.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return process.memory_info().rss, children

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()


def cell(http: httpx.Client, session_id: str, code: str) -> tuple[float, dict]:
    started = time.perf_counter()
    answer = http.post(f"/v1/sessions/{session_id}/executions", json={"code": code})
    elapsed = time.perf_counter() - started
    if answer.status_code != 200:
        raise SystemExit(f"a cell was answered {answer.status_code}: {answer.text[:300]}")
    body = answer.json()
    assert body["status"] == "completed", body
    return elapsed, body


def container_memory(session_id: str) -> int:
    client = docker.from_env()
    try:
        (container,) = client.containers.list(filters={"label": f"mai-safety.session={session_id}"})
        return int(container.stats(stream=False)["memory_stats"].get("usage", 0))
    finally:
        client.close()


def warm_and_long(service: Service, cells: int, long: int) -> None:
    with service.http("bench") as http:
        session_id = http.post("/v1/sessions").json()["session_id"]
        try:
            cell(http, session_id, "x = 1")
            cell(http, session_id, "x + 1")  # warm: the interpreter and the alone verdict of "x + 1"
            times = [cell(http, session_id, "x + 1")[0] * 1000 for _ in range(cells)]
            median = statistics.median(times)
            p95 = sorted(times)[int(len(times) * 0.95) - 1]
            print(f"warm cell `x + 1` over HTTP, {cells} cells: median {median:.1f} ms, p95 {p95:.1f} ms "
                  f"(goal: median <= {GOAL_MEDIAN_MS:g} ms: {'met' if median <= GOAL_MEDIAN_MS else 'NOT met'})")
            done = cells + 3
            readings = {}
            marks = sorted({10, *range(100, long + 1, 100), long} - set(range(done)))
            for number in range(done, long + 1):
                # New code each cell, whose list is gone at its end: what grows is then the service's
                # and the interpreter's own (a session that keeps its data grows by it, as it should).
                cell(http, session_id, f"y{number} = [0] * 1000\nx + 1\ndel y{number}")
                if number in marks:
                    readings[number] = (*service.memory_bytes(), container_memory(session_id))
            print(f"memory over {long} cells (new code each cell), after cell " + ", ".join(map(str, readings)) + ":")
            print("  service process: " + " -> ".join(f"{own / 2**20:.0f}" for own, _, _ in readings.values()) + " MiB"
                  " (its caches are bounded: verdicts by hash, 1,024; aggregates read, 64)")
            print("  its children (Semgrep's waiting engine): " + " -> ".join(f"{kids / 2**20:.0f}" for _, kids, _ in readings.values()) + " MiB")
            print("  the session's container: " + " -> ".join(f"{box / 2**20:.1f}" for _, _, box in readings.values()) + " MiB")
            slow = [cell(http, session_id, "x + 1")[0] * 1000 for _ in range(10)]
            print(f"the same cell after {long} cells: median {statistics.median(slow):.1f} ms (judged with what it reaches)")
        finally:
            http.delete(f"/v1/sessions/{session_id}")


def at_once(service: Service) -> None:
    """Eight sessions (four per principal), one cell in each at the same moment."""
    opened: list[tuple[str, str]] = []
    for principal in ("bench", "bench2"):
        with service.http(principal) as http:
            for _ in range(4):
                answer = http.post("/v1/sessions")
                answer.raise_for_status()
                opened.append((principal, answer.json()["session_id"]))
    results: list[float] = []
    failures: list[str] = []
    barrier = threading.Barrier(len(opened))

    def one(principal: str, session_id: str) -> None:
        with service.http(principal) as http:
            barrier.wait()
            try:
                results.append(cell(http, session_id, "sum(range(10**5))")[0] * 1000)
            except Exception as exc:  # noqa: BLE001 - counted and shown
                failures.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=one, args=pair) for pair in opened]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"8 sessions at once: {len(results)} of 8 answered; median {statistics.median(results):.0f} ms, "
          f"slowest {max(results):.0f} ms; service process {service.memory_bytes()[0] / 2**20:.0f} MiB"
          + (f"; failures: {failures[:2]}" if failures else ""))
    for principal, session_id in opened:
        with service.http(principal) as http:
            http.delete(f"/v1/sessions/{session_id}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=int, default=50)
    parser.add_argument("--long", type=int, default=400)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="session-bench-"))
    service = Service(work, ("bench", "bench2"))
    try:
        warm_and_long(service, args.cells, args.long)
        at_once(service)
    finally:
        service.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
