import sys
import unicodedata

def slug(s):
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
    return "-".join(s.lower().split())

for line in sys.stdin:
    print(slug(line.strip()))
