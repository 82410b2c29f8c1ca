"""Cleaning up after others: finding an execution's containers by label or by the name a pool
container was given, describing them for recovery, and removing what a dead supervisor left
(containers, their networks, gVisor's host processes, and run folders whose container is gone).

A sweep keeps to its own ledger (``of_ledger``): two deployments on one host (a service and a local
CLI, each with its ledger) share the engine, and a container whose run another ledger still holds
open is that ledger's to describe, record and remove. A container without the ledger label (made
before the label existed, or a pool container made while its ledger was still empty) is swept only
when it serves no execution; one that serves an execution is removed by that execution's own
ledger's recovery, which finds it by the execution's id (``remove_execution``), as before.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .containers import (
    LABEL_DEADLINE,
    LABEL_EXECUTION,
    LABEL_LEDGER,
    LABEL_MANAGED,
    LABEL_POOL,
    LABEL_ROLE,
    LABEL_SUPERVISOR,
    TAKEN_PREFIX,
    docker_time,
    labels_of,
    supervisor_gone,
)
from .errors import BestEffort, engine_answers, remove_if_present
from .runtimes import GVISOR_RUNTIME, end_gvisor_orphans, end_gvisor_processes

_TAKEN_NAME = re.compile(r"^/?mai-safety-run-([0-9a-f-]{36})-until-([0-9]+(?:\.[0-9]+)?)$")


def containers_of(client: Any, execution_id: str) -> list[Any]:
    """The containers of one execution: labelled with it, or a pool container renamed for it."""
    found = client.containers.list(
        all=True, filters={"label": [f"{LABEL_MANAGED}=1", f"{LABEL_EXECUTION}={execution_id}"]},
        ignore_removed=True,
    )
    taken = client.containers.list(
        all=True, filters={"label": f"{LABEL_MANAGED}=1", "name": f"{TAKEN_PREFIX}{execution_id}-"},
        ignore_removed=True,
    )
    return found + [container for container in taken if execution_of(container) == execution_id]


def describe_execution(client: Any, execution_id: str) -> dict[str, Any]:
    """The sandbox container of an execution, as recovery reads it: its status, how long it ran,
    and whether its keeper ended it at the deadline. Empty if there is none, or Docker does not answer."""
    found: list[Any] = []
    with BestEffort():
        found = containers_of(client, execution_id)
    for container in found:
        if labels_of(container).get(LABEL_ROLE):
            continue  # the egress proxy, not the sandbox
        state = container.attrs.get("State", {})
        started, finished = docker_time(state.get("StartedAt")), docker_time(state.get("FinishedAt"))
        running = bool(state.get("Running"))
        ended_at = time.time() if running or finished is None else finished
        description: dict[str, Any] = {"container_status": container.status}
        if started is not None:
            description["duration_s"] = round(max(ended_at - started, 0.0), 3)
        if not running:
            deadline = deadline_of(container)
            description["ended_by_deadline"] = bool(deadline and finished and finished >= deadline - 0.5)
        return description
    return {}


def of_ledger(item: Any, ledger: str | None) -> bool:
    """Whether a sweep of ``ledger`` (its identity; None while it is empty) may remove ``item``: it
    carries that ledger's label, or no ledger label and no execution (see above)."""
    labelled = labels_of(item).get(LABEL_LEDGER)
    if labelled is not None:
        return ledger is not None and labelled == ledger
    return not execution_of(item)


def orphaned_executions(client: Any, ledger: str | None = None) -> list[str]:
    """Executions whose supervisor is gone, of ``ledger``'s containers and of unlabelled ones (the
    ledger's recovery looks each up, and leaves those it does not hold)."""
    with engine_answers():
        found = client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"}, ignore_removed=True)
    # A waiting pool container has no execution (no label, not renamed): never taken for a run.
    return sorted(
        {
            execution_of(container)
            for container in found
            if supervisor_gone(labels_of(container).get(LABEL_SUPERVISOR, ""))
            and labels_of(container).get(LABEL_LEDGER, ledger) == ledger
        }
        - {""}
    )


