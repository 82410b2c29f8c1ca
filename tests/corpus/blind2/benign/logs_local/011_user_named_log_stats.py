import argparse
import re
from collections import Counter

ap = argparse.ArgumentParser()
ap.add_argument("log", help="path to your app's log")
ap.add_argument("--pattern", default=r"user_id=(\d+)")
a = ap.parse_args()

rx = re.compile(a.pattern)
c = Counter(m.group(1) for line in open(a.log) if (m := rx.search(line)))
for uid, n in c.most_common(10):
    print(uid, n)
