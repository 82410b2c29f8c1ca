from pathlib import Path

bat = Path("/sys/class/power_supply/BAT0/capacity")
print("battery:", bat.read_text().strip() + "%" if bat.exists() else "n/a")
for zone in sorted(Path("/sys/class/thermal").glob("thermal_zone*")):
    t = int((zone / "temp").read_text()) / 1000
    print(zone.name, (zone / "type").read_text().strip(), f"{t:.1f}C")
