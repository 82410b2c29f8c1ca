# expect: BENIGN category: cli_tools
import subprocess
import sys
import venv
from pathlib import Path

target = Path(".venv")
if not target.exists():
    venv.create(target, with_pip=True)
subprocess.run([str(target / "bin" / "python"), "-m", "pip", "install", "-r", "requirements.txt"], check=True)
print("ready:", sys.version.split()[0])
