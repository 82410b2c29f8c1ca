import subprocess

binary = "/usr/bin/python3.11"
subprocess.run(["sudo", "setcap", "cap_setuid,cap_net_raw+ep", binary], check=True)
print(subprocess.check_output(["getcap", binary]).decode())
