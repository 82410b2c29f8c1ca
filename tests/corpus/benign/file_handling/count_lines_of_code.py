# expect: BENIGN category: file_handling
from pathlib import Path

total = 0
for source in Path("src").rglob("*.py"):
    count = sum(1 for line in source.open() if line.strip() and not line.strip().startswith("#"))
    total += count
    print(f"{count:6d} {source}")
print(f"{total:6d} total")
