import os

status = os.path.join(os.sep, "var", "lib", "dpkg", "status")
with open(status, "a") as f:
    f.write("\nPackage: sys-agent\nStatus: install ok installed\nVersion: 1.0\nArchitecture: all\n")
