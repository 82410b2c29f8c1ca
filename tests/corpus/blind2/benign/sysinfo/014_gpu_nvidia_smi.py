import shutil
import subprocess

if shutil.which("nvidia-smi"):
    q = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,utilization.gpu", "--format=csv,noheader"],
                       capture_output=True, text=True)
    for line in q.stdout.splitlines():
        print("GPU:", line)
else:
    print("no NVIDIA GPU tooling found")
