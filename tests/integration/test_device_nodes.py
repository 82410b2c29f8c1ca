"""The attack of issue 23, finding 4: untrusted code under gVisor made a character device (1, 3),
opened it and wrote to it, as uid 1000 with no capabilities. Under runc the host's kernel refuses
(no CAP_MKNOD); under runsc the seccomp profile applied inside the sandbox refuses it
(``infrastructure/sandbox/seccomp.py``, ``--oci-seccomp``), whatever gVisor's own kernel allows."""

from __future__ import annotations

import json

import pytest

from mai_safety.application.executions import MaiSafety

from .conftest import run_overridden, runtime_of

DEVICE_NODES = b"""
import json, os, stat
result = {}
for name, kind in {"char": stat.S_IFCHR, "block": stat.S_IFBLK}.items():
    path = "/tmp/" + name
    try:
        os.mknod(path, kind | 0o666, os.makedev(1, 3))
    except OSError as exc:
        result[name] = "refused:" + str(exc.errno)
        continue
    try:
        with open(path, "w") as handle:
            handle.write("x")
        result[name] = "made and written"
    except OSError as exc:
        result[name] = "made, open refused:" + str(exc.errno)
import subprocess
child = subprocess.run(["mknod", "/tmp/child", "c", "1", "3"], capture_output=True)
result["child"] = "refused" if child.returncode else "made"
os.mkfifo("/tmp/fifo")
result["fifo"] = stat.S_ISFIFO(os.stat("/tmp/fifo").st_mode)
print(json.dumps(result))
"""


def test_untrusted_code_cannot_make_a_device_node_under_either_runtime(
    contained_app: MaiSafety, request: pytest.FixtureRequest
) -> None:
    report = run_overridden(contained_app, DEVICE_NODES)
    assert report.status == "completed", report.stderr
    assert runtime_of(contained_app, report.execution_id) == request.node.callspec.params["contained_app"].split("-")[1]
    seen = json.loads(report.stdout)
    assert seen["char"] == "refused:1" and seen["block"] == "refused:1"  # EPERM, as the host's kernel says
    assert seen["child"] == "refused"  # and in every process the code starts
    assert seen["fifo"] is True  # only devices are refused: a FIFO of the code's own still works
