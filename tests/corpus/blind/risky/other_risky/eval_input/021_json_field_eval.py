import json
import sys

data = json.load(open(sys.argv[1]))
for item in data["items"]:
    item["score"] = eval(item["formula"])
print(json.dumps(data, indent=2))
print(len(data["items"]))
