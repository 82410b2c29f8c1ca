import re
import sys
from datetime import datetime

RX = re.compile(r"^(?P<ts>\w{3}\s+\d+ \d\d:\d\d:\d\d) (?P<host>\S+) (?P<prog>[\w\-/]+)(\[\d+\])?: (?P<msg>.*)$")

def parse(path):
    for line in open(path, errors="replace"):
        m = RX.match(line)
        if m:
            yield m.groupdict()

progs = {}
for rec in parse(sys.argv[1]):
    progs[rec["prog"]] = progs.get(rec["prog"], 0) + 1
for prog, n in sorted(progs.items(), key=lambda x: -x[1])[:15]:
    print(f"{n:6} {prog}")
