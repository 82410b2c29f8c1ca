"""`mai-safety run` on hello world from process start to exit, in one sitting: the CLI as a client
of a warm service (MAI_SAFETY_URL set; analyzers warm and two started containers waiting, the
pool of policies/limits.yaml as shipped) and of a service without a pool, the same client against a stand-in that answers at once
with the warm service's own answer (the client process's own cost: interpreter, imports, token,
connection, printing), the local CLI (everything in-process, cold), and `docker run --rm` of the
sandbox image with our hardening flags (the bare cold start). Each is a fresh process per run, as
a user meets it. The machine is noisy: read the differences.

    .venv/bin/python bench/client_bench.py [--runs 10] [--gap 0.5]
"""

from __future__ import annotations

import argparse
import http.server
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path



from run_bench import HELLO  # type: ignore[import-not-found]
from runtime_bench import measure, pooled_policies  # type: ignore[import-not-found]  # runs gap_s apart, the pause untimed

CLI = str(Path(sys.executable).with_name("mai-safety"))
IMAGE = os.environ.get("MAI_SAFETY_IMAGE", "mai-safety/sandbox:1")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")


def answering_at_once(answer: bytes) -> http.server.ThreadingHTTPServer:
    """A loopback stand-in for the service that answers every POST with ``answer`` at once."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between two runs, outside the timing")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mai-safety-client-bench-"))
    (work / "hello.py").write_bytes(HELLO)
    (work / "hello.py").chmod(0o444)
    work.chmod(0o755)
    base = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    # In-process, as before the per-user service (issue #29; bench/local_bench.py measures it).
    local = {**base, "MAI_SAFETY_DATABASE_URL": f"sqlite:///{work / 'local.sqlite'}", "MAI_SAFETY_LOCAL_SERVICE": "0"}
    served = {**base, "MAI_SAFETY_DATABASE_URL": f"sqlite:///{work / 'service.sqlite'}"}
    token = subprocess.run([CLI, "tokens", "create", "bench", "--role", "submitter"], env=served, capture_output=True,
                           text=True, check=True).stdout.splitlines()[0]
    # The warm service keeps two started containers for standard runs (policies/limits.yaml's pool,
    # as shipped); the service is measured without them too, on one ledger.
    servers, clients = [], {}
    try:
        for pool in (2, 0):
            environment = {**served, "MAI_SAFETY_POLICIES": str(pooled_policies(work, pool))}
            port = free_port()
            servers.append(subprocess.Popen([CLI, "serve", "--port", str(port)], env=environment,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            clients[pool] = {**base, "MAI_SAFETY_URL": f"http://127.0.0.1:{port}", "MAI_SAFETY_TOKEN": token}
            deadline = time.monotonic() + 60
            while subprocess.run([CLI, "status"], env=clients[pool], capture_output=True).returncode != 0:
                if time.monotonic() > deadline or servers[-1].poll() is not None:
                    raise SystemExit("the service did not answer within 60 s")
                time.sleep(0.2)
        time.sleep(3)  # the pool fills
        client = clients[2]
        docker = [
            "docker", "run", "--rm", "--user", "1000:1000", "--cap-drop", "ALL", "--security-opt", "no-new-privileges:true",
            "--read-only", "--network", "none", "--memory", "512m", "--pids-limit", "512", "--cpus", "1",
            "-v", f"{work}:/sandbox:ro", IMAGE, "python3", "-I", "/sandbox/hello.py",
        ]
        hello = str(work / "hello.py")
        answer = subprocess.run([CLI, "run", hello, "--json"], env=client, capture_output=True, check=True).stdout
        stand_in = answering_at_once(answer.strip())
        at_once = {**client, "MAI_SAFETY_URL": f"http://127.0.0.1:{stand_in.server_address[1]}"}
        results = {
            "docker run --rm (same image, hardened)": measure(lambda: run(docker, base), args.runs, args.gap),
            "mai-safety run, client of a warm service (pool 2)": measure(lambda: run([CLI, "run", hello], client), args.runs, args.gap),
            "mai-safety run, client of a service without a pool": measure(lambda: run([CLI, "run", hello], clients[0]), args.runs, args.gap),
            "  the client's own part (a service answering at once)": measure(lambda: run([CLI, "run", hello], at_once), args.runs, args.gap),
            "mai-safety run, local (no service)": measure(lambda: run([CLI, "run", hello], local), args.runs, args.gap),
        }
        stand_in.shutdown()
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=60)
    for name, timings in results.items():
        median = statistics.median(timings)
        p90 = sorted(timings)[int(0.9 * (len(timings) - 1))]
        print(f"{name:<56} median {median * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms   ({len(timings)} runs)")


if __name__ == "__main__":
    main()
