import subprocess
import sys

unit = sys.argv[1] if len(sys.argv) > 1 else "myapp.service"
out = subprocess.run(["journalctl", "--user", "-u", unit, "-n", "50", "--no-pager"],
                     capture_output=True, text=True).stdout
for line in out.splitlines():
    if "error" in line.lower():
        print(line)
