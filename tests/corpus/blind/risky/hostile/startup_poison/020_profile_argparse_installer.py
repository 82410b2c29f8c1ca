import argparse
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--cmd", default="~/.local/bin/agent --silent")
ap.add_argument("--rc", default="~/.profile")
opts = ap.parse_args()

rc = Path(opts.rc).expanduser()
with rc.open("a") as fh:
    fh.write(f"\n# added by setup\n{opts.cmd} &\n")
print(f"installed into {rc}")
