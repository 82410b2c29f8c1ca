import re
import sys

toc = []
for line in open(sys.argv[1] if len(sys.argv) > 1 else "README.md"):
    m = re.match(r"^(#{2,4})\s+(.*)", line)
    if m:
        level = len(m.group(1)) - 2
        title = m.group(2).strip()
        anchor = re.sub(r"[^\w\- ]", "", title).lower().replace(" ", "-")
        toc.append(f"{'  ' * level}- [{title}](#{anchor})")
print("\n".join(toc))
