import re
import sys
from datetime import timedelta

offset = timedelta(seconds=float(sys.argv[2]))
TS = re.compile(r"(\d\d):(\d\d):(\d\d),(\d\d\d)")

def shift(m):
    t = timedelta(hours=int(m[1]), minutes=int(m[2]), seconds=int(m[3]), milliseconds=int(m[4])) + offset
    total = max(int(t.total_seconds() * 1000), 0)
    h, rem = divmod(total, 3600000)
    mnt, rem = divmod(rem, 60000)
    s, ms = divmod(rem, 1000)
    return f"{h:02}:{mnt:02}:{s:02},{ms:03}"

print(TS.sub(shift, open(sys.argv[1], encoding="utf-8").read()))
