import subprocess
import sys
import tempfile
import venv
from pathlib import Path

with tempfile.TemporaryDirectory() as d:
    venv.create(d, with_pip=False)
    py = Path(d) / "bin" / "python"
    out = subprocess.run([str(py), "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True)
    print("venv works:", out.stdout.strip() == d, sys.version_info[:2])
