"""Many runs at once: does every one end recorded, and does none mistake a race for an outage?

Starts N `mai-safety run` processes at the same moment (hello world, each a fresh process, as Mai
would), on the embedded SQLite ledger and on a Postgres started here, and prints for each: how
many completed, how many waited for room before starting (the host admits
`host.max_concurrent` at once, 4 per CPU by default), how many were refused for want of room
(exit 75), how many said a service does not answer (exit 5: there must be none while Docker is
healthy), anything else, and the wall time. Then `audit verify` on the ledger they shared.

    .venv/bin/python bench/concurrency_bench.py [--counts 16,32] [--stores sqlite,postgres]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from bench_postgres import conninfo, postgres_server

CLI = [sys.executable, "-X", "faulthandler", "-m", "mai_safety.infrastructure.cli"]


def measure(count: int, database_url: str, program: Path) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_DATABASE_URL"] = database_url

    def one(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(CLI + ["run", str(program), "--json"], env=env, capture_output=True, text=True, timeout=600)

    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=count) as pool:
        results = list(pool.map(one, range(count)))
    wall = time.monotonic() - began
    codes = collections.Counter(result.returncode for result in results)
    waited = 0
    for result in results:
        if result.returncode == 0:
            execution_id = json.loads(result.stdout)["execution_id"]
            history = subprocess.run(CLI + ["history", execution_id, "--json"], env=env, capture_output=True, text=True)
            started = json.loads(history.stdout)[1]
            waited += (started.get("sizing", {}).get("host", {}).get("waited_s") or 0) > 0.2
    verification = subprocess.run(CLI + ["audit", "verify"], env=env, capture_output=True, text=True)
    verified = verification.returncode
    others = {code: n for code, n in codes.items() if code not in (0, 5, 75)}
    crashes = [f"exit {result.returncode}: " + result.stderr[-3000:] for result in results if result.returncode not in (0, 75)]
    if verified != 0:
        crashes.append("audit verify: " + verification.stdout[-3000:] + verification.stderr[-500:])
    return {
        "completed": codes[0], "waited for room": waited, "refused (75)": codes[75], "unavailable (5)": codes[5],
        "other": others, "wall_s": round(wall, 1), "verify": "intact" if verified == 0 else f"exit {verified}",
        "crashes": crashes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", default="16,32")
    parser.add_argument("--stores", default="sqlite,postgres")
    args = parser.parse_args()
    counts = [int(count) for count in args.counts.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="mai-bench-"))
    program = folder / "hello.py"
    program.write_text('print("hello, world")\n')
    rows = []
    if "sqlite" in args.stores:
        for count in counts:
            rows.append(("sqlite", count, measure(count, f"sqlite:///{folder / f'{uuid.uuid4().hex}.sqlite'}", program)))
    if "postgres" in args.stores:
        with postgres_server("port") as server:
            for count in counts:
                name = f"bench_{uuid.uuid4().hex[:10]}"
                with psycopg.connect(conninfo(server, "bench"), autocommit=True) as connection:
                    connection.execute(f'CREATE DATABASE "{name}"')
                url = f"postgresql://{server['user']}:{server['password']}@{server['host']}:{server['port']}/{name}"
                rows.append(("postgres", count, measure(count, url, program)))
    print(f"{'store':9} {'at once':>7} {'completed':>9} {'waited':>7} {'refused':>8} {'exit 5':>7} {'other':>6} {'wall s':>7}  ledger")
    for store, count, row in rows:
        other = sum(row["other"].values())
        print(
            f"{store:9} {count:7} {row['completed']:9} {row['waited for room']:7} {row['refused (75)']:8} "
            f"{row['unavailable (5)']:7} {other:6} {row['wall_s']:7}  {row['verify']}"
        )
        for crash in row["crashes"]:
            print("   ", crash.replace("\n", "\n    "))


if __name__ == "__main__":
    main()
