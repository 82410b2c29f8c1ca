"""Helpers for tests that watch the processes the analyzers start (Semgrep's engines, Bandit's own
process) end."""

from __future__ import annotations

import psutil


def ends(pid: int, timeout_s: float = 10.0) -> bool:
    """Whether the process ends within ``timeout_s``: gone, reaped, or a zombie its parent has not
    reaped yet (an engine that answered is killed and reaped beside the caller)."""
    try:
        psutil.Process(pid).wait(timeout_s)
    except psutil.NoSuchProcess:
        pass
    except psutil.TimeoutExpired:
        try:
            return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True
    return True
