import argparse
from collections import Counter

ap = argparse.ArgumentParser()
ap.add_argument("logfile")
ap.add_argument("--top", type=int, default=5)
a = ap.parse_args()

ips = Counter(line.split(" ", 1)[0] for line in open(a.logfile) if line.strip())
for ip, hits in ips.most_common(a.top):
    print(f"{ip:15} {hits}")
