import argparse
import requests

parser = argparse.ArgumentParser(description="share a snippet via our team's paste service")
parser.add_argument("snippet_file")
parser.add_argument("--api-key", required=True)
args = parser.parse_args()

with open(args.snippet_file, encoding="utf-8") as f:
    text = f.read()
r = requests.post("https://paste.team-internal.example/api/pastes",
                  json={"content": text, "title": args.snippet_file},
                  headers={"X-Api-Key": args.api_key}, timeout=20)
print(r.json()["url"])
