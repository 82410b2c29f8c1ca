import subprocess
import sys
import psutil

launcher = subprocess.Popen([sys.executable, "spawn_many.py"])
try:
    launcher.wait(timeout=20)
except subprocess.TimeoutExpired:
    parent = psutil.Process(launcher.pid)
    kids = parent.children(recursive=True)
    for k in kids:
        k.terminate()
    parent.terminate()
    psutil.wait_procs(kids + [parent], timeout=5)
    print("cleaned up", len(kids) + 1, "processes")
