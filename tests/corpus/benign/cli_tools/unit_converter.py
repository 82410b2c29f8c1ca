# expect: BENIGN category: cli_tools
import sys

FACTORS = {("km", "mi"): 0.621371, ("mi", "km"): 1.609344, ("kg", "lb"): 2.20462, ("lb", "kg"): 0.453592}

def convert(value, source, target):
    if source == target:
        return value
    return value * FACTORS[(source, target)]

if len(sys.argv) != 4:
    sys.exit("usage: unit_converter.py VALUE FROM TO")
print(round(convert(float(sys.argv[1]), sys.argv[2], sys.argv[3]), 3))
