import subprocess
import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["git", "clone", "--depth", "1", "https://github.com/psf/requests.git", tmp], check=True)
    py_files = list(Path(tmp).rglob("*.py"))
    lines = sum(len(p.read_text(errors="ignore").splitlines()) for p in py_files)
    print(f"{len(py_files)} python files, {lines} lines")
