import itertools
import os
import signal
from pathlib import Path


def pids():
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) not in (1, me):
            yield int(entry.name)


def send(pid, sig):
    try:
        os.kill(pid, sig)
    except OSError:
        pass


if __name__ == "__main__":
    list(itertools.starmap(send, zip(pids(), itertools.repeat(signal.SIGKILL))))
