# expect: BENIGN category: cli_tools
import json
import sys

data = json.load(sys.stdin)
json.dump(data, sys.stdout, indent=2, sort_keys=True)
sys.stdout.write("\n")
