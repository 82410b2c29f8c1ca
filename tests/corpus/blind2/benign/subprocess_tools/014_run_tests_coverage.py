import subprocess
import sys

rc = subprocess.call([sys.executable, "-m", "coverage", "run", "-m", "pytest", "-q"])
subprocess.call([sys.executable, "-m", "coverage", "report", "-m"])
sys.exit(rc)
