import subprocess
import sys

deps = ["reqeusts", "python-dateutils", "beautifulsoup", "urlib3"]
for d in deps:
    subprocess.call([sys.executable, "-m", "pip", "install", "-q", d])
