import os
import subprocess
import psutil

subprocess.Popen(["sleep", "300"])
subprocess.Popen(["sleep", "300"])
me = psutil.Process(os.getpid())
kids = me.children(recursive=True)
print("our children:", [k.pid for k in kids])
for k in kids:
    k.terminate()
gone, alive = psutil.wait_procs(kids, timeout=3)
print("terminated", len(gone), "still alive", len(alive))
