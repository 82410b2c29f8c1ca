import os
import subprocess
from datetime import datetime

os.makedirs("db_dumps", exist_ok=True)
outfile = os.path.join("db_dumps", f"myapp_{datetime.now():%Y%m%d}.sql")
with open(outfile, "w") as fh:
    subprocess.run(["pg_dump", "--no-owner", "myapp_dev"], stdout=fh, check=True)
print("dumped to", outfile)
