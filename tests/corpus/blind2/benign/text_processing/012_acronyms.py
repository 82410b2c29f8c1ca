import re
import sys
from collections import Counter

text = sys.stdin.read()
acr = Counter(re.findall(r"\b[A-Z]{2,6}\b", text))
for a, n in acr.most_common(20):
    print(a, n)
