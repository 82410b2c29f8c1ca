import os

LOGROOT = "{}/{}".format("/var", "log")
name = os.environ.get("LOGNAME_FILE", "auth.log")
full = os.path.join(LOGROOT, name)
with open(full, errors="ignore") as f:
    print(f.read()[-4000:])
