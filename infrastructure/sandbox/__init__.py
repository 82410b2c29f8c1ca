"""The Docker sandbox: one hardened, labelled, throw-away container per execution, watched live.

The adapter is ``DockerSandbox`` (docker.py); what runs inside the containers is in ``payload/``.
Importers take these names from here, not from the modules that hold them.
"""

from __future__ import annotations

from .docker import (
    GVISOR_RUNTIME,
    LABEL_DEADLINE,
    LABEL_EXECUTION,
    LABEL_MANAGED,
    LABEL_POOL,
    LABEL_ROLE,
    LABEL_SUPERVISOR,
    DockerSandbox,
    PoolSpec,
    end_gvisor_orphans,
    end_gvisor_processes,
    gvisor_status,
    private_work_root,
    supervisor_gone,
    supervisor_label,
)
from .package_index import PipPackageIndex

__all__ = [
    "GVISOR_RUNTIME",
    "LABEL_DEADLINE",
    "LABEL_EXECUTION",
    "LABEL_MANAGED",
    "LABEL_POOL",
    "LABEL_ROLE",
    "LABEL_SUPERVISOR",
    "DockerSandbox",
    "PipPackageIndex",
    "PoolSpec",
    "end_gvisor_orphans",
    "end_gvisor_processes",
    "gvisor_status",
    "private_work_root",
    "supervisor_gone",
    "supervisor_label",
]
