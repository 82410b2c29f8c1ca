# expect: BENIGN category: data_processing
import re
from collections import Counter

with open("book.txt", encoding="utf-8") as handle:
    words = re.findall(r"[a-z']+", handle.read().lower())
for word, count in Counter(words).most_common(20):
    print(f"{count:6d} {word}")
