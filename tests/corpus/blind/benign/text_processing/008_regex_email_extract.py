import re
import sys

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
found = set()
for path in sys.argv[1:]:
    with open(path, errors="ignore") as f:
        found.update(m.lower() for m in EMAIL.findall(f.read()))
print("\n".join(sorted(found)))
