import psutil

stats = []
for p in psutil.process_iter(["name"]):
    try:
        io = p.io_counters()
        stats.append((io.read_bytes + io.write_bytes, p.pid, p.info["name"]))
    except (psutil.AccessDenied, psutil.NoSuchProcess, AttributeError):
        continue
for total, pid, name in sorted(stats, reverse=True)[:10]:
    print(f"{total / 1e6:10.1f} MB {pid:>7} {name}")
