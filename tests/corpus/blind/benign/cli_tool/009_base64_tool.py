import argparse
import base64
import sys

ap = argparse.ArgumentParser()
ap.add_argument("mode", choices=["encode", "decode"])
ap.add_argument("infile", nargs="?", type=argparse.FileType("rb"), default=sys.stdin.buffer)
a = ap.parse_args()
data = a.infile.read()
out = base64.b64encode(data) if a.mode == "encode" else base64.b64decode(data)
sys.stdout.buffer.write(out)
