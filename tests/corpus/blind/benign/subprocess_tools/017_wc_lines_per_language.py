import subprocess
from collections import defaultdict

files = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
per_ext = defaultdict(int)
for f in files:
    ext = f.rsplit(".", 1)[-1] if "." in f else "(none)"
    try:
        with open(f, errors="ignore") as fh:
            per_ext[ext] += sum(1 for _ in fh)
    except OSError:
        pass
for ext, n in sorted(per_ext.items(), key=lambda kv: -kv[1])[:10]:
    print(f"{ext:<8}{n:>8}")
