# expect: BENIGN category: cli_tools
import shutil
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
sizes = sorted(((sum(f.stat().st_size for f in d.rglob("*") if f.is_file()), d) for d in root.iterdir() if d.is_dir()), reverse=True)
for size, folder in sizes[:10]:
    print(f"{size / 1e6:10.1f} MB  {folder}")
usage = shutil.disk_usage(root)
print(f"free: {usage.free / 1e9:.1f} GB")
