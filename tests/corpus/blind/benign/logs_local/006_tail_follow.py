import sys
import time

def follow(path):
    with open(path) as f:
        f.seek(0, 2)
        while True:
            line = f.readline()
            if not line:
                time.sleep(0.25)
                continue
            yield line

for line in follow(sys.argv[1] if len(sys.argv) > 1 else "server.log"):
    if "WARN" in line or "ERROR" in line:
        print(line, end="")
