# expect: HIGH category: process_control
# Freezes the Docker daemon.
import psutil

targets = [p for p in psutil.process_iter(["name"]) if p.info["name"] in ("dockerd", "containerd")]
for process in targets:
    process.suspend()
