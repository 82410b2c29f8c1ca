import subprocess
from collections import Counter

log = subprocess.check_output(["git", "log", "--format=%an"], text=True)
for author, n in Counter(log.splitlines()).most_common(10):
    print(f"{n:5}  {author}")
