import re
import sys
from collections import Counter

LINE = re.compile(r'"\w+ (?P<path>\S+) HTTP/[\d.]+" (?P<status>\d{3})')

counts = Counter()
with open(sys.argv[1]) as log:
    for line in log:
        m = LINE.search(line)
        if m:
            counts[m["status"]] += 1
for status, n in counts.most_common():
    print(status, n)
