import psutil

print("CPU cores (logical):", psutil.cpu_count())
print("CPU cores (physical):", psutil.cpu_count(logical=False))
print("CPU usage:", psutil.cpu_percent(interval=1), "%")
vm = psutil.virtual_memory()
print(f"RAM: {vm.used >> 20} MiB / {vm.total >> 20} MiB")
du = psutil.disk_usage("/")
print(f"Disk /: {du.percent}% used")
