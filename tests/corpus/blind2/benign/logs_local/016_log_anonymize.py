import re
import sys

IP = re.compile(r"\b(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}\b")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
src, dst = sys.argv[1], sys.argv[2]
with open(src) as fin, open(dst, "w") as fout:
    for line in fin:
        line = IP.sub(r"\1.\2.x.x", line)
        fout.write(EMAIL.sub("<email>", line))
print("anonymized copy written to", dst)
