import csv
import re
import sys

pattern = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+ (\w+) \[(\w+)\] (.*)")
with open(sys.argv[1]) as log, open("log.csv", "w", newline="") as out:
    w = csv.writer(out)
    w.writerow(["time", "level", "module", "message"])
    for line in log:
        m = pattern.match(line)
        if m:
            w.writerow(m.groups())
