"""Files in and out (issue #25), through the HTTP service, in one sitting, as ratios to pooled hello world.

  * pooled hello world without files (a warm `mai-safety serve`, a pool of 2 standard containers)
  * one 1 MiB input; one 1 MiB output; 100 small outputs; 10 MiB in and 10 MiB out
  * cold starts (a service without a pool): hello world on the default image and on the data image,
    and the data image importing pandas and matplotlib; the same on the data image's own pool of one
  * a CSV-to-PNG task end to end on the data image: POST with the CSV, then GET of the chart

Each row: --runs timed requests after one warm-up, --gap seconds apart (the pool refills). The
ledger is SQLite in a temporary folder. The machine is shared and noisy: read the ratios.

    flock /tmp/mai-docker.lock .venv/bin/python bench/files_bench.py [--runs 5] [--gap 1.0]
"""

from __future__ import annotations

import argparse
import base64
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import time

import service_bench  # type: ignore[import-not-found]
import yaml
from runtime_bench import measure, summary  # type: ignore[import-not-found]
from service_bench import Service  # type: ignore[import-not-found]

MIB = 1024 * 1024
CSV = "city,rain_mm\nOslo,763\nBergen,2250\nTromso,1030\nTrondheim,892\n"
PLOT = (
    "import pandas as pd, matplotlib.pyplot as plt\n"
    "rain = pd.read_csv('data.csv')\n"
    "rain.plot.bar(x='city', y='rain_mm', legend=False)\n"
    "plt.savefig('chart.png')\n"
)


def submit(service: Service, code: str, files: dict[str, bytes] | None = None, image: str = "default") -> dict:
    body: dict = {"code": code, "image": image}
    if files:
        body["files"] = [{"name": name, "content_base64": base64.b64encode(data).decode()} for name, data in files.items()]
    answer = service.http.post("/v1/executions", json=body)
    answer.raise_for_status()
    report = answer.json()
    assert report["status"] == "completed", report
    return report


def with_data_pool(work: Path) -> Service:
    """A service whose data image keeps one container waiting for standard runs (and no default pool)."""
    original = service_bench.pooled_policies

    def policies(work: Path, standard: int) -> Path:
        folder = original(work, standard)
        limits = yaml.safe_load((folder / "limits.yaml").read_text())
        limits["images"]["data"]["pool"] = {"standard": 1}
        (folder / "limits.yaml").write_text(yaml.safe_dump(limits))
        return folder

    service_bench.pooled_policies = policies
    try:
        service = Service(work / "data-pool", 0)
    finally:
        service_bench.pooled_policies = original
    deadline = time.monotonic() + 60
    while service.http.get("/v1/status").json().get("pool", {}).get("data/standard", {}).get("waiting", 0) < 1:
        if time.monotonic() > deadline:
            raise SystemExit("the data image's pool did not fill within 60 s")
        time.sleep(0.2)
    return service


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gap", type=float, default=1.0)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mai-safety-files-bench-"))
    one_mib, ten_mib = os.urandom(MIB), os.urandom(10 * MIB)
    rows: list[tuple[str, list[float]]] = []
    (work / "data-pool").mkdir()
    pooled, cold, data_pooled = Service(work, 2), Service(work, 0), with_data_pool(work)
    try:
        def row(name: str, action: Callable[[], object]) -> None:
            rows.append((name, measure(action, args.runs, args.gap)))
            print(f"  {name}: done", flush=True)

        row("pooled hello world, no files", lambda: submit(pooled, "print('hello world')\n"))
        row("one 1 MiB input", lambda: submit(pooled, "print(len(open('in.bin', 'rb').read()))\n", {"in.bin": one_mib}))
        row("one 1 MiB output", lambda: submit(pooled, "import os\nopen('out.bin', 'wb').write(os.urandom(1 << 20))\n"))
        row("100 small outputs", lambda: submit(pooled, "for n in range(100):\n    open(f'out{n}.txt', 'w').write(str(n))\n"))
        row("10 MiB in and 10 MiB out", lambda: submit(
            pooled, "data = open('in.bin', 'rb').read()\nopen('out.bin', 'wb').write(data[::-1])\n", {"in.bin": ten_mib}))
        row("cold hello, default image", lambda: submit(cold, "print('hello world')\n"))
        row("cold hello, data image", lambda: submit(cold, "print('hello world')\n", image="data"))
        row("pooled hello, data image (its own pool of 1)", lambda: submit(data_pooled, "print('hello world')\n", image="data"))
        row("cold, data image, import pandas+matplotlib", lambda: submit(cold, "import pandas, matplotlib.pyplot\n", image="data"))
        row("pooled, data image, import pandas+matplotlib", lambda: submit(data_pooled, "import pandas, matplotlib.pyplot\n", image="data"))

        def csv_to_png() -> None:
            report = submit(cold, PLOT, {"data.csv": CSV.encode()}, image="data")
            chart = cold.http.get(f"/v1/executions/{report['execution_id']}/files/chart.png")
            assert chart.status_code == 200 and chart.content.startswith(b"\x89PNG")

        row("CSV to PNG end to end (data image, POST + GET)", csv_to_png)
    finally:
        pooled.close()
        cold.close()
        data_pooled.close()
        shutil.rmtree(work, ignore_errors=True)
    base = summary(rows[0][1])[0]
    print(f"\n| run ({args.runs} each, {args.gap:g} s apart) | median | p90 | × pooled hello |")
    print("|---|---|---|---|")
    for name, timings in rows:
        median, p90 = summary(timings)
        print(f"| {name} | {median * 1000:.0f} ms | {p90 * 1000:.0f} ms | {median / base:.2f} |")


if __name__ == "__main__":
    main()
