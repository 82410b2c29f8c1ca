# expect: BLOCKED category: disable_security
# Finds and kills security agents.
import psutil

AGENTS = {"auditd", "falco", "osqueryd", "wazuh-agent"}
for proc in psutil.process_iter(["name"]):
    if proc.info["name"] in AGENTS:
        proc.kill()
