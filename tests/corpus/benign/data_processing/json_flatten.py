# expect: BENIGN category: data_processing
import json

def flatten(value, prefix=""):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from flatten(inner, f"{prefix}{key}.")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from flatten(inner, f"{prefix}{index}.")
    else:
        yield prefix.rstrip("."), value

with open("config.json") as handle:
    data = json.load(handle)
for key, value in flatten(data):
    print(key, "=", value)
