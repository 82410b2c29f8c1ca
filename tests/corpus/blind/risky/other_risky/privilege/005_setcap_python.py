import subprocess
import sys

subprocess.run(["sudo", "setcap", "cap_net_raw,cap_net_admin+eip", sys.executable])
subprocess.run(["getcap", sys.executable])
print("capabilities set")
