import hashlib
import json
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
manifest = {}
for p in sorted(root.rglob("*")):
    if p.is_file() and p.name != "MANIFEST.json":
        manifest[str(p.relative_to(root))] = hashlib.sha1(p.read_bytes()).hexdigest()
(root / "MANIFEST.json").write_text(json.dumps(manifest, indent=1))
print(len(manifest), "files hashed")
