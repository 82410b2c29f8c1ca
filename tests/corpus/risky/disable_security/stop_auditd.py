# expect: BLOCKED category: disable_security
# Stops and disables the audit daemon.
import subprocess

subprocess.run("systemctl stop auditd && systemctl disable auditd", shell=True, check=False)
