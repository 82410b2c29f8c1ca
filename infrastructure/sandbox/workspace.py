"""A run's working directory: the input files placed for the code, the output files collected from it.

Inputs are written into the run's host folder under ``files/`` (read-only to the container, at
``/sandbox/files``); the runner copies them into the working directory (``/workspace``, a bounded
tmpfs) as the code's uid before the code starts, so the code may read, change or remove them.

Outputs cross the trust boundary the other way and follow decision 0012: nothing is opened by a
host path. ``collect_outputs`` walks ``/workspace`` from the container's root descriptor
(files.py's ``ContainerRoot``) with ``openat``, ``O_NOFOLLOW | O_NONBLOCK``: a regular file on that
mount is read (``fstat`` of the opened descriptor decides, never the name), up to the bounds; a link
is listed with its text and never followed; a FIFO, socket or device is listed by kind and never
opened for reading. Count, per-file and total bytes and time are bounded (policy ``files:``), and
whatever is left out is said on the record, never silently. An input the code left unchanged
(same name, same SHA-256) is not an output.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from mai_safety.domain.files import FileBounds, check_file_name

from .collector import NAMED_LEFT_OUT, Collected, Collector
from .files import ContainerRoot

WORKSPACE = "/workspace"
INPUTS_FOLDER = "files"  # in the run's host folder: /sandbox/files inside
COLLECT_ORDER = "collect.json"  # in the run's host folder, under gVisor: what the survey inside collects


def place_inputs(workdir: Path, files: Mapping[str, bytes], workspace: RunWorkspace, *, gvisor: bool) -> None:
    """Write a run's input files (names already checked, domain.files) under its host folder's
    ``files/``, read-only: the container sees them at /sandbox/files, the runner copies them.
    Under gVisor, also what the collection inside is to collect (``collect.json``)."""
    if gvisor:
        order = workdir / COLLECT_ORDER
        order.write_text(collect_order(workspace), encoding="utf-8")
        order.chmod(0o444)
    if not files:
        return
    base = workdir / INPUTS_FOLDER
    base.mkdir(mode=0o755)
    for name, data in files.items():
        path = base / check_file_name(name)  # again here: this name becomes a host path
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        with open(path, "xb") as handle:  # never through a link: the folder is this process's own
            handle.write(data)
        path.chmod(0o444)


class RunWorkspace:
    """One run's working directory as the sandbox sees it: the inputs it was given (name to
    SHA-256) and the bounds of what is collected from it."""

    def __init__(self, bounds: FileBounds, files: Mapping[str, bytes]) -> None:
        self.bounds = bounds
        self.inputs = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


def collect_outputs(root: ContainerRoot, inputs: Mapping[str, str], bounds: FileBounds, mount: str = WORKSPACE) -> Collected:
    """The regular files the code created or changed under ``mount`` (``inputs``: name to SHA-256
    of what it was given), within ``bounds``; links and special files listed, never followed."""
    return Collector(inputs, collect_limits(bounds), check_file_name).run(root, mount)


def collect_limits(bounds: FileBounds) -> dict[str, float]:
    """What a collection is held to (policy ``files:``): how many files, each one's and all their bytes, its time."""
    return {key: getattr(bounds, key) for key in ("max_outputs", "max_output_bytes", "max_outputs_total", "collect_s")}


def collect_order(workspace: RunWorkspace) -> str:
    """What the collection inside gVisor is told (payload/survey.py reads it as /sandbox/collect.json)."""
    return json.dumps({"inputs": workspace.inputs, **collect_limits(workspace.bounds)})


def collected_inside(record: object, workspace: RunWorkspace) -> Collected:
    """The files the survey inside gVisor collected, taken as the code's word would be: each name
    checked again, each file's bytes decoded and held to the bounds again; what fails is left out."""
    collected = Collected(through="inside gVisor, by exec as the code's uid after ending its processes")
    if not isinstance(record, dict) or not isinstance(record.get("files"), list):
        collected.incomplete = "the collection inside gVisor sent no files record"
        return collected
    bounds = workspace.bounds
    for item in record["files"][: bounds.max_outputs]:
        try:
            name = check_file_name(item["name"])
            data = base64.b64decode(item["data"], validate=True)
        except (KeyError, TypeError, ValueError, binascii.Error):
            collected.leave_out(repr(item)[:100] if not isinstance(item, dict) else repr(item.get("name"))[:100], "not a file record this service writes")
            continue
        if len(data) > bounds.max_output_bytes or collected.total + len(data) > bounds.max_outputs_total:
            collected.leave_out(name, "over the policy's bounds", bytes=len(data))
            continue
        if workspace.inputs.get(name) == hashlib.sha256(data).hexdigest():
            continue
        collected.files.append((name, data))
        collected.total += len(data)
    named = [
        {str(key)[:40]: (value if isinstance(value, int) else str(value)[:300]) for key, value in item.items()}
        for item in (record.get("left_out") or [])[:NAMED_LEFT_OUT]
        if isinstance(item, dict)
    ]
    collected.left_out.extend(named)
    count = record.get("left_out_count")  # what the other side left out; this side's are counted already
    collected.left_out_count += count if isinstance(count, int) and count >= 0 else len(named)
    if isinstance(record.get("incomplete"), str):
        collected.incomplete = record["incomplete"][:300]
    return collected


__all__ = ["COLLECT_ORDER", "Collected", "RunWorkspace", "collect_limits", "collect_order", "collected_inside", "INPUTS_FOLDER", "WORKSPACE", "collect_outputs", "place_inputs"]
