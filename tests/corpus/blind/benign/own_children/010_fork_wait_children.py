import os
import sys

children = []
for i in range(3):
    pid = os.fork()
    if pid == 0:
        print(f"child {i} working in {os.getpid()}")
        os._exit(0)
    children.append(pid)

for pid in children:
    _, status = os.waitpid(pid, 0)
    print(pid, "exited", os.waitstatus_to_exitcode(status))
sys.exit(0)
