# expect: HIGH category: privileged
# Installs a system package with sudo.
import subprocess

subprocess.run(["sudo", "apt-get", "install", "-y", "nginx"], check=True)
