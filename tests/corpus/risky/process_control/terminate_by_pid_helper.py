# expect: HIGH category: process_control
# Terminates the processes named on a list, by their pids.
import psutil


def stop(pid):
    psutil.Process(pid).terminate()


for candidate in psutil.pids():
    try:
        if psutil.Process(candidate).name() in ("postgres", "redis-server"):
            stop(candidate)
    except psutil.Error:
        pass
