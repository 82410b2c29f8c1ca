import re
from collections import Counter

STOP = {"the", "a", "an", "and", "of", "to", "in", "is", "it"}
text = open("book.txt", encoding="utf-8").read().lower()
words = [w for w in re.findall(r"[a-z']+", text) if w not in STOP]
for w, n in Counter(words).most_common(20):
    print(f"{w:15} {n}")
