# expect: BENIGN category: file_handling
import re
from pathlib import Path

text = Path("README.md").read_text()
toc = []
for line in text.splitlines():
    match = re.match(r"^(#{2,3}) (.+)", line)
    if match:
        level, title = len(match[1]) - 2, match[2]
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        toc.append(f"{'  ' * level}- [{title}](#{anchor})")
Path("TOC.md").write_text("\n".join(toc) + "\n")
