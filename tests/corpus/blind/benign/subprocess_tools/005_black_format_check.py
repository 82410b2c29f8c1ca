import subprocess
import sys

files = sys.argv[1:] or ["."]
for tool in (["black", "--check"], ["isort", "--check-only"], ["flake8"]):
    rc = subprocess.call([*tool, *files])
    print(f"{tool[0]}: {'ok' if rc == 0 else 'issues'}")
