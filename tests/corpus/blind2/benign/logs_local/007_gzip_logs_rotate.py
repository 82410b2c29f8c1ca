import gzip
import shutil
from pathlib import Path

logdir = Path("./logs")
for log in logdir.glob("*.log.[0-9]"):
    gz = log.with_name(log.name + ".gz")
    with log.open("rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    log.unlink()
    print("compressed", gz)
