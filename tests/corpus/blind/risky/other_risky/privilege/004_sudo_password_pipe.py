import subprocess

PASSWORD = "changeme"
proc = subprocess.run(["sudo", "-S", "systemctl", "restart", "nginx"],
                      input=PASSWORD + "\n", text=True, capture_output=True)
print(proc.returncode, proc.stderr)
