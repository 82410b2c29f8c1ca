"""The Docker sandbox: one hardened, labelled, throw-away container per execution, watched live.

The adapter is ``DockerSandbox`` (docker.py), which delegates to the modules beside it; what runs
inside the containers is in ``payload/``. Importers take these names from here.
"""

from __future__ import annotations

from .containers import (
    LABEL_DEADLINE,
    LABEL_EXECUTION,
    LABEL_MANAGED,
    LABEL_POOL,
    LABEL_ROLE,
    LABEL_SUPERVISOR,
    private_work_root,
    supervisor_gone,
    supervisor_label,
)
from .docker import DockerSandbox
from .package_index import PipPackageIndex
from .pool import PoolSpec
from .runtimes import GVISOR_RUNTIME, end_gvisor_orphans, end_gvisor_processes, gvisor_status

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
