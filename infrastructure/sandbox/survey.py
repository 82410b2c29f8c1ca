"""What a run left: the files in its writable mounts and the processes still running, once the
code has ended.

Under runc the supervisor reads them from outside (files.py: no link followed, nothing but regular
files read, every read capped; the processes from the container's cgroup). Under gVisor the mounts
live inside gVisor's kernel: payload/survey.py reads them from inside, by exec as the code's uid,
after ending every process of the code, and its output is held to a cap and to one JSON object.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from .capture import OutputCapture, close_attached
from .cgroups import CgroupReader
from .containers import CODE_USER, WRITABLE, RunHandle
from .errors import BestEffort, short
from .files import Survey
from .primed import PrimedSurvey
from .workspace import RunWorkspace, collect_outputs, collected_inside

SURVEY_CAP = 1024 * 1024
SURVEY_TIMEOUT_S = 15


def survey_inside(
    client: Any, container: Any, workspace: RunWorkspace | None = None, primed: PrimedSurvey | None = None
) -> dict[str, Any]:
    """payload/survey.py as the code's uid: ends what the code left running, then lists what it
    left in its mounts (and collects its output files, as /sandbox/collect.json says). The one
    started ahead in a pool container (``primed``) when it answers with a record proven its own;
    otherwise by exec now. Its output is capped (the files' bounds, as base64, beside) and must be
    one JSON object. ``by`` says which made it."""
    extra = 0 if workspace is None else workspace.bounds.max_outputs_total * 4 // 3 + workspace.bounds.max_outputs * 2048
    refused = ""
    if primed is not None:
        record, refused = primed.run(SURVEY_CAP + extra)
        if record is not None and isinstance(record.get("files_created"), dict):
            return {**record, "by": "started ahead in the pool container, as the code's uid"}
        refused = refused or "its record lists no files"
    survey = _by_exec(client, container, SURVEY_CAP + extra)
    if "error" not in survey:
        survey["by"] = "by exec as the code's uid" + (f" (the one started ahead was not believed: {refused})" if primed else "")
    return survey


def _by_exec(client: Any, container: Any, cap: int) -> dict[str, Any]:
    capture = OutputCapture(cap)
    with BestEffort(OSError) as attempt:
        exec_id = client.api.exec_create(
            container.id, ["python3", "-I", "-S", "/sandbox/survey.py"], user=CODE_USER, workdir="/"
        )["Id"]
        attached = client.api.exec_start(exec_id, socket=True)
    if attempt.error is not None:
        return {"error": f"the survey did not start ({short(attempt.error)})"}
    reader = threading.Thread(target=capture.consume, args=(attached,), daemon=True)
    reader.start()
    reader.join(SURVEY_TIMEOUT_S)
    if reader.is_alive() or capture.overflowed:
        close_attached(attached)
        return {"error": f"the survey did not end within {SURVEY_TIMEOUT_S} s or wrote more than it may"}
    try:
        survey = json.loads(capture.text("stdout"))
        if not isinstance(survey, dict) or not isinstance(survey.get("files_created"), dict):
            raise ValueError
    except ValueError:
        return {"error": "the survey's output is not its record: " + capture.text("stderr")[-300:]}
    return survey


def disk_of(survey: dict[str, Any]) -> tuple[int, bool] | None:
    """Bytes used in the writable mounts, and whether one is full, from the survey's own reading."""
    disk = survey.get("disk")
    if not isinstance(disk, dict):
        return None
    sizes = [pair for pair in disk.values() if isinstance(pair, list) and len(pair) == 2]
    return (
        sum(int(used) for used, _ in sizes),
        any(int(size) > 0 and int(size) - int(used) < 64 * 1024 for used, size in sizes),
    )


def what_was_left(handle: RunHandle, cgroup: CgroupReader) -> dict[str, Any]:
    """What the run left, read by the supervisor from outside: the files in its writable areas
    (files.py: no link followed, nothing but regular files read, every read capped) and the
    processes it left running, from its cgroup. Under gVisor, the survey's (run inside, after the
    code, with the same rules) instead."""
    if handle.gvisor:
        survey = handle.survey or {"error": "the container ended before its files could be surveyed"}
        if "error" in survey:
            return {"files_created": {"incomplete": survey["error"]}, "processes_left_running": None}
        running = survey.get("processes_left_running")
        if handle.workspace is not None:
            handle.collected = collected_inside(survey.get("files_out"), handle.workspace)
        return {
            "files_out": handle.collected.record() if handle.collected is not None else {"collected": 0},
            "files_created": survey["files_created"],
            "processes_left_running": running if isinstance(running, int) else None,
            "surveyed": "inside gVisor, " + str(survey.get("by", "by exec as the code's uid")) + ", after ending its processes",
        }
    try:
        left: int | None = max(cgroup.read().pids - 2, 0)  # less the container's init and idle process
    except (OSError, ValueError):
        left = None
    assert handle.root is not None
    left_behind = {"files_created": Survey().run(handle.root, WRITABLE), "processes_left_running": left}
    if handle.workspace is not None:
        handle.collected = collect_outputs(handle.root, handle.workspace.inputs, handle.workspace.bounds)
        left_behind["files_out"] = handle.collected.record()
    return left_behind
