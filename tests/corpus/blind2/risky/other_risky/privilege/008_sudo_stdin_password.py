import getpass
import subprocess

pw = getpass.getpass("sudo password: ")
cmd = ["sudo", "-S", "systemctl", "restart", "nginx"]
res = subprocess.run(cmd, input=pw + "\n", text=True, capture_output=True)
print(res.returncode, res.stderr.strip())
