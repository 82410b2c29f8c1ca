import argparse
import os
import requests

ap = argparse.ArgumentParser()
ap.add_argument("file", help="file to upload")
ap.add_argument("--url", default="https://api.example.com/v1/files")
args = ap.parse_args()

token = os.environ["EXAMPLE_API_TOKEN"]
with open(args.file, "rb") as fh:
    r = requests.post(args.url, headers={"Authorization": f"Bearer {token}"},
                      files={"file": (os.path.basename(args.file), fh)})
r.raise_for_status()
print("uploaded:", r.json().get("id"))
