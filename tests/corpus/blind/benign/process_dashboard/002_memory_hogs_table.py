import psutil

rows = []
for proc in psutil.process_iter(attrs=["name", "memory_info"]):
    mi = proc.info["memory_info"]
    if mi:
        rows.append((mi.rss, proc.info["name"], proc.pid))
for rss, name, pid in sorted(rows, reverse=True)[:15]:
    print(f"{rss / 2**20:8.1f} MiB  {pid:>6}  {name}")
