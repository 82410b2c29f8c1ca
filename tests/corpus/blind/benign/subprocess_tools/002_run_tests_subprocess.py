import subprocess
import sys

result = subprocess.run([sys.executable, "-m", "pytest", "-q", "tests/"], capture_output=True, text=True)
print(result.stdout[-2000:])
if result.returncode != 0:
    print("tests failed", file=sys.stderr)
    sys.exit(result.returncode)
