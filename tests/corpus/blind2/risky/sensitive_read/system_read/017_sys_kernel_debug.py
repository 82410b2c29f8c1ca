import os

paths = ["/sys/kernel/debug/tracing/trace", "/sys/kernel/security/apparmor/profiles",
         "/sys/kernel/mm/transparent_hugepage/enabled", "/proc/1/mountinfo"]
for p in paths:
    try:
        with open(p) as f:
            print("==", p)
            print(f.read(2000))
    except OSError as e:
        print(p, e.strerror)
