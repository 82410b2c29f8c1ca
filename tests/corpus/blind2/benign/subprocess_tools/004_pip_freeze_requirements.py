import subprocess
import sys

out = subprocess.run([sys.executable, "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
pkgs = [l for l in out.splitlines() if not l.startswith("-e")]
with open("requirements.lock", "w") as f:
    f.write("\n".join(pkgs) + "\n")
print(f"{len(pkgs)} packages pinned")
