# quick check whether we're in a container and what init was started with
import os

def read_nul(path):
    with open(path, "rb") as f:
        return [x.decode() for x in f.read().split(b"\0") if x]

print("cgroup:", open("/proc/1/cgroup").read())
for var in read_nul("/proc/1/environ"):
    print("  ", var)
print("root fs:", os.readlink("/proc/1/root"))
