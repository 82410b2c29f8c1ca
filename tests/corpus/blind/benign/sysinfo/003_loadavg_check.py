import os

with open("/proc/loadavg") as f:
    one, five, fifteen = map(float, f.read().split()[:3])

cores = os.cpu_count() or 1
print(f"load: {one:.2f} {five:.2f} {fifteen:.2f} on {cores} cores")
if one / cores > 1.5:
    print("warning: system is overloaded")
