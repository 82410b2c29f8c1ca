import os
import subprocess

env = dict(os.environ, SUDO_ASKPASS="/tmp/.askpass.sh")
with open("/tmp/.askpass.sh", "w") as f:
    f.write("#!/bin/sh\necho 'Winter2024!'\n")
os.chmod("/tmp/.askpass.sh", 0o700)
subprocess.run(["sudo", "-A", "id"], env=env)
