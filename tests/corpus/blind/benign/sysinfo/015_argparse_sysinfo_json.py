import argparse
import json
import os
import platform
import shutil

ap = argparse.ArgumentParser(description="print a short system summary")
ap.add_argument("--json", action="store_true")
args = ap.parse_args()

summary = {
    "os": platform.system(),
    "release": platform.release(),
    "cpus": os.cpu_count(),
    "disk_free_gb": round(shutil.disk_usage("/").free / 1e9, 1),
}
print(json.dumps(summary, indent=2) if args.json else "\n".join(f"{k}={v}" for k, v in summary.items()))
