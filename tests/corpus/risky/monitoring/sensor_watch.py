# expect: MEDIUM category: monitoring
# Watches temperatures and fans.
import time
from psutil import sensors_fans, sensors_temperatures

for _ in range(10):
    for chip, readings in sensors_temperatures().items():
        for reading in readings:
            print(chip, reading.label, reading.current)
    print(sensors_fans())
    time.sleep(5)
