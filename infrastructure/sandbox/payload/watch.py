"""The keeper's watch inside a gVisor sandbox: what the host cannot read from outside there.

Under runsc the container's processes and its tmpfs mounts live inside gVisor's own kernel: the
host's pids cgroup counts gVisor's threads, not the code's, and the host cannot statvfs a mount it
does not have. So this small loop, run by ``exec`` as the keeper's uid (1001, which the code, 1000,
cannot signal or trace), prints one line per interval: the code's task count (threads of uid 1000,
as RLIMIT_NPROC counts them) and, for each writable mount, bytes used and bytes in all.

Standard library only; run as ``python3 -I -S /sandbox/watch.py INTERVAL``, or started ahead in a
pool container as ``python3 -I -S /sandbox/watch.py --primed``: it then waits, printing nothing,
for one line on its standard input, ``go INTERVAL``, written by the supervisor when the run begins
(primed.py). Its standard input is the exec's own stream: the code, another uid, cannot reach it.
"""

import os
import sys
import time

CODE_UID = "1000"
MOUNTS = ("/workspace", "/tmp")


def code_tasks() -> int:
    count = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", errors="replace") as handle:  # a name need not be UTF-8
                fields = dict(line.split(":", 1) for line in handle.read().splitlines() if ":" in line)
        except (OSError, ValueError):
            continue
        if fields.get("Uid", "").split()[:1] == [CODE_UID] and not fields.get("State", "").strip().startswith("Z"):
            count += int(fields.get("Threads", "1").strip() or 1)
    return count


def main() -> None:
    if sys.argv[1:] == ["--primed"]:
        order = sys.stdin.buffer.readline(64).split()
        if order[:1] != [b"go"] or len(order) != 2:
            return  # no run came (the container is being removed): nothing to watch
        interval = float(order[1])
    else:
        interval = float(sys.argv[1]) if len(sys.argv) > 1 else 0.25
    while True:
        parts = [str(code_tasks())]
        for mount in MOUNTS:
            try:
                info = os.statvfs(mount)
                parts += [str((info.f_blocks - info.f_bfree) * info.f_frsize), str(info.f_blocks * info.f_frsize)]
            except OSError:
                parts += ["0", "0"]
        sys.stdout.write(" ".join(parts) + "\n")
        sys.stdout.flush()
        time.sleep(interval)


if __name__ == "__main__":
    main()
