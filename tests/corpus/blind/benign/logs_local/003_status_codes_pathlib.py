from pathlib import Path
from collections import Counter
import re

LINE = re.compile(r'"\w+ \S+ HTTP/[\d.]+" (\d{3})')
codes = Counter()
for log in Path("logs").glob("*.log"):
    for line in log.read_text(errors="ignore").splitlines():
        m = LINE.search(line)
        if m:
            codes[m.group(1)] += 1
for code, n in sorted(codes.items()):
    print(code, n)
