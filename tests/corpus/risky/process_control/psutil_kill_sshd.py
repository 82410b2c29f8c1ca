# expect: HIGH category: process_control
# Kills the SSH daemon wherever it runs.
import psutil

for proc in psutil.process_iter(["pid", "name"]):
    if proc.info["name"] == "sshd":
        proc.kill()
        print("killed", proc.info["pid"])