def remove_execution(client: Any, work_root: Path, execution_id: str) -> int:
    removed = _remove(client, {"label": [f"{LABEL_MANAGED}=1", f"{LABEL_EXECUTION}={execution_id}"]}, lambda _: True)
    with engine_answers():
        taken = [container for container in containers_of(client, execution_id) if labels_of(container).get(LABEL_POOL)]
    if taken:
        ids = {container.id for container in taken}
        removed += _remove(
            client, {"label": f"{LABEL_MANAGED}=1", "name": f"{TAKEN_PREFIX}{execution_id}-"}, lambda item: item.id in ids
        )
        for container in taken:
            _remove_folders(work_root, f"{labels_of(container)[LABEL_POOL]}-*")
    _remove_folders(work_root, f"{execution_id}-*")
    return removed


def remove_leftovers(client: Any, work_root: Path, ledger: str | None = None) -> int:
    """What dead supervisors left of ``ledger``'s (of_ledger): another ledger's is left to it."""
    removed = _remove(
        client,
        {"label": f"{LABEL_MANAGED}=1"},
        lambda item: supervisor_gone(labels_of(item).get(LABEL_SUPERVISOR, "")) and of_ledger(item, ledger),
    )
    with engine_answers():
        known = {container.id for container in client.containers.list(all=True, sparse=True, ignore_removed=True)}
    end_gvisor_orphans(known)
    _remove_stale_workdirs(client, work_root)
    return removed


def execution_of(container: Any) -> str:
    """The execution a container serves: its label, or (a pool container taken for a run) its name."""
    labelled = labels_of(container).get(LABEL_EXECUTION, "")
    if labelled:
        return labelled
    match = _TAKEN_NAME.match(_name_of(container))
    return match.group(1) if match else ""


def deadline_of(container: Any) -> float:
    """When the keeper ends the container: its label, or the name of a pool container taken for a run."""
    labelled = labels_of(container).get(LABEL_DEADLINE)
    if labelled:
        return float(labelled)
    match = _TAKEN_NAME.match(_name_of(container))
    return float(match.group(2)) if match else 0.0


def _name_of(container: Any) -> str:
    attrs = getattr(container, "attrs", {}) or {}
    if attrs.get("Name"):
        return str(attrs["Name"])
    names = attrs.get("Names") or []
    return str(names[0]) if names else ""


def _remove_folders(work_root: Path, pattern: str) -> None:
    for folder in work_root.glob(pattern):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)


SHARED_PREFIX = "shared-"


def _remove_stale_workdirs(client: Any, work_root: Path, older_than_s: float = 60.0) -> None:
    """Work folders (the code and the record socket) of runs whose container is gone."""
    with BestEffort() as attempt:
        live = {
            labels_of(container).get(key, "")
            for container in client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"}, ignore_removed=True)
            for key in (LABEL_EXECUTION, LABEL_POOL)  # a pool container's folder is named by its slot
        }
    if attempt.failed:
        return
    now = time.time()
    for folder in work_root.iterdir():
        try:
            status = folder.lstat()
        except OSError:
            continue
        if folder.is_symlink() or not folder.is_dir() or now - status.st_mtime < older_than_s:
            continue
        if folder.name.startswith(SHARED_PREFIX):
            continue  # what the engine mounts into every deps run (egress.host_copy): not a run's
        if folder.name[:36] not in live:
            shutil.rmtree(folder, ignore_errors=True)


def _remove(client: Any, filters: dict[str, Any], condition: Callable[[Any], bool]) -> int:
    """Containers first (the sandbox and its proxy), then the networks they were on."""
    removed = 0
    with engine_answers():
        for container in client.containers.list(all=True, filters=filters, ignore_removed=True):
            if condition(container):
                gvisor = container.attrs.get("HostConfig", {}).get("Runtime") == GVISOR_RUNTIME
                # Not removed: another run removed it first, or removes it now.
                removed += remove_if_present(container, force=True)
                if gvisor:
                    end_gvisor_processes(container.id)
        for network in client.networks.list(filters=filters):
            if condition(network):
                with BestEffort():
                    network.remove()  # still in use by a live run: removed with it
    return removed
