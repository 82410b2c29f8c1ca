"""The keeper of a session's container (issue #27): its main process, as uid 1001.

It connects to /sandbox/keeper.sock, which the service made in the container's own host folder
(and which stops listening once it is connected), and ends, ending the container with it, when
the session's lifetime has passed or the connection ends (the service ended the session, or died:
a ``kill -9`` of the service leaves no live session behind). The code (uid 1000) can neither
signal nor trace it. Standard library only; run as ``python3 -I -S /sandbox/session_keeper.py LIFETIME``.
"""

import socket
import sys
import time

SOCKET = "/sandbox/keeper.sock"


def main() -> None:
    end = time.monotonic() + float(sys.argv[1])
    connection = None
    connect_by = min(end, time.monotonic() + 30)
    while connection is None and time.monotonic() < connect_by:
        candidate = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            candidate.connect(SOCKET)
            connection = candidate
        except OSError:
            candidate.close()
            time.sleep(0.05)
    if connection is None:
        return
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return  # the session's lifetime has passed
            connection.settimeout(left)
            if not connection.recv(64):
                return  # the service ended the session, or is gone
    except OSError:
        return


if __name__ == "__main__":
    main()
