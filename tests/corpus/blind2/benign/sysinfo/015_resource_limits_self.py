import resource

names = {"RLIMIT_NOFILE": "open files", "RLIMIT_NPROC": "processes", "RLIMIT_STACK": "stack"}
for attr, label in names.items():
    soft, hard = resource.getrlimit(getattr(resource, attr))
    print(f"{label:12} soft={soft} hard={hard}")
usage = resource.getrusage(resource.RUSAGE_SELF)
print("max rss (KiB):", usage.ru_maxrss)
