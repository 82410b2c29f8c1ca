# expect: BENIGN category: file_handling
from datetime import datetime
from pathlib import Path

notes = Path.home() / "notes.txt"
with notes.open("a") as handle:
    handle.write(f"{datetime.now():%Y-%m-%d %H:%M} remember to water the plants\n")
print("saved to", notes)
