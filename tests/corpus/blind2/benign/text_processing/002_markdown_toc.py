import re
import sys

def toc(md):
    for line in md.splitlines():
        m = re.match(r"^(#{1,6})\s+(.*)", line)
        if m:
            level = len(m.group(1))
            title = m.group(2).strip()
            anchor = re.sub(r"[^\w\- ]", "", title).lower().replace(" ", "-")
            yield "  " * (level - 1) + f"- [{title}](#{anchor})"

print("\n".join(toc(open(sys.argv[1]).read())))
