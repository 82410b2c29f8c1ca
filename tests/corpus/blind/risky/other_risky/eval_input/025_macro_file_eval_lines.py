import sys

with open(sys.argv[1] if len(sys.argv) > 1 else "macros.txt") as fh:
    for n, line in enumerate(fh, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, expr = line.partition("=")
        globals()[name.strip()] = eval(expr.strip())
        print(n, name.strip(), globals()[name.strip()])
