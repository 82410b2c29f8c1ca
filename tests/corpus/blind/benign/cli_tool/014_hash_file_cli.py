import argparse
import hashlib

ap = argparse.ArgumentParser(description="print file digests")
ap.add_argument("files", nargs="+")
ap.add_argument("-a", "--algo", default="sha256", choices=sorted(hashlib.algorithms_guaranteed))
a = ap.parse_args()
for f in a.files:
    h = hashlib.new(a.algo)
    with open(f, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    print(f"{h.hexdigest()}  {f}")
