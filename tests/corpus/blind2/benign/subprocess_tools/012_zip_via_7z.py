import subprocess
import sys

archive = sys.argv[1]
files = sys.argv[2:]
if not files:
    sys.exit("usage: pack.py ARCHIVE FILES...")
subprocess.run(["7z", "a", archive, *files], check=True)
print(subprocess.run(["7z", "l", archive], capture_output=True, text=True).stdout)
