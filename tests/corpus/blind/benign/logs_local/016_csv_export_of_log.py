import csv
import re
import sys

rx = re.compile(r"(?P<date>\S+) (?P<time>\S+) (?P<level>\w+) (?P<module>[\w.]+): (?P<msg>.*)")
src = sys.argv[1]
with open(src) as inp, open(src + ".csv", "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=["date", "time", "level", "module", "msg"])
    w.writeheader()
    for line in inp:
        m = rx.match(line)
        if m:
            w.writerow(m.groupdict())
print("wrote", src + ".csv")
