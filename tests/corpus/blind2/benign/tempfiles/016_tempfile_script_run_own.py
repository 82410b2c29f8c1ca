import subprocess
import sys
import tempfile

code = "import math\nprint(math.factorial(20))\n"
with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
    f.write(code)
print(subprocess.run([sys.executable, f.name], capture_output=True, text=True).stdout)
import os
os.unlink(f.name)
