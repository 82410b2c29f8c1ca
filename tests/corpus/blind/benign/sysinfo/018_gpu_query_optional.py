import shutil
import subprocess

if shutil.which("nvidia-smi"):
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,memory.total,utilization.gpu", "--format=csv,noheader"],
        capture_output=True, text=True,
    ).stdout
    print(out.strip())
else:
    print("no NVIDIA GPU tools found")
