import collections
import re
import sys

UA = re.compile(r'"[^"]*" "([^"]*)"$')
agents = collections.Counter()
with open(sys.argv[1] if len(sys.argv) > 1 else "nginx_access.log") as log:
    for line in log:
        m = UA.search(line.strip())
        if m:
            agents[m.group(1).split("/")[0]] += 1
for ua, n in agents.most_common(15):
    print(f"{n:>6} {ua}")
