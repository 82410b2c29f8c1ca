import textwrap
import sys

width = int(sys.argv[2]) if len(sys.argv) > 2 else 72
text = open(sys.argv[1]).read()
paras = [p.strip() for p in text.split("\n\n") if p.strip()]
print("\n\n".join(textwrap.fill(" ".join(p.split()), width) for p in paras))
