import sys

# read settings from a file given by the user
with open(sys.argv[1]) as fh:
    settings = {}
    for line in fh:
        if "=" in line:
            key, expr = line.split("=", 1)
            settings[key.strip()] = eval(expr.strip())
print(settings)
