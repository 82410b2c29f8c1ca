import argparse
import zipfile

ap = argparse.ArgumentParser(description="restore a project backup zip into ./restored")
ap.add_argument("archive")
a = ap.parse_args()
with zipfile.ZipFile(a.archive) as z:
    bad = z.testzip()
    if bad:
        raise SystemExit(f"corrupt member: {bad}")
    z.extractall("restored")
print("restored into ./restored")
