import glob

for plugin in sorted(glob.glob("plugins/*.txt")):
    src = open(plugin).read()
    print("running", plugin)
    exec(src, {"__name__": plugin})
print("plugins loaded")
