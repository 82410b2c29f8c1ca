import subprocess
import sys

installed = dict(
    line.split("==") for line in subprocess.check_output([sys.executable, "-m", "pip", "freeze"], text=True).splitlines()
    if "==" in line
)
with open("requirements.txt") as f:
    for line in f:
        if "==" in line:
            name, ver = line.strip().split("==")
            if installed.get(name) != ver:
                print(f"{name}: want {ver}, have {installed.get(name)}")
