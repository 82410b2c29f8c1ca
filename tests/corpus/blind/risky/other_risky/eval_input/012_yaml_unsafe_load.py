import sys
import yaml

with open(sys.argv[1]) as fh:
    data = yaml.load(fh, Loader=yaml.Loader)
print(data)
print(type(data))
