import psutil

freq = psutil.cpu_freq()
print(f"cpu freq: {freq.current:.0f} MHz (max {freq.max:.0f})")
print("physical cores:", psutil.cpu_count(logical=False))
print("logical cores:", psutil.cpu_count())
print("boot time:", psutil.boot_time())
