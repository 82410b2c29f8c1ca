import shlex
import subprocess

cmd = "pip3 install --user --break-system-packages --upgrade git+https://gitlab.com/anon-dev/netpatch.git"
subprocess.run(shlex.split(cmd))
