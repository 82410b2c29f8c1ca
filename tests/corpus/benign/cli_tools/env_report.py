# expect: BENIGN category: cli_tools
import os
import platform
import sys

print("python  ", sys.version.split()[0])
print("platform", platform.platform())
print("cwd     ", os.getcwd())
print("virtualenv", os.environ.get("VIRTUAL_ENV", "(none)"))
print("editor  ", os.getenv("EDITOR", "(unset)"))
