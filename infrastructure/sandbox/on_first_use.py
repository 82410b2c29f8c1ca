"""A sandbox built when a command first needs the engine: a one-shot command that only reads the
ledger (``history``, ``executions``, ``report``, ``audit verify``...) never imports Docker's client
or the sandbox's modules; a command that runs code pays for them once, at its first use (issue
#29: no command imports what it does not use; the assessor's twin is analysis/on_first_use.py).

Who supervises is answered without the engine: the label names this process (supervisors.py),
the same label the built sandbox gives its containers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mai_safety.application.ports import Observer, OutputListener, PreparedRun, RunOutcome, Sandbox

from .supervisors import supervisor_gone, supervisor_label

if TYPE_CHECKING:
    from .docker import DockerSandbox


class SandboxOnFirstUse(Sandbox):
    """Stands for the sandbox ``build`` makes, and makes it at the first call that needs the
    engine; the ledger's identity (``use_ledger``) is handed on when it is built. ``close`` of a
    sandbox never built does nothing."""

    def __init__(self, build: Callable[[], DockerSandbox]) -> None:
        self._build = build
        self._built: DockerSandbox | None = None
        self._lock = threading.Lock()
        self._label = supervisor_label()
        self._ledger_identity: Callable[[], str | None] | None = None

    def _sandbox(self) -> DockerSandbox:
        with self._lock:
            if self._built is None:
                built = self._build()
                if self._ledger_identity is not None:
                    built.use_ledger(self._ledger_identity)
                self._built = built
            return self._built

    @property
    def built(self) -> bool:
        return self._built is not None

    def use_ledger(self, identity: Callable[[], str | None]) -> None:
        with self._lock:
            self._ledger_identity = identity
            if self._built is not None:
                self._built.use_ledger(identity)

    # --- answered without the engine ------------------------------------------------------

    @property
    def supervisor_id(self) -> str:
        return self._label

    def is_orphaned(self, supervisor_id: str) -> bool:
        return supervisor_gone(supervisor_id)

    def close(self) -> None:
        with self._lock:
            built, self._built = self._built, None
        if built is not None:
            built.close()

    # --- the engine's: the sandbox is built ----------------------------------------------

    def check_available(self) -> None:
        self._sandbox().check_available()

    def prepare(self, *args: Any, **kwargs: Any) -> PreparedRun:  # the port's arguments, handed on as given
        return self._sandbox().prepare(*args, **kwargs)

    def run(self, prepared: PreparedRun, observer: Observer, output: OutputListener | None = None) -> RunOutcome:
        return self._sandbox().run(prepared, observer, output)

    def discard(self, prepared: PreparedRun) -> None:
        self._sandbox().discard(prepared)

    def describe_images(self) -> dict[str, Any]:
        return self._sandbox().describe_images()

    def pool_status(self) -> dict[str, Any]:
        return self._sandbox().pool_status()

    def orphaned_executions(self) -> list[str]:
        return self._sandbox().orphaned_executions()

    def describe_execution(self, execution_id: str) -> dict[str, Any]:
        return self._sandbox().describe_execution(execution_id)

    def describe_runtimes(self) -> dict[str, Any]:
        return self._sandbox().describe_runtimes()

    def remove_execution(self, execution_id: str) -> int:
        return self._sandbox().remove_execution(execution_id)

    def remove_leftovers(self) -> int:
        return self._sandbox().remove_leftovers()

    def __getattr__(self, name: str) -> Any:
        """What only the Docker sandbox has (its client, its pool...): asked of the built one."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._sandbox(), name)
