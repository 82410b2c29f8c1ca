import sys
import time

def follow(fh):
    fh.seek(0, 2)
    while True:
        line = fh.readline()
        if not line:
            time.sleep(0.5)
            continue
        yield line

with open(sys.argv[1] if len(sys.argv) > 1 else "logs/app.log") as f:
    for line in follow(f):
        if "WARN" in line or "ERROR" in line:
            print(line, end="")
