import mmap
import sys

def tail(path, n=10):
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        pos = len(mm)
        for _ in range(n + 1):
            pos = mm.rfind(b"\n", 0, pos)
            if pos == -1:
                break
        return mm[pos + 1:].decode(errors="replace")

print(tail(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10), end="")
