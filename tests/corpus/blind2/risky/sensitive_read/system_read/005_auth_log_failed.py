import re

pat = re.compile(r"Failed password for (invalid user )?(\S+) from (\S+)")
with open("/var/log/auth.log", errors="replace") as log:
    for line in log:
        m = pat.search(line)
        if m:
            print(m.group(2), m.group(3))
