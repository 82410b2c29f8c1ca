# expect: MEDIUM category: system_read
# Shows the login limits with cat.
import subprocess

result = subprocess.run(["cat", "/etc/security/limits.conf"], capture_output=True, text=True, check=False)
print(result.stdout)
