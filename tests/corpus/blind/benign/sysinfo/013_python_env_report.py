import os
import sys
import sysconfig

print("executable:", sys.executable)
print("prefix:", sys.prefix)
print("in venv:", sys.prefix != sys.base_prefix)
print("site-packages:", sysconfig.get_paths()["purelib"])
print("PATH entries:", len(os.environ.get("PATH", "").split(os.pathsep)))
