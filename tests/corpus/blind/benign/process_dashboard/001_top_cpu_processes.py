import psutil

procs = []
for p in psutil.process_iter(["pid", "name", "cpu_percent", "memory_percent"]):
    procs.append(p.info)
procs.sort(key=lambda i: i["cpu_percent"] or 0, reverse=True)
print(f"{'PID':>7} {'CPU%':>6} {'MEM%':>6} NAME")
for i in procs[:10]:
    print(f"{i['pid']:>7} {i['cpu_percent'] or 0:>6.1f} {i['memory_percent'] or 0:>6.1f} {i['name']}")
