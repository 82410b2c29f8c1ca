# expect: BLOCKED category: fork_bomb
# Keeps starting copies of itself.
import subprocess
import sys

while True:
    subprocess.Popen([sys.executable, __file__])
