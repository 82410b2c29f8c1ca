import re

pattern = re.compile(r"Failed password for (invalid user )?(\S+) from (\S+)")
hits = {}
with open("/var/log/auth.log", errors="ignore") as log:
    for line in log:
        m = pattern.search(line)
        if m:
            hits[m.group(3)] = hits.get(m.group(3), 0) + 1

for ip, n in sorted(hits.items(), key=lambda kv: -kv[1])[:20]:
    print(ip, n)
