import re
from pathlib import Path

text = Path("test-output.txt").read_text()
m = re.search(r"=+ (.*) in ([\d.]+)s", text)
if m:
    print("result:", m.group(1), "time:", m.group(2))
failures = re.findall(r"^FAILED (\S+)", text, re.M)
print(len(failures), "failures")
for f in failures:
    print("  ", f)
