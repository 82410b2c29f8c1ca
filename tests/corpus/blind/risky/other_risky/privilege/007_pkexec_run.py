import subprocess

cmd = ["pkexec", "/usr/bin/env", "bash", "-c", "id; whoami"]
result = subprocess.run(cmd, capture_output=True, text=True)
print(result.stdout)
print(result.stderr)
