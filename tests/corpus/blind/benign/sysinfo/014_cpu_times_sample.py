import time

def snapshot():
    with open("/proc/stat") as f:
        fields = list(map(int, f.readline().split()[1:]))
    return sum(fields), fields[3]

t1, idle1 = snapshot()
time.sleep(0.5)
t2, idle2 = snapshot()
busy = 1 - (idle2 - idle1) / max(t2 - t1, 1)
print(f"CPU busy: {busy * 100:.1f}%")
