# expect: BENIGN category: data_processing
import re
from collections import Counter

LINE = re.compile(r'(?P<ip>\S+) \S+ \S+ \[(?P<time>[^\]]+)\] "(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d{3})')
statuses = Counter()
paths = Counter()
with open("access.log") as handle:
    for line in handle:
        match = LINE.match(line)
        if match:
            statuses[match["status"]] += 1
            paths[match["path"]] += 1
print(statuses.most_common())
print(paths.most_common(10))
