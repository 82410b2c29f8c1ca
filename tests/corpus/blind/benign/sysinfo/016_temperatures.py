import psutil

temps = psutil.sensors_temperatures() if hasattr(psutil, "sensors_temperatures") else {}
if not temps:
    print("no sensors")
for chip, readings in temps.items():
    for r in readings:
        label = r.label or chip
        print(f"{label:<20} {r.current:5.1f}°C (high={r.high})")
