import json
import subprocess

raw = subprocess.run(["docker", "compose", "ps", "--format", "json"], capture_output=True, text=True).stdout
services = [json.loads(l) for l in raw.splitlines() if l.strip()]
for s in services:
    print(f"{s.get('Service'):<20} {s.get('State'):<10} {s.get('Status')}")
