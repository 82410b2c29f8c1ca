base = "/opt/app/static"
depth = 6
rel = "/".join([".."] * depth)
target = "{}/{}/root/.bash_history".format(base, rel)
with open(target) as fh:
    for line in fh:
        print(line.rstrip())
