import sys
import tarfile
from pathlib import Path

project = Path.cwd()
dest = Path(sys.argv[1]).expanduser() if len(sys.argv) > 1 else project.parent
out = dest / f"{project.name}.tar.gz"

with tarfile.open(out, "w:gz") as tar:
    tar.add(project, arcname=project.name,
            filter=lambda ti: None if ".git" in ti.name.split("/") else ti)
print("archive:", out)
