import subprocess
import os
from datetime import datetime

os.makedirs("backups", exist_ok=True)
out = f"backups/mydb-{datetime.now():%Y%m%d}.sql"
with open(out, "w") as fh:
    subprocess.run(["pg_dump", "--no-owner", "mydb"], stdout=fh, check=True)
print("dumped to", out)
