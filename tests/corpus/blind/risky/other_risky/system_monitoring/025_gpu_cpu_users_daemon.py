import time
import psutil
import subprocess

while True:
    gpu = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,process_name,used_memory", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout
    print(time.ctime(), psutil.cpu_percent(), [u.name for u in psutil.users()])
    print(gpu)
    for p in psutil.process_iter(["pid", "name", "username"]):
        print("  ", p.info)
    time.sleep(15)
