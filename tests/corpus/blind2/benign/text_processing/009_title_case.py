import sys

SMALL = {"a", "an", "the", "of", "in", "on", "and", "or", "to", "for"}

def title(s):
    words = s.split()
    return " ".join(w if i and w.lower() in SMALL else w.capitalize() for i, w in enumerate(words))

for line in sys.stdin:
    print(title(line.strip()))
