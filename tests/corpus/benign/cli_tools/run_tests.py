# expect: BENIGN category: cli_tools
import subprocess
import sys

result = subprocess.run([sys.executable, "-m", "pytest", "-q", "tests"], check=False)
sys.exit(result.returncode)
