# expect: BENIGN category: http_client
import argparse
from pathlib import Path

import requests

parser = argparse.ArgumentParser(description="Upload a file to the team's file service")
parser.add_argument("file", type=Path)
parser.add_argument("--url", default="https://files.example.com/api/upload")
args = parser.parse_args()
with args.file.open("rb") as handle:
    response = requests.post(args.url, files={"file": (args.file.name, handle)}, timeout=60)
response.raise_for_status()
print("uploaded", args.file, "->", response.json().get("id"))
