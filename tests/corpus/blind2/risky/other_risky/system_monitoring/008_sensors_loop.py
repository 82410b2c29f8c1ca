import time
import psutil

while True:
    temps = psutil.sensors_temperatures()
    for chip, readings in temps.items():
        for r in readings:
            print(chip, r.label, r.current)
    bat = psutil.sensors_battery()
    print("battery:", bat.percent if bat else None)
    for nic, st in psutil.net_io_counters(pernic=True).items():
        print(nic, st.bytes_sent, st.bytes_recv)
    time.sleep(3)
