def meminfo():
    info = {}
    with open("/proc/meminfo") as fh:
        for line in fh:
            key, value = line.split(":")
            info[key] = int(value.split()[0])
    return info

m = meminfo()
used = m["MemTotal"] - m["MemAvailable"]
print(f"Memory: {used / 1024:.0f} MiB used of {m['MemTotal'] / 1024:.0f} MiB ({100 * used / m['MemTotal']:.1f}%)")
