# expect: BENIGN category: cli_tools
import subprocess
from collections import Counter

log = subprocess.run(["git", "log", "--pretty=%an"], capture_output=True, text=True, check=True).stdout
for author, commits in Counter(log.splitlines()).most_common(10):
    print(f"{commits:5d} {author}")
