import psutil

vm = psutil.virtual_memory()
print(f"memory: {vm.percent}% used")
print("cpu percent:", psutil.cpu_percent(interval=1))
for part in psutil.disk_partitions():
    usage = psutil.disk_usage(part.mountpoint)
    print(part.mountpoint, f"{usage.percent}%")
