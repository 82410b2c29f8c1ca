def read_counters():
    stats = {}
    with open("/proc/net/dev") as f:
        for line in list(f)[2:]:
            iface, data = line.split(":", 1)
            fields = data.split()
            stats[iface.strip()] = (int(fields[0]), int(fields[8]))
    return stats

for iface, (rx, tx) in read_counters().items():
    print(f"{iface:<10} rx={rx / 1e6:10.2f} MB  tx={tx / 1e6:10.2f} MB")
