import re
import sys
from collections import Counter

text = open(sys.argv[1], encoding="utf-8").read().lower()
words = re.findall(r"[a-zà-ÿ']+", text)
stop = {"the", "and", "a", "to", "of", "in", "is", "it", "that", "i"}
for w, n in Counter(w for w in words if w not in stop).most_common(25):
    print(f"{n:>6} {w}")
