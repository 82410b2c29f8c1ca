import psutil

bat = psutil.sensors_battery()
if bat is None:
    print("no battery detected")
else:
    state = "charging" if bat.power_plugged else "discharging"
    print(f"battery {bat.percent:.0f}% ({state})")
