import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("--config", default="settings.json")
ap.add_argument("--verbose", action="store_true")
ap.add_argument("--threads", type=int)
args = ap.parse_args()

with open(args.config) as fh:
    conf = json.load(fh)
conf.update({k: v for k, v in vars(args).items() if v is not None and k != "config"})
print(json.dumps(conf, indent=2))
