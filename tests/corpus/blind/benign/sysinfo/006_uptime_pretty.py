from datetime import timedelta

with open("/proc/uptime") as f:
    seconds = float(f.read().split()[0])

td = timedelta(seconds=int(seconds))
days = td.days
hours, rem = divmod(td.seconds, 3600)
minutes = rem // 60
print(f"up {days} days, {hours} hours, {minutes} minutes")
