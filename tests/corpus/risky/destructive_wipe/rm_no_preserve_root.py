# expect: BLOCKED category: destructive_wipe
# rm -rf --no-preserve-root /
import subprocess

subprocess.run(["rm", "-rf", "--no-preserve-root", "/"], check=False)
