"""The Docker sandbox: one hardened, labelled, throw-away container per execution, watched live.

The adapter is ``DockerSandbox`` (docker.py), which delegates to the modules beside it; what runs
inside the containers is in ``payload/``; ``SandboxOnFirstUse`` (on_first_use.py) stands for it in a
one-shot command until a run needs the engine. Importers take these names from here; each is
loaded on first use, so importing the package loads none of its modules (a command that only reads
the ledger never imports Docker's client: issue #29).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .containers import (
        LABEL_DEADLINE as LABEL_DEADLINE,
        LABEL_EXECUTION as LABEL_EXECUTION,
        LABEL_MANAGED as LABEL_MANAGED,
        LABEL_POOL as LABEL_POOL,
        LABEL_ROLE as LABEL_ROLE,
        LABEL_SUPERVISOR as LABEL_SUPERVISOR,
        private_work_root as private_work_root,
    )
    from .docker import DockerSandbox as DockerSandbox
    from .on_first_use import SandboxOnFirstUse as SandboxOnFirstUse
    from .package_index import PipPackageIndex as PipPackageIndex
    from .pool import PoolSpec as PoolSpec
    from .runtimes import (
        GVISOR_RUNTIME as GVISOR_RUNTIME,
        end_gvisor_orphans as end_gvisor_orphans,
        end_gvisor_processes as end_gvisor_processes,
        gvisor_status as gvisor_status,
    )
    from .supervisors import supervisor_gone as supervisor_gone, supervisor_label as supervisor_label

_EXPORTED_FROM = {
    **dict.fromkeys(
        ("LABEL_DEADLINE", "LABEL_EXECUTION", "LABEL_MANAGED", "LABEL_POOL", "LABEL_ROLE", "LABEL_SUPERVISOR", "private_work_root"),
        ".containers",
    ),
    "DockerSandbox": ".docker",
    "SandboxOnFirstUse": ".on_first_use",
    "PipPackageIndex": ".package_index",
    "PoolSpec": ".pool",
    **dict.fromkeys(("GVISOR_RUNTIME", "end_gvisor_orphans", "end_gvisor_processes", "gvisor_status"), ".runtimes"),
    **dict.fromkeys(("supervisor_gone", "supervisor_label"), ".supervisors"),
}

__all__ = sorted(_EXPORTED_FROM)


def __getattr__(name: str) -> Any:
    module = _EXPORTED_FROM.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module, __name__), name)
