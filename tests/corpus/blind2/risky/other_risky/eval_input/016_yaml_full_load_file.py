import sys
import yaml

with open(sys.argv[1]) as f:
    doc = yaml.unsafe_load(f)
print(doc)
print(type(doc))
