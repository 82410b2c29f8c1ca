# expect: MEDIUM category: risky
# Counts files with a shell pipeline.
import subprocess

count = subprocess.check_output("ls -1 | wc -l", shell=True, text=True)
print(count.strip())
