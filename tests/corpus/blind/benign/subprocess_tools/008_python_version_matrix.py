import shutil
import subprocess

for v in ("3.9", "3.10", "3.11", "3.12"):
    exe = shutil.which(f"python{v}")
    if not exe:
        print(v, "not installed")
        continue
    out = subprocess.run([exe, "-c", "import sys; print(sys.version)"], capture_output=True, text=True)
    print(v, out.stdout.strip())
