import os

pids = []
for i in range(3):
    pid = os.fork()
    if pid == 0:
        print(f"child {i} pid {os.getpid()}")
        os._exit(i)
    pids.append(pid)
for pid in pids:
    _, status = os.waitpid(pid, 0)
    print(pid, "exited", os.waitstatus_to_exitcode(status))
