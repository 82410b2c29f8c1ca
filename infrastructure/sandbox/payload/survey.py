"""The survey of what a run left, from inside a gVisor sandbox, once the code has ended.

Under runsc, /proc/PID/root of the container's host process is gVisor's own (empty) root, not the
container's filesystem: the tmpfs mounts live inside gVisor's kernel. So the supervisor runs this
by ``exec`` right after the code ends, as the code's uid (1000: the only uid that can read what the
code left in its 0700 /workspace). First it counts the processes the code left running and ends
them all (``kill(-1, SIGKILL)`` reaches only uid 1000's processes: the container's init and keeper
are 1001), so nothing of the code is left to race or trace it; then it walks /workspace and /tmp
with the same rules as the host-side survey (sandbox/files.py, mounted beside it as
container_files.py: no link followed, nothing but regular files read, every read capped, a
deadline) and prints one JSON object.

Started ahead in a gVisor pool container (``survey.py --primed``, decision 0015), it reads a key,
one line, says ``ready``, and waits for ``go NONCE`` on its standard input, the supervisor's exec
stream; everything it uses is imported before. It then works as above and writes its record with
the nonce, then an HMAC-SHA256 of that line under the key. It waits beside the code as the code's
uid, and gVisor lets such a process open this one's standard input and output for writing: the
code can write a ``go`` or a record there, but not the key, which was read before the code
started; a record without the MAC and the nonce is refused, and the survey is made by exec as before.

Standard library only; run as ``python3 -I -S /sandbox/survey.py``.
"""

import json
import os
import signal
import sys
import time

CODE_UID = "1000"
COLLECT_ORDER = "/sandbox/collect.json"  # what to collect from /workspace, written by the supervisor
MOUNTS = ("/workspace", "/tmp")


def code_processes() -> dict[int, int]:
    """pid -> threads of every live process of the code's uid but this one."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/status", errors="replace") as handle:  # a name need not be UTF-8
                fields = dict(line.split(":", 1) for line in handle.read().splitlines() if ":" in line)
        except (OSError, ValueError):
            continue
        if fields.get("Uid", "").split()[:1] == [CODE_UID] and not fields.get("State", "").strip().startswith("Z"):
            found[int(name)] = int(fields.get("Threads", "1").strip() or 1)
    return found


def _plain_name(name: str) -> str:
    """A first sieve (the supervisor checks every name again): a relative path, no control characters."""
    if name.startswith("/") or "\\" in name or ".." in name.split("/") or any(ord(character) < 32 or ord(character) == 127 for character in name):
        raise ValueError("not a plain relative path")
    return name


def collect_outputs() -> dict:
    """The files the code created or changed in /workspace, read by container_collector (the
    host-side collector's own rules: descriptors, no link followed, bounded), as base64."""
    import base64

    from container_collector import Collector  # mounted beside this file
    from container_files import ContainerRoot

    with open(COLLECT_ORDER) as handle:
        order = json.load(handle)
    root = ContainerRoot(os.getpid())
    try:
        collected = Collector(order["inputs"], order, _plain_name).run(root, "/workspace")
    finally:
        root.close()
    return {
        "files": [{"name": name, "data": base64.b64encode(data).decode("ascii")} for name, data in collected.files],
        "left_out": collected.left_out,
        "left_out_count": collected.left_out_count,
        "incomplete": collected.incomplete,
    }


def wait_for_go() -> tuple[bytes, bytes] | None:
    """Primed: the key, then the go's nonce, from standard input; None if no run comes."""
    import base64  # noqa: F401 - what the survey uses, imported before the code runs
    import hashlib  # noqa: F401
    import hmac  # noqa: F401

    import container_collector  # noqa: F401

    key = sys.stdin.buffer.readline(200).strip()
    if len(key) < 32:
        return None
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    order = sys.stdin.buffer.readline(200).split()
    if order[:1] != [b"go"] or len(order) != 2:
        return None  # no run came (the container is being removed): nothing to survey
    return key, order[1]


def main() -> None:
    sys.path.insert(0, "/sandbox")
    from container_files import ContainerRoot, Survey  # mounted beside this file

    primed = None
    if sys.argv[1:] == ["--primed"]:
        primed = wait_for_go()
        if primed is None:
            return
    left = code_processes()
    ended = not left
    for _ in range(200):
        if ended:
            break
        try:
            os.kill(-1, signal.SIGKILL)  # every process this uid may signal, but not this one
        except OSError:
            pass
        time.sleep(0.01)
        ended = not code_processes()
    root = ContainerRoot(os.getpid())
    try:
        record = {
            "processes_left_running": sum(left.values()),
            "files_created": Survey().run(root, MOUNTS),
            "disk": {},
        }
        for mount in MOUNTS:
            try:
                record["disk"][mount] = list(root.disk_use(mount))
            except OSError:
                continue
    finally:
        root.close()
    if not ended:
        record["files_created"]["incomplete"] = "processes of the code were still starting when the survey began"
    if os.path.exists(COLLECT_ORDER):
        record["files_out"] = collect_outputs()
    if primed is None:
        sys.stdout.write(json.dumps(record, separators=(",", ":")))
        return
    import hashlib
    import hmac

    key, nonce = primed
    line = json.dumps({"nonce": nonce.decode("ascii", "replace"), "record": record}, separators=(",", ":"))
    mark = hmac.new(key, line.encode(), hashlib.sha256).hexdigest()
    sys.stdout.write(f"\n{line}\n{mark}\n")  # on lines of their own, whatever was written before


if __name__ == "__main__":
    main()
