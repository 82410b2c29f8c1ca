import subprocess
import sys

dest = sys.argv[1] if len(sys.argv) > 1 else "/media/usb/backup"
cmd = ["rsync", "-av", "--delete", "--exclude", ".venv", "--exclude", "node_modules", "./", dest]
print("running:", " ".join(cmd))
subprocess.run(cmd, check=True)
