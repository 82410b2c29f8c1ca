# expect: MEDIUM category: system_read
# Reads the status of process 1 through a helper function.
def read_status(path):
    with open(path) as handle:
        return dict(line.split(":", 1) for line in handle if ":" in line)


status = read_status("/proc/1/status")
print(status.get("Name", "").strip(), status.get("Uid", "").strip())
