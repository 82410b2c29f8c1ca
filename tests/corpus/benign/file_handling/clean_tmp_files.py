# expect: BENIGN category: file_handling
from pathlib import Path

removed = 0
for leftover in Path(".").glob("**/*.tmp"):
    leftover.unlink()
    removed += 1
print(f"removed {removed} temporary files")
