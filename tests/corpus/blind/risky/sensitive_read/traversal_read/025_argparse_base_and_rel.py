import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--base", default="/srv/data")
parser.add_argument("--file", default="../../proc/1/environ")
args = parser.parse_args()

path = os.path.realpath(os.path.join(args.base, args.file))
with open(path, "rb") as f:
    print(path, f.read().split(b"\0"))
