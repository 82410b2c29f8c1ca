# expect: BENIGN category: data_processing
import hashlib
from pathlib import Path

for path in sorted(Path("downloads").glob("*")):
    if path.is_file():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{digest}  {path.name}")
