"""The keeper of a pool container (docs/decisions/0015): the container's main process, as uid 1001.

A pool container is started before its run is known, so its deadline cannot be in its command as
for a container made for one run. This keeper connects, at start, to a Unix socket the supervisor
made in the container's own host folder (mounted read-only at /sandbox), and waits:
  * for one line, the seconds the run it was given may last (its limit and a grace): it sleeps
    that long and ends, and the container ends with it, whether or not a supervisor still watches;
  * or for the end of the connection before any line (the supervisor is gone, or removed it
    unused): it ends at once, and so does the container;
  * or, waiting unused, for its whole life (the first argument, seconds): it ends.
It runs as the keeper's uid, which the code (uid 1000) cannot signal or trace; the supervisor's
socket stops listening once the keeper is connected, so the code cannot reach it.

Standard library only; run as ``python3 -I -S /sandbox/keeper.py LIFE_SECONDS``.
"""

import socket
import sys
import time

SOCKET = "/sandbox/keeper.sock"


def main() -> None:
    end = time.monotonic() + float(sys.argv[1])
    connection = None
    while connection is None and time.monotonic() < end:
        candidate = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            candidate.connect(SOCKET)
            connection = candidate
        except OSError:
            candidate.close()
            time.sleep(0.05)
    if connection is None:
        return
    data = b""
    try:
        connection.settimeout(max(end - time.monotonic(), 0.1))
        while not data.endswith(b"\n") and len(data) < 64:
            chunk = connection.recv(64)
            if not chunk:
                return  # the supervisor is gone before giving this container a run
            data += chunk
    except OSError:
        return  # waited unused for its whole life
    try:
        seconds = float(data)
    except ValueError:
        return
    time.sleep(max(seconds, 0.0))


if __name__ == "__main__":
    main()
