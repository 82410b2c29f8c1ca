import subprocess
import sys

CHECKS = [
    ["ruff", "check", "."],
    ["black", "--check", "."],
    [sys.executable, "-m", "pytest", "-q"],
]
failed = 0
for cmd in CHECKS:
    print("$", " ".join(cmd))
    if subprocess.run(cmd).returncode != 0:
        failed += 1
sys.exit(1 if failed else 0)
