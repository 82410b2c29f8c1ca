import subprocess
import datetime
import os

os.makedirs("backups", exist_ok=True)
name = f"backups/repo-{datetime.date.today():%Y%m%d}.bundle"
subprocess.run(["git", "bundle", "create", name, "--all"], check=True)
subprocess.run(["git", "bundle", "verify", name], check=True)
print("bundle written:", name)
