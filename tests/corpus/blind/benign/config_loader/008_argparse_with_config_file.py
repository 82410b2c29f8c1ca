import argparse
import json

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="settings.json")
parser.add_argument("--verbose", action="store_true")
args = parser.parse_args()

with open(args.config) as f:
    conf = json.load(f)
if args.verbose:
    print("loaded", len(conf), "keys from", args.config)
print(conf.get("name", "unnamed"))
