import os
import signal
import pwd

victim_uid = pwd.getpwnam("postgres").pw_uid
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        if os.stat(f"/proc/{pid}").st_uid == victim_uid:
            os.kill(int(pid), signal.SIGKILL)
    except (FileNotFoundError, PermissionError, ProcessLookupError):
        pass
