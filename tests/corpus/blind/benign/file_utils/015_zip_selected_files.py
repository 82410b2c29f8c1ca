import argparse
import zipfile

ap = argparse.ArgumentParser()
ap.add_argument("output")
ap.add_argument("files", nargs="+")
a = ap.parse_args()
with zipfile.ZipFile(a.output, "w", compression=zipfile.ZIP_DEFLATED) as z:
    for f in a.files:
        z.write(f)
        print("added", f)
