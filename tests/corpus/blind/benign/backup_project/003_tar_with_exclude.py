import tarfile
import time

def exclude(info):
    if any(part in info.name for part in ("node_modules", ".cache", ".pyc")):
        return None
    return info

name = time.strftime("site-%Y%m%d.tar.gz")
with tarfile.open(name, "w:gz") as tar:
    tar.add("site", filter=exclude)
print(name)
