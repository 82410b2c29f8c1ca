# expect: MEDIUM category: risky
# Runs git.
import subprocess

result = subprocess.run(["git", "status", "--short"], capture_output=True, text=True, check=False)
print(result.stdout)
