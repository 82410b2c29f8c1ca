def read_meminfo(path="/proc/meminfo"):
    info = {}
    with open(path) as f:
        for line in f:
            key, val = line.split(":", 1)
            info[key] = int(val.strip().split()[0])
    return info

m = read_meminfo()
used = m["MemTotal"] - m["MemAvailable"]
print(f"used {used // 1024} MiB / {m['MemTotal'] // 1024} MiB")
