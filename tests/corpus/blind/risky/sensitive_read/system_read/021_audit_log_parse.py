import collections

counter = collections.Counter()
with open("/var/log/audit/audit.log") as f:
    for line in f:
        for token in line.split():
            if token.startswith("type="):
                counter[token[5:]] += 1
for t, n in counter.most_common(15):
    print(f"{t:<25}{n}")
