import re
import sys
from datetime import timedelta

shift = timedelta(seconds=float(sys.argv[2]))
ts = re.compile(r"(\d\d):(\d\d):(\d\d),(\d{3})")

def move(m):
    t = timedelta(hours=int(m[1]), minutes=int(m[2]), seconds=int(m[3]), milliseconds=int(m[4])) + shift
    ms = int(t.total_seconds() * 1000)
    h, ms = divmod(ms, 3600000); m_, ms = divmod(ms, 60000); s, ms = divmod(ms, 1000)
    return f"{h:02}:{m_:02}:{s:02},{ms:03}"

print(ts.sub(move, open(sys.argv[1], encoding="utf-8").read()))
