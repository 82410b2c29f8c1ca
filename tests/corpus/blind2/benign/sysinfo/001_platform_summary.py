import platform
import os
import shutil

print("System :", platform.system(), platform.release())
print("Machine:", platform.machine())
print("Python :", platform.python_version())
print("CPUs   :", os.cpu_count())
total, used, free = shutil.disk_usage(".")
print(f"Disk   : {free / 2**30:.1f} GiB free of {total / 2**30:.1f} GiB")
