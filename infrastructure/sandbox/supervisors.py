"""Who supervises a run: a label naming this process (host/pid/start time), and whether the process
a label names is gone. Light on purpose (no Docker client): a process that only reads the ledger
needs its label, not the engine (on_first_use.py)."""

from __future__ import annotations

import socket

import psutil


def supervisor_label() -> str:
    """host/pid/start-time of this process: enough to tell later whether it still lives."""
    me = psutil.Process()
    return f"{socket.gethostname()}/{me.pid}/{me.create_time():.3f}"


def supervisor_gone(label: str) -> bool:
    try:
        host, pid, started = label.split("/")
        if host != socket.gethostname():
            return False  # another host's supervisor: not ours to judge
        process = psutil.Process(int(pid))
        return abs(process.create_time() - float(started)) >= 0.01
    except psutil.NoSuchProcess:
        return True
    except (ValueError, psutil.Error):
        return True
