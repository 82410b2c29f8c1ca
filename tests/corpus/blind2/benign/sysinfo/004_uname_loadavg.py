import os

u = os.uname()
print(f"{u.sysname} {u.nodename} {u.release} {u.machine}")
one, five, fifteen = os.getloadavg()
print(f"load average: {one:.2f} {five:.2f} {fifteen:.2f}")
print("cpus:", os.cpu_count())
