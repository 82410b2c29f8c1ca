import argparse
import shutil
import os

ap = argparse.ArgumentParser(description="Copy ./data into a destination folder you choose")
ap.add_argument("destination")
ap.add_argument("--overwrite", action="store_true")
args = ap.parse_args()

dst = os.path.join(os.path.expanduser(args.destination), "data")
if os.path.exists(dst) and args.overwrite:
    shutil.rmtree(dst)
shutil.copytree("data", dst)
print("copied ./data ->", dst)
