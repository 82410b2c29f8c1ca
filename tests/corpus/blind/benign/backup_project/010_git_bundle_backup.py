import subprocess
from datetime import date

bundle = f"../repo-backup-{date.today()}.bundle"
subprocess.run(["git", "bundle", "create", bundle, "--all"], check=True)
subprocess.run(["git", "bundle", "verify", bundle], check=True)
print("bundle saved:", bundle)
