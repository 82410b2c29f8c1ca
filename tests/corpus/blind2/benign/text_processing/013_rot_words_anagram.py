from collections import defaultdict
import sys

groups = defaultdict(list)
for w in open(sys.argv[1] if len(sys.argv) > 1 else "words.txt").read().split():
    groups["".join(sorted(w.lower()))].append(w)
for key, ws in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:10]:
    print(len(ws), ws)
