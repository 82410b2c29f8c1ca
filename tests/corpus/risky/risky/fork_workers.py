# expect: MEDIUM category: risky
# Forks four workers and waits for them.
import os

children = []
for worker in range(4):
    pid = os.fork()
    if pid == 0:
        print("worker", worker)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
