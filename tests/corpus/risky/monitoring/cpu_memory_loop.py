# expect: MEDIUM category: monitoring
# Prints CPU and memory use every second, forever.
import time

import psutil

while True:
    print(f"cpu {psutil.cpu_percent(interval=None):5.1f}%  mem {psutil.virtual_memory().percent:5.1f}%")
    time.sleep(1)
