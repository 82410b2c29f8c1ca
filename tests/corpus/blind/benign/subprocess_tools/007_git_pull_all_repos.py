import subprocess
from pathlib import Path

workspace = Path.home() / "code"
for repo in sorted(p.parent for p in workspace.glob("*/.git")):
    r = subprocess.run(["git", "-C", str(repo), "pull", "--ff-only"], capture_output=True, text=True)
    status = "ok" if r.returncode == 0 else r.stderr.strip().splitlines()[-1]
    print(f"{repo.name:<30} {status}")
